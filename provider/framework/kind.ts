/**
 * A resource kind's definition: its key in state, its type token, whether its object has a natural key, its
 * properties (declared once: see properties.ts), its outputs and its handler. Each kind's file exports one, and
 * `provider/kinds/index.ts` lists them all; everything else (the runtime's handlers, type tokens, display names, the
 * exporter's kinds, delete-before-replace) is derived from there.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../kindKeys";
import { kindOptions, providerText, typeToken } from "../dynamic";
import { OrganizationMoveError } from "../errors";
import { checkProperties } from "./schemas";
import { connectionStaysInOrganization, diffProperties } from "./diff";
import { type Props, type ResourceHandler } from "./protocol";
import { unlessGone } from "./writes";
import { clientForProps } from "./context";
import type { DeviceMgmtClient } from "../client";
import {
  diffSpecOf,
  liveInputsOf,
  registeredInputs,
  schemaShape,
  type CheckedStateOf,
  type PropertySpecs,
  type StateOf,
} from "./properties";
import { CLAIMANT_KEY, type Claimant, type ClaimSpec } from "./claims";
import type { DriftFacet, KindSection } from "./facets";

/**
 * The inputs the engine carries beside the declared ones: the serialized provider (a partial failure must hand it
 * back) and the resource's name (claims.ts). A type alias, not an interface, so that it stays assignable to Props.
 */
export type HiddenInputs = { __provider?: unknown; __claimant?: Claimant };

/**
 * What a kind's `check` returns and its `create` and `update` receive: every declared property after check, as
 * its schema produced it (recorded state may also hold what the API showed: `RecordedOf`).
 */
export type InputsOf<P> = CheckedStateOf<P> & HiddenInputs;

/**
 * What state records for a resource of the kind: its declared properties (as check left them) and its outputs,
 * which each handler reads by name. State written by an older version may lack a property declared since: such a
 * value is absent, which every optional property's type allows and every handler treats as its default.
 */
export type RecordedOf<P> = StateOf<P> & HiddenInputs & Props;

/**
 * A kind's CRUD with typed inputs (pulumi-command's handlers are the model): `check` validates by the property
 * declarations and returns them typed, and the other methods receive what check returned (create, update) or
 * what state recorded (diff, read, update's olds, delete). `diff`'s `news` is check's result too, but during a
 * preview any value may still be the engine's unknown sentinel, so diff takes it as it comes and leaves it to
 * `diffKind`. The runtime hands the plugin's untyped calls to it (`ResourceHandler`, the boundary).
 */
export interface KindHandler<P> {
  check(olds: Props, news: Props): Promise<{ inputs: InputsOf<P>; failures: pulumi.dynamic.CheckFailure[] }>;
  diff(id: string, olds: RecordedOf<P>, news: Props): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: InputsOf<P>): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: RecordedOf<P>): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: RecordedOf<P>, news: InputsOf<P>): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: RecordedOf<P>): Promise<void>;
}

/**
 * Who a kind is, declared once in the kind's `properties.ts` after its properties, and imported by its handler,
 * its definition and its other files (a handler cannot import the definition, which imports the handler): its
 * key, its type token, its properties, whether its object has a natural key, and how its inputs name its object (its claim).
 */
export interface KindIdentity<
  Key extends string = string,
  // Without its own properties named, an identity is one of any kind (the table, the runtime): its handler's
  // typed inputs are then not known, and the plugin's calls reach it untyped (`pluginHandler`).
  P extends PropertySpecs<never> = any, // eslint-disable-line @typescript-eslint/no-explicit-any
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
  /**
   * How the kind's inputs name its object, for claims.ts (a second resource of the run declaring the same object
   * is refused with both names), or null: the inputs name no object another resource could also make.
   */
  claim: ClaimSpec | null;
}

/** Keeps the literal types of an identity (its key, its type, its properties) for the definition built on it. */
export function defineIdentity<
  const Key extends string,
  P extends PropertySpecs<never>,
  const Type extends string,
>(identity: KindIdentity<Key, P, Type>): KindIdentity<Key, P, Type> {
  return identity;
}

