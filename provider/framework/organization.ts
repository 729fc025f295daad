/**
 * Two safety rules that hold for every kind, applied around its handler in one place:
 *
 * 1. A resource lives in one organization. Its outputs record the organization the token reached when it was
 *    created, and read, update and delete refuse a token of another organization. Without this, a refresh or
 *    destroy with another organization's token sees 404 everywhere, reads that as "already gone" and forgets
 *    every resource (and the next `up` rebuilds production in the wrong organization).
 *
 *    `check` refuses it too, before any look-up in the organization: the engine gives a dynamic provider's
 *    check the recorded inputs only (not the outputs), so check keeps the organization in the hidden input
 *    `__organization` (see `pinnedCheck`). Without that, a changed program checked with another organization's
 *    token reads "no file with id …" for a file that exists where the resource lives.
 *
 * 2. Within one engine run (one plugin process), an object that a create took over through `adoptId` is not
 *    deleted by the removal of another resource that managed it before. That is what happens when the program
 *    keeps `adoptId` and renames the resource, when a re-export after a rename in the portal changes resource
 *    names, or on `--replace`: the engine creates (adopts) the new name first and deletes the old name after
 *    the program. A process is one `pulumi up`/`destroy`: the engine starts the plugin afresh for each.
 */
import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtProblem } from "../errors";
import { clientForProps } from "./context";
import { containsUnknown, PartialFailureError, type Props, type ResourceHandler } from "./protocol";
import { deepEqual } from "./diff";
import { pluginHandler, type KindDefinition } from "./kind";
import { runLedger } from "./runLedger";

/** The output every resource carries: the id of the organization it lives in. */
export const ORGANIZATION_KEY = "organizationId";

export class OtherOrganizationError extends DeviceMgmtProblem {
  constructor(what: string, recorded: string, reached: string) {
    super(
      `${what} lives in organization ${recorded}, but the API token in use reaches organization ${reached}. ` +
        `Nothing was changed and nothing was removed from the stack. Use a token of organization ${recorded} ` +
        `(devicemgmt:apiToken, DEVICEMGMT_API_TOKEN or the resource's connection). Note that \`pulumi refresh\` ` +
        `and \`pulumi destroy\` use the configuration stored at the last \`pulumi up\`, and a resource's own ` +
        `connection outranks both.`,
      { property: "devicemgmt:apiToken", fix: `use a token of organization ${recorded}` },
    );
  }
}

type ReadResult = pulumi.dynamic.ReadResult;

/**
 * The hidden input (beside `__provider`, `__claimant`) in which check keeps the organization the resource lives
 * in, so that the next check can compare it with the token's before it asks the organization anything.
 */
export const ORGANIZATION_INPUT = "__organization";

const adoptedHere = new Set<string>();
const deletedHere = new Set<string>();
const key = (kind: string, organizationId: string, id: string) => `${kind}\0${organizationId}\0${id}`;

async function reachedOrganization(props: Props): Promise<string> {
  return (await clientForProps(props).assertV3Token()).organization_id;
}

/** The organization the token of `props` reaches, after checking it is the one `recorded` names (if any). */
async function sameOrganization(type: string, id: string, recorded: Props, props: Props): Promise<string> {
  const reached = await reachedOrganization(props);
  const pinned = recorded[ORGANIZATION_KEY];
  if (typeof pinned === "string" && pinned !== reached) {
    throw new OtherOrganizationError(`${type} ${id}`, pinned, reached);
  }
  return reached;
}

function pinned<T extends { outs?: Props; props?: Props }>(result: T, organizationId: string): T {
  if (result.outs) return { ...result, outs: { ...result.outs, [ORGANIZATION_KEY]: organizationId } };
  if (result.props) return { ...result, props: { ...result.props, [ORGANIZATION_KEY]: organizationId } };
  return result;
}

/**
 * A read that finds the object as recorded returns no inputs, so the engine keeps the stored ones (step.go,
 * RefreshStep.Apply: "Otherwise, retain the current inputs"). They are what the last `up` recorded, and the
 * plugin then encodes one Struct per read instead of two: most of a refresh's reads find nothing changed.
 * After a change outside Pulumi (or an id alone, as an import reads) the live inputs go back, so that the
 * next preview shows the drift.
 */
function unchangedWithoutInputs(result: ReadResult, id: string, recorded: Props): ReadResult {
  if (!result.inputs || result.id !== id || !result.props) return result;
  const { __provider: _ignored, ...read } = result.props;
  const { __provider: _alsoIgnored, ...before } = recorded;
  return deepEqual(read, before) ? { id: result.id, props: result.props } : result;
}

/** The organization the token of `props` reaches, or undefined when that cannot be asked now. */
async function reachedIfKnown(props: Props): Promise<string | undefined> {
  if (containsUnknown(props.connection)) return undefined;
  return reachedOrganization(props).catch(() => undefined);
}

