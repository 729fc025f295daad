/**
 * The facets a kind's definition gives the drift report and the exporter (`drift` and `export` in kind.ts): their
 * shapes live here, below both, so that the framework imports nothing of the report or the exporter. Each is
 * generic over what its reader hands it (the report's live organization, the exporter's plan); the reader names
 * that type (drift/driftKind.ts, export/layout.ts), and the kinds' facets are written for it.
 */
import type { AuditRecord, Checksum, DeviceMgmtClient, ImageType } from "../client";
import type { ManagedResource } from "./managedResource";

// ---- The drift report -----------------------------------------------------------------------------------------

/** An object of the organization, as the report compares and names it. */
export interface LiveObject {
  /** What a managed resource's `key` must equal to stand for this object. */
  key: string;
  /** How a person finds it in the portal. */
  label: string;
  /**
   * Compared with the state's outputs of the same names: the kind's declared live → state mapping of the object
   * (`liveStateOf` in framework/properties.ts), never written again here.
   */
  fields: Record<string, unknown>;
  /** The ids audit records name when they are about this object. */
  auditIds: string[];
  /** For an attachment: the attached item, which audit records name or mention. */
  item?: AttachedItem;
  /** Holds the organization-wide role named Admin. */
  admin?: boolean;
  /** What the ignore file's patterns are matched against (e-mail, group path, …), besides the key. */
  names: string[];
}

/** What an attachment attaches: audit records name it by id, or mention it by name in their description. */
export interface AttachedItem {
  id: string;
  name?: string;
}

/**
 * The list the report names an id from, each read at most once per report: an organization-wide list, the images
 * of one type (the API lists images by type only), or the builds or bundles of one app (listed per app).
 */
export type NameSource =
  | {
      list:
        | "roles"
        | "groups"
        | "devices"
        | "releaseChannels"
        | "apps"
        | "files"
        | "videos"
        | "themes"
        | "custom3DEnvironments";
    }
  | { list: "images"; type: ImageType }
  | { list: "builds" | "bundles"; appId: string };

/** An id of the organization that a finding shows, and the list its name comes from. */
export interface IdReference {
  id: string;
  from: NameSource;
}

/**
 * What a kind's definition says of it for the drift report (`drift` in kind.ts). The report adds the
 * rest from the definition (see `DriftKind`), so that nothing is said twice. `comparedOutputs` names outputs that
 * are no declared property but that the live object shows too (a channel's version name beside its id): compared
 * with the live field of the same name, absent and null alike.
 */
export type DriftFacet<Org = never> = Omit<DriftKind<Org>, "noun" | "compared"> & {
  comparedOutputs?: readonly string[];
};

/**
 * A kind as the drift report uses it: its facet, its key as the noun, its compared fields from its properties.
 * `Org` is the report's view of the live organization (drift/live.ts `LiveOrganization`): named by the report and
 * the kinds' facets, not here, so that the framework imports nothing of the report.
 */