export interface KindDefinition<
  Key extends string = string,
  P extends PropertySpecs<never> = any, // eslint-disable-line @typescript-eslint/no-explicit-any
  Type extends string = string,
> extends KindIdentity<Key, P, Type> {
  /** Outputs that are not declared properties (read from the API, or recorded when the object was made). */
  outputs: readonly string[];
  handler: KindHandler<P>;
  /**
   * What the drift report knows of the kind (facets.ts): how its live objects are read and labelled, or
   * why it is not compared. The compared fields are not here: they are the properties the kind reads from the
   * API (`fromLive`), compared with their own `equal`.
   */
  drift: DriftFacet;
  /** The exporter's section of the generated program for the kind, or why it writes none (facets.ts). */
  export: KindSection;
  /** The kind's row in each of the documents' three tables of kinds, which `npm run kinds` writes (`KindDocs`). */
  docs: KindDocs;
  /**
   * The handler writes messages about its resource (upload progress, processing, warnings): the resources carry
   * their URN so that the CLI shows those messages on them (framework/resourceLog.ts). Off for the kinds that
   * write none, whose state would only grow by it.
   */
  logsOnResource?: true;
  /** The kind's objects are another kind's (see `KindRelation`; its facets: `relatedFacets`). */
  relation?: KindRelation;
  /**
   * The names the kind's lookup by name (`get<Type>({ name })`, its lookups.ts) finds its objects by, in the
   * client's organization: what the exporter's staging check counts a generated program's lookup against.
   * Absent: the exporter's programs look up no object of the kind by name.
   */
  namesLookedUp?(client: DeviceMgmtClient): Promise<string[]>;
}

/**
 * What the documents say of a kind, in the words of their three tables of kinds: `npm run kinds`
 * (tools/kinds/docs.ts) writes each table between its `<!-- kinds:start -->` and `<!-- kinds:end -->` markers
 * from these, so that a new kind's rows are written here, beside its definition, and nowhere else. Markdown.
 */
export interface KindDocs {
  /** README.md, "Resources": what a resource of the kind declares, in a line. */
  declares: string;
  /** The guide page that says how the kind behaves: `docs/guide/<guide>.md` (e.g. "organization"). */
  guide: string;
  /** docs/guide/README.md, "Every kind at a glance": the kind's inputs, what changes in place, what replaces, its outputs beside the inputs. */
  inputs: { inputs: string; inPlace: string; replaces: string; outputsAdded: string };
  /**
   * docs/guide/adoption.md: the `adoptId` form its check takes ("the object's id", "`<groupId>/<fileId>`"), or
   * "—" for a kind without one (test/docs/documents.test.ts checks it against the schema), and what a create does
   * with an object that is there already.
   */
  adoption: { adoptId: string; others: string };
}

/**
 * A second kind over objects another kind manages: a kind over `POST /groups/{groupId}/duplicate` makes Groups.
 * Its resources stand for that kind's objects: the drift report compares them with that kind's live objects (by
 * that kind's key, on the fields their outputs record), so such an object is neither "not managed by any stack"
 * nor listed under a kind of its own; the exporter reads and writes the objects as that kind, and the related
 * kind writes no section.
 */
export interface KindRelation {
  /** The key of the kind whose objects this kind's resources are. */
  objectsOf: ResourceKind;
  /** Why, in a reader's words ("a duplicate of a group is a group"). */
  why: string;
}

/**
 * The facets of a kind whose objects are another kind's (`relation`): the drift report reads none of its own
 * (its resources are compared as the other kind's: drift/report.ts), and the exporter writes the objects as the
 * other kind, so the related kind's section is none, saying so.
 */
export function relatedFacets(
  type: string,
  relation: KindRelation,
): Pick<KindDefinition, "relation" | "drift" | "export"> {
  return {
    relation,
    drift: { title: type, key: (resource) => resource.id, stateLabel: (resource) => resource.id },
    export: {
      notExported: `its objects are ${relation.objectsOf} objects (${relation.why}): the exporter writes them as such`,
    },
  };
}

