/**
 * `devicemgmt-export --from-state`: the Pulumi YAML program that moves a stack of the TypeScript classes to the
 * provider plugin without touching the organization (docs/plugin.md, "Moving a TypeScript stack"). Read from the
 * stack's `pulumi stack export`, not from the organization: the program declares exactly what the stack managed,
 * each resource under its name with the inputs the stack recorded and the resource option `import: <id>`, so the
 * new stack's first `up` imports every object (reads, writes nothing) and the next shows no changes.
 *
 * Why `import` and not `adoptId`: an import records the object as read, with no input left behind, while an
 * adoption is a create that keeps `adoptId` in state for good; and the engine shows an import at preview.
 */
import * as path from "node:path";
import { LEGACY_TYPE, TYPE_MODULE } from "../dynamic";
import { SECRET_SIGNATURE_KEY, type KindDefinition, type PropertySpec } from "../framework";
import { KINDS } from "../kinds";

/** A resource of a stack export, as far as the move reads it. */
export interface ExportedResource {
  urn: string;
  type: string;
  custom?: boolean;
  id?: string;
  delete?: boolean;
  protect?: boolean;
  retainOnDelete?: boolean;
  inputs?: Record<string, unknown>;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
}

/** One resource the program takes over. */
export interface MovedResource {
  /** Its name in the program (the stack's name, made a YAML reference can name). */
  name: string;
  urn: string;
  type: string;
  id: string;
}

export interface StateProgram {
  /** The text of Pulumi.yaml. */
  yaml: string;
  moved: MovedResource[];
  /** Config keys the program reads for values the stack kept secret: the user sets each with --secret. */
  secretConfig: { key: string; resource: string; property: string }[];
  /** Resources of the stack that are not the package's: the move leaves them where they are. */
  others: string[];
}

/** A resource of the package that this move cannot take over, and why. Nothing is written when there is one. */
export class UnmovableResourcesError extends Error {
  constructor(readonly reasons: { urn: string; why: string }[]) {
    super(
      `The stack holds resources the move cannot take over, so nothing was written:\n` +
        reasons.map((r) => `  ${r.urn}: ${r.why}`).join("\n"),
    );
    this.name = "UnmovableResourcesError";
  }
}

const TYPE_PREFIX = `pulumi-nodejs:dynamic/${TYPE_MODULE}:`;
const definitions = Object.values(KINDS) as KindDefinition[];
const byType = new Map(definitions.map((d) => [d.type, d]));
const byKind = new Map(definitions.map((d) => [d.kind, d]));

/**
 * Whether a value holds a secret anywhere inside it: the engine's marker of a secret value in a stack export
 * (encrypted, or in plain text with --show-secrets) may wrap a whole input or one element or field of it.
 */
function holdsSecret(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  if (Object.hasOwn(value, SECRET_SIGNATURE_KEY)) return true;
  return Object.values(value).some(holdsSecret);
}

/** The kind of a resource the classes registered, or undefined for another package's resource. */
function kindOf(resource: ExportedResource): KindDefinition | "unknown" | undefined {
  if (resource.type.startsWith(TYPE_PREFIX))
    return byType.get(resource.type.slice(TYPE_PREFIX.length)) ?? "unknown";
  if (resource.type !== LEGACY_TYPE) return undefined;
  // Before 0.2 every kind was `pulumi-nodejs:dynamic:Resource`; its serialized provider names the kind.
  const provider = String(resource.inputs?.__provider ?? "");
  if (!provider.includes("pulumi-devicemgmt")) return undefined; // another dynamic provider's
  const key = /(?:handler|provider)\(\s*["'](\w+)["']/.exec(provider)?.[1];
  return (key && byKind.get(key)) || "unknown";
}

/** A name a YAML reference (`${name.id}`) can use: letters, digits, `-` and `_`, unique in the program. */
function namer(): (name: string) => string {
  const taken = new Set<string>();
  return (name) => {
    const base = name.replace(/[^A-Za-z0-9_-]/g, "_").replace(/^(?=[^A-Za-z_])/, "_");
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}`;
    taken.add(candidate);
    return candidate;
  };
}

/** A reference to a moved resource's id, written `${name.id}`. */
class Reference {
  constructor(readonly name: string) {}
}

/**
 * A YAML flow value (JSON is YAML): strings with `${` written `$${`, so that Pulumi YAML reads them as text, and
 * references as interpolations.
 */
function flow(value: unknown): string {
  if (value instanceof Reference) return JSON.stringify(`\${${value.name}.id}`);
  if (typeof value === "string") return JSON.stringify(value.replace(/\$\{/g, () => "$${"));
  if (Array.isArray(value)) return `[${value.map(flow).join(", ")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}: ${flow(v)}`)
      .join(", ")}}`;
  return JSON.stringify(value);
}

/** `value` with every string that is the id of a resource it depends on replaced by a reference to that resource. */
function withReferences(value: unknown, ids: Map<string, string>): unknown {
  if (typeof value === "string") return ids.has(value) ? new Reference(ids.get(value)!) : value;
  if (Array.isArray(value)) return value.map((v) => withReferences(v, ids));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withReferences(v, ids)]));
  return value;
}

/**
 * Where the program is written, and the TypeScript program's folder: a relative `source` (a file to upload, at
 * any depth: an AppBundle's `files[].source`) is relative to the program's folder, so the YAML program, in
 * another folder, names the same file by a path relative to its own.
 */
export interface Folders {
  program: string;
  out: string;
}

function withSources(value: unknown, folders: Folders | undefined, key = ""): unknown {
  if (typeof value === "string")
    return key === "source" && folders && !path.isAbsolute(value)
      ? path.relative(folders.out, path.resolve(folders.program, value)).split(path.sep).join("/")
      : value;
  if (Array.isArray(value)) return value.map((v) => withSources(v, folders, key));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withSources(v, folders, k)]));
  return value;
}