export interface DriftKind<Org = never> {
  /** Heading in the report. */
  title: string;
  /** The kind's name in the ignore file and in the JSON output: its key in the kind table. */
  noun: string;
  /**
   * The kind's live objects (the owners a stack names are read too, so that what they lost shows). Absent for a
   * kind whose resource is an action rather than an object the organization lists.
   */
  read?: (org: Org, managed: ManagedResource[]) => Promise<LiveObject[]>;
  /** Why the kind's resources are not compared, when `read` is absent (the report lists them with it). */
  notCompared?: string;
  /** The key of the live object a resource stands for, or undefined when it stands for none yet. */
  key: (resource: ManagedResource) => string | undefined;
  /**
   * Outputs compared with the live fields of the same names, each with its equality: the kind's properties that
   * the API shows (`fromLive`), with their own `equal` (`comparedOf` in framework/properties.ts).
   */
  compared: Record<string, (recorded: unknown, live: unknown) => boolean>;
  /**
   * The kind whose objects this kind's resources stand for (the definition's `relation`): the report compares
   * them with that kind's live objects, and reads none of this kind's own.
   */
  objectsOf?: string;
  /** A property the program left out is not managed, so it is compared only where the inputs declare it. */
  declaredOnly?: boolean;
  /**
   * False for objects that exist whether or not anyone declares them (devices are enrolled on the headset,
   * not created): one no stack manages is not reported.
   */
  reportsUnmanaged?: boolean;
  /** A gone object's label, from the state alone. */
  stateLabel: (resource: ManagedResource) => string;
  /** Narrows the audit records naming one of `auditIds` to those about this object. */
  concerns?: (record: AuditRecord, item: AttachedItem | undefined) => boolean;
  /** The attached item a resource of an attachment kind names (its name is filled in by the report). */
  itemOf?: (resource: ManagedResource) => AttachedItem;
  /** Names of attached items by id, for a gone attachment whose state knows its item by id only. */
  itemNames?: (org: Org) => Promise<Map<string, string>>;
  /**
   * Why this one resource cannot be compared, where the kind's others can (a group's tag set: the API does not
   * show a group's tags); such a resource is listed under "not compared" with the reason.
   */
  uncompared?: (resource: ManagedResource) => string | undefined;
  /**
   * The ids a compared field's value (as the state records it, or live) holds, each with the list that names it
   * (the report reads only the lists its findings need).
   */
  references?: (field: string, value: unknown, resource: ManagedResource) => IdReference[];
  /** The ids a gone object's label (`stateLabel`) holds, each with the list that names it. */
  labelReferences?: (resource: ManagedResource) => IdReference[];
}

// ---- The exporter ---------------------------------------------------------------------------------------------

/** A value of the generated program: code text, an object literal's members, or an array literal's items. */
export type Expr = string | { object: [string, Expr][] } | { array: Expr[] };

/**
 * What sections write through the program's preamble: the adoption id and retain option from stack config, and
 * the config object itself. Each records its use, so the preamble declares only what the program reads (the
 * generated tsconfig has noUnusedLocals: an unread `const` does not compile).
 */
export interface Declaring {
  adopt(resourceName: string): [string, Expr];
  opts(resourceName: string): string;
  /** `config`, for a section's own stack-config reads (PINs, absent devices). */
  readonly config: string;
}

/**
 * A kind's section of the generated program (`export` in its definition): the statements for what the plan holds
 * of the kind (`Plan`: the exporter's plan, export/naming.ts `ProgramPlan`, named there and by the kinds' sections) (undefined when it holds none), or why the exporter writes none. `construct` is `new dm.<Type>`
 * for the kind's own type, so a section cannot name a class the kind table does not have.
 */
export type KindSection<Plan = never> =
  SectionWriter<Plan> | { content: SectionWriter<Plan>; read: ContentRead } | { notExported: string };

/**
 * How the exporter reads a content kind's objects (its section's `read`): the kind's own list, and one object
 * read again for a download URL that expired. What the exporter then declares or leaves out is its own rule
 * (export/contentRead.ts), the same for every content kind.
 */
export interface ContentRead {
  /** What an object of the kind is called in sentences ("file", "app build"). */
  noun: string;
  /** Whether its resource declares a device folder (`path`): one without is then not declared. */
  needsPath: boolean;
  /** Every object of the kind, with what the exporter's model needs. */
  list(client: DeviceMgmtClient): Promise<ContentItem[]>;
  /** The object read again, for a download URL that expired. */
  downloadUrlOf(client: DeviceMgmtClient, content: ContentIdentity): Promise<string | null | undefined>;
}

/** An object of a content kind as its `list` answers it. */
export interface ContentItem {
  id: string;
  name: string;
  path: string | null;
  properties?: Record<string, unknown>;
  /** Why the resource could not declare it as read, if it could not. */
  unfit?: string;
  /** 0: an empty object, which no content kind's `source` may be (source.ts). */
  sizeBytes?: number | null;
  checksum?: Checksum;
  downloadUrl?: string | null;
}

/** What `downloadUrlOf` is given of an object the exporter read (its model's content). */
export interface ContentIdentity {
  id: string;
  properties?: Record<string, unknown>;
  checksum?: Checksum;
}

/**
 * What a section writes. A content kind's section is `{ content: writer }` (export/contentSection.ts): it is
 * written before every other section, since attachments and tag sets refer to the content it declares.
 */
export type SectionWriter<Plan = never> = (
  plan: Plan,
  declaring: Declaring,
  construct: string,
) => string | undefined;
