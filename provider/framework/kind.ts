/**
 * A resource kind's definition: its key in state, its type token, whether its object has a natural key, its
 * properties (declared once: see properties.ts), its outputs and its handler. Each kind's file exports one, and
 * `provider/kinds/index.ts` lists them all; everything else (the runtime's handlers, type tokens, display names, the
 * exporter's kinds, delete-before-replace) is derived from there.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../kindKeys";
import { kindOptions, thinProvider, TYPE_MODULE } from "../dynamic";
import { OrganizationMoveError } from "../errors";
import {
  checkProperties,
  connectionStaysInOrganization,
  diffProperties,
  type Props,
  type ResourceHandler,
} from "./framework";
import { diffSpecOf, liveInputsOf, registeredInputs, schemaShape, type PropertySpecs } from "./properties";
import { CLAIMANT_KEY, type Claimant } from "./claims";

export interface KindDefinition<
  Key extends string = string,
  P extends PropertySpecs<never> = PropertySpecs<never>,
  Type extends string = string,
> {
  /** What serialized providers pass to the runtime's `handler(kind)`: never renamed, old state names it. */
  kind: Key;
  /** The last part of the type token (`pulumi-nodejs:dynamic/devicemgmt:<type>`) and the name users see. */
  type: Type;
  /**
   * The object is identified by a natural key (an e-mail, an owner/attached pair) that cannot exist twice, so a
   * replacement deletes the old object first, and `--replace` (which never asks the provider's Diff) is told so
   * by the resource option.
   */
  naturalKey: boolean;
  properties: P;
  /** Outputs that are not declared properties (read from the API, or recorded when the object was made). */
  outputs: readonly string[];
  handler: ResourceHandler;
}

/** Keeps the literal types of a definition (its key, its properties) for the checks built on them. */
export function defineKind<
  const Key extends string,
  P extends PropertySpecs<never>,
  const Type extends string,
>(definition: KindDefinition<Key, P, Type>): KindDefinition<Key, P, Type> {
  return definition;
}

/** `check` by the declaration: one failure per bad property, each naming it and the fix. */
export function checkKind(definition: Pick<KindDefinition, "type" | "properties">, news: Props) {
  return checkProperties(definition.type, schemaShape(definition.properties), news);
}

/**
 * Pure `diff` by the declaration (`sameOrganization`: see `connectionStaysInOrganization`). A kind with a natural
 * key whose connection moves to another organization is refused (OrganizationMoveError): its replacement is
 * delete-first, and the resource option that makes it so (for `--replace`) overrides any answer diff could give.
 */
export function diffKind(
  definition: Pick<KindDefinition, "type" | "properties" | "naturalKey">,
  olds: Props,
  news: Props,
  sameOrganization?: boolean,
): pulumi.dynamic.DiffResult {
  const result = diffProperties(
    olds,
    news,
    diffSpecOf(definition.properties, definition.naturalKey),
    sameOrganization,
  );
  if (definition.naturalKey && result.replaces?.includes("connection"))
    throw new OrganizationMoveError(definition.type);
  return result;
}

/** `diff` by the declaration, asking the API whether a changed connection stays in the organization. */
export async function diffKindAsked(
  definition: Pick<KindDefinition, "type" | "properties" | "naturalKey">,
  olds: Props,
  news: Props,
): Promise<pulumi.dynamic.DiffResult> {
  return diffKind(definition, olds, news, await connectionStaysInOrganization(olds, news));
}

/** The inputs refresh reports for recorded outputs: the declared properties, nothing read-only. */
export function liveInputs(definition: Pick<KindDefinition, "properties">, outputs: Props): Props {
  return liveInputsOf(definition.properties, outputs);
}

/**
 * The public `Args` interface (written out for its TSDoc) names exactly the declared properties: an argument
 * nobody declared, or a declared property without an argument, makes the class's `registration` call a
 * compile error that names them.
 */
export type ArgsMatch<Args, P> = [Exclude<keyof Args, keyof P>, Exclude<keyof P, keyof Args>] extends [
  never,
  never,
]
  ? unknown
  : { argsNotDeclared: Exclude<keyof Args, keyof P>; declaredWithoutArgs: Exclude<keyof P, keyof Args> };

/**
 * The arguments of `pulumi.dynamic.Resource`'s constructor for a kind: its thin provider, the declared inputs
 * and outputs, the kind's options (legacy alias, delete-before-replace for a natural key) and its type token.
 * The resource's name travels as `__claimant`: the plugin gives the handler no URN, and claims.ts names both
 * resources when two declare one live object.
 */
export function registration<P extends PropertySpecs<never>, Args extends object>(
  definition: KindDefinition<ResourceKind, P>,
  name: string,
  args: Args & ArgsMatch<Args, P>,
  opts: pulumi.CustomResourceOptions | undefined,
): [pulumi.dynamic.ResourceProvider, string, pulumi.Inputs, pulumi.CustomResourceOptions, string, string] {
  return [
    thinProvider(definition.kind),
    name,
    {
      ...registeredInputs(definition.properties, definition.outputs, args),
      [CLAIMANT_KEY]: { name, stack: pulumi.getStack() } satisfies Claimant,
    },
    kindOptions(opts, definition.naturalKey),
    TYPE_MODULE,
    definition.type,
  ];
}
