/**
 * The provider plugin `pulumi-resource-devicemgmt` as a `@pulumi/pulumi/provider` Provider: every kind of the
 * kind table as `devicemgmt:index:<Type>`, served by the same handlers the dynamic resources call (the runtime's
 * `handler(kind)`: claims and organization pinning included), and the lookups of functions.ts.
 *
 * What differs from the dynamic provider, and why:
 * - The resource's name and stack come from the URN on every call, so `__claimant` (which the classes register
 *   because the dynamic plugin gives handlers no URN) is added to each call here and left out of what the engine
 *   records.
 * - Secret properties (`secret: true`) are returned by check as secrets, so the engine encrypts them (and the
 *   outputs of the same name) whatever the language: a YAML program need not wrap them.
 * - The connection comes from the provider's configuration (configure.ts), so an explicit provider instance
 *   reaches another organization.
 */
import * as pulumi from "@pulumi/pulumi";
import type * as provider from "@pulumi/pulumi/provider";
import { handler } from "../runtime";
import { ImportNotFoundError } from "./errors";
import { KINDS } from "../kinds";
import {
  CLAIMANT_KEY,
  clientForProps,
  jsonClean,
  onResource,
  type Claimant,
  type KindDefinition,
  type PropertySpec,
  type Props,
} from "../framework";
import { FUNCTIONS } from "./functions";
import { packageSchema, resourceToken } from "./schema";
import type { PluginConfiguration } from "./configure";

/** The parts of a URN the handlers need: `urn:pulumi:<stack>::<project>::<parent$type>::<name>`. */
export function parseUrn(urn: string): { stack: string; project: string; type: string; name: string } {
  const [head, project, qualifiedType, ...name] = urn.split("::");
  return {
    stack: head.replace(/^urn:pulumi:/, ""),
    project,
    type: qualifiedType.split("$").pop() ?? qualifiedType,
    name: name.join("::"),
  };
}

const byToken = new Map<string, KindDefinition>(
  (Object.values(KINDS) as KindDefinition[]).map((definition) => [
    resourceToken(definition.type),
    definition,
  ]),
);

function kindOf(urn: string): KindDefinition {
  const { type } = parseUrn(urn);
  const definition = byToken.get(type);
  if (!definition)
    throw new Error(
      `devicemgmt has no resource type ${type}: the types are ${[...byToken.keys()].join(", ")}`,
    );
  return definition;
}

/** The call's values with the resource's name and stack as the handlers' `__claimant`. */
function withClaimant(values: Props | undefined, urn: string): Props {
  const { name, stack } = parseUrn(urn);
  return { ...(values ?? {}), [CLAIMANT_KEY]: { name, stack } satisfies Claimant };
}

/** What the engine records: the handler's values without the hidden `__claimant` (the URN says it). */
function recorded<T extends Props | undefined>(values: T): T {
  if (values === undefined) return values;
  const { [CLAIMANT_KEY]: _claimant, ...rest } = values;
  return jsonClean(rest) as T;
}

/** The declared secret properties as the engine's secret values, so it encrypts them and their outputs. */
function withSecrets(definition: KindDefinition, inputs: Props): Props {
  const out: Props = { ...inputs };
  for (const [key, spec] of Object.entries(definition.properties as Record<string, PropertySpec<never>>))
    if (spec.secret && out[key] !== undefined && out[key] !== null)
      out[key] = { [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig, value: out[key] };
  return out;
}

/**
 * A read of an id alone: `pulumi import`, the `import` resource option and a resource's `get` hand the provider no
 * recorded state. A refresh always hands the outputs it recorded (every resource has `organizationId`).
 */
const isImport = (props: Props | undefined) => Object.keys(props ?? {}).length === 0;

/**
 * The inputs of an imported object as a user declares them: a property the object lacks (a root group's parent,
 * a PIN its mode takes none of) is left out, as the user leaves it out, not declared null. The engine records
 * these inputs and checks them, and `pulumi import` writes them as the program.
 */
function declaredOnly(inputs: Props | undefined): Props | undefined {
  return inputs && Object.fromEntries(Object.entries(inputs).filter(([, value]) => value !== null));
}

const organizationReached = async (props: Props | undefined) =>
  (await clientForProps(props ?? {}).assertV3Token()).organization_id;

/**
 * A partial failure (framework.ts PartialFailureError: the object exists but the operation did not finish)
 * carries the properties the engine records: without the hidden keys, which the server cannot encode as they are.
 */
function recordedFailure(error: unknown): unknown {
  if (error instanceof Error && "id" in error && "properties" in error) {
    const properties = recorded({ ...(error.properties as Props), __provider: undefined });
    return Object.assign(error, { properties });
  }
  return error;
}

export function pluginProvider(version: string, configuration: PluginConfiguration): provider.Provider {
  return {
    version,
    getSchema: async () => JSON.stringify(packageSchema(version)),

    check: (urn, olds, news) =>
      onResource(urn, async () => {
        const definition = kindOf(urn);
        const result = await handler(definition.kind).check(withClaimant(olds, urn), withClaimant(news, urn));
        return {
          inputs: withSecrets(definition, recorded(result.inputs ?? {})),
          failures: result.failures ?? [],
        };
      }),

    diff: (id, urn, olds, news) =>
      onResource(urn, () =>
        handler(kindOf(urn).kind).diff(id, withClaimant(olds, urn), withClaimant(news, urn)),
      ),

    create: (urn, inputs) =>
      onResource(urn, async () => {
        try {
          const result = await handler(kindOf(urn).kind).create(withClaimant(inputs, urn));
          return { id: result.id, outs: recorded(result.outs ?? {}) };
        } catch (error) {
          throw recordedFailure(error);
        }
      }),

    read: (id, urn, props) =>
      onResource(urn, async () => {
        const definition = kindOf(urn);
        const result = await handler(definition.kind).read(id, withClaimant(props, urn));
        const importing = isImport(props);
        if (result.id === undefined && importing)
          throw new ImportNotFoundError(definition.type, id, await organizationReached(props));
        // The engine marks a refreshed value secret where the recorded one was; an import records nothing, so a
        // declared secret property a read returns (none does today: a PIN is never read) is marked here.
        const secret = (values: Props | undefined) => values && withSecrets(definition, recorded(values));
        const inputs = importing ? declaredOnly(result.inputs) : result.inputs;
        return { id: result.id, props: secret(result.props), inputs: secret(inputs) };
      }),

    update: (id, urn, olds, news) =>
      onResource(urn, async () => {
        try {
          const result = await handler(kindOf(urn).kind).update(
            id,
            withClaimant(olds, urn),
            withClaimant(news, urn),
          );
          return { outs: recorded(result.outs ?? {}) };
        } catch (error) {
          throw recordedFailure(error);
        }
      }),

    delete: (id, urn, props) =>
      onResource(urn, () => handler(kindOf(urn).kind).delete(id, withClaimant(props, urn))),

    async invoke(token, inputs) {
      const fn = FUNCTIONS[token];
      if (!fn)
        throw new Error(
          `devicemgmt has no function ${token}: the functions are ${Object.keys(FUNCTIONS).join(", ")}`,
        );
      const outputs = await fn.call(inputs ?? {}, { connection: configuration.connection() });
      return { outputs: jsonClean(outputs) };
    },
  };
}