/**
 * The program for a stack export's deployment. Throws UnmovableResourcesError, listing each, when a resource of
 * the package cannot be taken over by an import: one with its own `connection` (an import reads with the
 * provider's configuration only: give another organization its own stack), or a kind this version does not
 * know.
 */
export function programFromState(
  resources: ExportedResource[],
  project: string,
  folders?: Folders,
): StateProgram {
  const live = resources.filter(
    (r) => r.custom === true && r.delete !== true && typeof r.id === "string" && r.id,
  );
  const name = namer();
  const refused: { urn: string; why: string }[] = [];
  const others: string[] = [];
  const moving: { resource: ExportedResource; definition: KindDefinition; name: string }[] = [];
  for (const resource of live) {
    const definition = kindOf(resource);
    if (definition === undefined) {
      if (!resource.type.startsWith("pulumi:providers:")) others.push(resource.urn);
    } else if (definition === "unknown")
      refused.push({ urn: resource.urn, why: "a kind this version of pulumi-devicemgmt does not know" });
    else if (resource.inputs?.connection !== undefined)
      refused.push({
        urn: resource.urn,
        why:
          "it declares its own connection, and an import reads with the provider's configuration only: move " +
          "another organization's resources into a stack of their own, configured for that organization",
      });
    else moving.push({ resource, definition, name: name(resource.urn.split("::").pop() ?? "resource") });
  }
  const movingByUrn = new Map(moving.map((m) => [m.resource.urn, m]));
  const secretConfig: StateProgram["secretConfig"] = [];
  const blocks: string[] = [];
  for (const { resource, definition, name: resourceName } of moving) {
    const properties: string[] = [];
    const referenced = new Set<string>();
    for (const [key, spec] of Object.entries(definition.properties as Record<string, PropertySpec<never>>)) {
      const value = resource.inputs?.[key];
      // An adoption id is spent (the import takes the object), and a connection was refused above.
      if (key === "adoptId" || key === "connection" || value === undefined || value === null) continue;
      // A value the stack kept secret (an admin PIN) is never written: the program reads it from a config
      // secret the user sets.
      if (holdsSecret(value) || spec.secret) {
        const configKey = `${resourceName.replace(/-/g, "_")}_${key}`;
        secretConfig.push({ key: configKey, resource: resourceName, property: key });
        properties.push(`      ${key}: "\${${configKey}}"`);
        continue;
      }
      const ids = new Map<string, string>();
      for (const urn of resource.propertyDependencies?.[key] ?? []) {
        const target = movingByUrn.get(urn);
        if (target) {
          ids.set(target.resource.id!, target.name);
          referenced.add(urn);
        }
      }
      properties.push(`      ${key}: ${flow(withReferences(withSources(value, folders, key), ids))}`);
    }
    const dependsOn = (resource.dependencies ?? [])
      .filter((urn) => !referenced.has(urn) && movingByUrn.has(urn))
      .map((urn) => `"\${${movingByUrn.get(urn)!.name}}"`);
    const options = [
      `      import: ${flow(resource.id)}`,
      ...(definition.naturalKey ? ["      deleteBeforeReplace: true"] : []),
      ...(resource.protect ? ["      protect: true"] : []),
      ...(resource.retainOnDelete ? ["      retainOnDelete: true"] : []),
      ...(dependsOn.length ? [`      dependsOn: [${dependsOn.join(", ")}]`] : []),
    ];
    blocks.push(
      [
        `  ${resourceName}:`,
        `    type: devicemgmt:${definition.type}`,
        ...(properties.length ? ["    properties:", ...properties] : []),
        "    options:",
        ...options,
      ].join("\n"),
    );
  }
  if (refused.length) throw new UnmovableResourcesError(refused);
  const config = secretConfig.length
    ? ["config:", ...secretConfig.flatMap((s) => [`  ${s.key}:`, "    type: string"]), ""]
    : [];
  const yaml = [
    `# ${moving.length} resources taken over from a stack of the pulumi-devicemgmt TypeScript classes by`,
    "# `devicemgmt-export --from-state` (docs/plugin.md): each imports its object by id on the first `up`,",
    "# which writes nothing; the `import` options are inert afterwards and may be removed.",
    `name: ${project}`,
    "runtime: yaml",
    ...config,
    moving.length ? "resources:" : "resources: {}",
    ...blocks,
    "",
  ].join("\n");
  return {
    yaml,
    moved: moving.map((m) => ({
      name: m.name,
      urn: m.resource.urn,
      type: m.definition.type,
      id: m.resource.id!,
    })),
    secretConfig,
    others,
  };
}