/**
 * `check` with the organization pin. The recorded organization is the hidden input `__organization` of the last
 * check (the engine hands check no outputs). With the same `connection` as recorded and a token that now reaches
 * another organization, check fails with that reason alone, before the kind's own check looks anything up there
 * (where every id would read as missing). A changed `connection` is diff's to judge (a replacement in the other
 * organization, or a refusal for a kind with a natural key). The pin is carried from the last check; a new
 * resource, or state written before the pin was kept in inputs, takes the token's organization (diff compares
 * that with the recorded output, so a wrong one is never recorded).
 */
async function pinnedCheck(
  type: string,
  handler: ResourceHandler,
  olds: Props,
  news: Props,
): Promise<pulumi.dynamic.CheckResult> {
  const recorded = typeof olds[ORGANIZATION_INPUT] === "string" ? olds[ORGANIZATION_INPUT] : undefined;
  const sameConnection = deepEqual(olds.connection, news.connection);
  const reached = await reachedIfKnown(news);
  if (recorded !== undefined && sameConnection && reached !== undefined && reached !== recorded) {
    return {
      inputs: { ...news, [ORGANIZATION_INPUT]: recorded },
      failures: [
        { property: "", reason: new OtherOrganizationError(`This ${type}`, recorded, reached).message },
      ],
    };
  }
  const organization = (sameConnection ? recorded : undefined) ?? reached;
  const result = await handler.check(olds, news);
  if (organization === undefined) return result;
  return { ...result, inputs: { ...(result.inputs ?? {}), [ORGANIZATION_INPUT]: organization } };
}

/**
 * The pin check recorded for state written before it was kept in inputs is the token's organization: refused
 * here when the resource lives in another, so that it is never recorded. A changed connection is judged by the
 * kind's diff.
 */
function assertPinnedInput(type: string, id: string, olds: Props, news: Props): void {
  const pinnedInput = news[ORGANIZATION_INPUT];
  const recorded = olds[ORGANIZATION_KEY];
  if (typeof pinnedInput !== "string" || typeof recorded !== "string" || pinnedInput === recorded) return;
  if (!deepEqual(olds.connection, news.connection)) return;
  throw new OtherOrganizationError(`${type} ${id}`, recorded, pinnedInput);
}

/** A partial failure still records what exists, in its organization. */
function pinFailure(error: unknown, organizationId: string): unknown {
  if (error instanceof PartialFailureError) {
    (error.properties as Props)[ORGANIZATION_KEY] = organizationId;
  }
  return error;
}

export function pinnedToOrganization(definition: KindDefinition): ResourceHandler {
  const { kind, type } = definition;
  const handler = pluginHandler(definition);
  return {
    check: (olds, news) => pinnedCheck(type, handler, olds, news),
    diff(id, olds, news) {
      assertPinnedInput(type, id, olds, news);
      return handler.diff(id, olds, news);
    },

    async create(inputs) {
      const organizationId = await reachedOrganization(inputs);
      const adoptId = typeof inputs.adoptId === "string" ? inputs.adoptId : undefined;
      // `--replace` of a delete-first kind that still names its object in adoptId: this run deleted that very
      // object a moment ago, so the replacement is a new object, not an adoption.
      const effective =
        adoptId && deletedHere.has(key(kind, organizationId, adoptId))
          ? { ...inputs, adoptId: undefined }
          : inputs;
      try {
        const result = await handler.create(effective);
        if (typeof effective.adoptId === "string") adoptedHere.add(key(kind, organizationId, result.id));
        // State keeps the declared adoptId, so that the delete of a later replacement spends it again.
        const recorded =
          effective === inputs || !result.outs ? result : { ...result, outs: { ...result.outs, adoptId } };
        return pinned(recorded, organizationId);
      } catch (error) {
        throw pinFailure(error, organizationId);
      }
    },

    async read(id, props) {
      const organizationId = await sameOrganization(type, id, props, props);
      const result = unchangedWithoutInputs(pinned(await handler.read(id, props), organizationId), id, props);
      // Inputs a read reports replace the recorded ones: they keep the pin, which they name (see pinnedCheck).
      return result.inputs
        ? { ...result, inputs: { ...result.inputs, [ORGANIZATION_INPUT]: organizationId } }
        : result;
    },

    async update(id, olds, news) {
      const organizationId = await sameOrganization(type, id, olds, news);
      try {
        return pinned(await handler.update(id, olds, news), organizationId);
      } catch (error) {
        throw pinFailure(error, organizationId);
      }
    },

    async delete(id, props) {
      const organizationId = await sameOrganization(type, id, props, props);
      const object = key(kind, organizationId, id);
      if (adoptedHere.has(object)) return; // another resource of this run took it over: keep it
      // A refused create of this run met it, or an object it refers to: the program still declares it.
      runLedger.assertDeletable(type, id, props);
      await handler.delete(id, props);
      deletedHere.add(object);
      // An adopted object replaced in its place under a new id (a file) left the resource recording that id: the
      // adoption is spent with this delete too, so a replacement's create uploads instead of adopting the gone id.
      if (typeof props.adoptId === "string") deletedHere.add(key(kind, organizationId, props.adoptId));
    },
  };
}