/**
 * The kind's handler as the plugin calls it: untyped. The one place a kind's inputs stop being `Props`: what the
 * engine hands create and update is what the kind's `check` returned (checkKind types it by the declarations), and
 * what it hands read, update and delete is what the kind's own handlers recorded.
 */
export function pluginHandler(definition: Pick<KindDefinition, "handler">): ResourceHandler {
  return definition.handler as ResourceHandler;
}

/** Keeps the literal types of a definition (its key, its properties) for the checks built on them. */
export function defineKind<
  const Key extends string,
  P extends PropertySpecs<never>,
  const Type extends string,
>(definition: KindDefinition<Key, P, Type>): KindDefinition<Key, P, Type> {
  return definition;
}

/**
 * `check` by the declaration: one failure per bad property, each naming it and the fix. The inputs are typed by
 * the declarations here, once: each value is what its own schema produced (or, during a preview, the engine's
 * unknown sentinel, which only `diff` sees).
 */
export function checkKind<P extends PropertySpecs<never>>(
  definition: { type: string; properties: P },
  news: Props,
): { inputs: InputsOf<P>; failures: pulumi.dynamic.CheckFailure[] } {
  const { inputs, failures } = checkProperties(definition.type, schemaShape(definition.properties), news);
  return { inputs: inputs as InputsOf<P>, failures };
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
 * The read of a kind whose object the API gives by id: nothing when it is gone (the engine then forgets the
 * resource), else its outputs and the inputs they imply. `replacedBy`, for a kind whose object the API may
 * replace in its place under a new id (a file): the object now in the gone one's place, which the read reports
 * with its id (the engine records the new id) as the resource's own object changed.
 */
export async function readById<Live>(
  definition: Pick<KindDefinition, "properties">,
  id: string,
  props: Props,
  get: (client: DeviceMgmtClient, id: string) => Promise<Live>,
  toOutputs: (live: Live, props: Props) => Props,
  replacedBy?: (
    client: DeviceMgmtClient,
    goneId: string,
    props: Props,
  ) => Promise<Identified<Live> | undefined>,
): Promise<pulumi.dynamic.ReadResult> {
  const client = clientForProps(props);
  const live = await unlessGone(get(client, id));
  const found = live !== undefined ? { id, live } : await replacedBy?.(client, id, props);
  if (found === undefined) return {};
  const outputs = toOutputs(found.live, props);
  return { id: found.id, props: outputs, inputs: liveInputs(definition, outputs) };
}

/** A live object with the id the resource records for it. */
export interface Identified<Live> {
  id: string;
  live: Live;
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
 * The arguments of `pulumi.CustomResource`'s constructor for a kind, as `pulumi.dynamic.Resource` would pass them
 * (which the kinds no longer extend: see `providerText`): its type token, the declared inputs and outputs with
 * the `__provider` text, and the kind's options (legacy alias, delete-before-replace for a natural key).
 * The resource's name travels as `__claimant`: the plugin gives the handler no URN, and claims.ts names both
 * resources when two declare one live object. A missing token is not refused here: a resource's
 * calls run in the plugin, whose environment (an Automation API workspace's `envVars`, a CI job's) the program's
 * process may not share; the plugin's check refuses it.
 */
export function registration<P extends PropertySpecs<never>, Args extends object>(
  definition: KindDefinition<ResourceKind, P>,
  name: string,
  args: Args & ArgsMatch<Args, P>,
  opts: pulumi.CustomResourceOptions | undefined,
): [string, string, pulumi.Inputs, pulumi.CustomResourceOptions] {
  return [
    typeToken(definition.type),
    name,
    {
      ...registeredInputs(definition.properties, definition.outputs, args),
      [CLAIMANT_KEY]: {
        name,
        stack: pulumi.getStack(),
        ...(definition.logsOnResource
          ? { urn: pulumi.createUrn(name, typeToken(definition.type), opts?.parent) }
          : {}),
      } satisfies pulumi.Inputs & { [K in keyof Claimant]: pulumi.Input<Claimant[K]> },
      __provider: providerText(definition.kind),
    },
    kindOptions(opts, definition.naturalKey),
  ];
}
