// One declaration of resources, written out both ways: as a Pulumi YAML program for the provider plugin and as
// an inline TypeScript program of the dynamic classes. A scenario test that declares its organization once
// cannot compare two programs that say different things.
import * as pulumi from "@pulumi/pulumi";
import { stringify } from "yaml";
import * as dm from "../../provider";

/** The lookups a declaration may use: the same query through the plugin's function and the package's. */
const LOOKUPS = {
  readOnlyRole: {
    function: "devicemgmt:getRole",
    arguments: { name: "Read Only", type: "organization" },
    output: () => dm.getRoleOutput({ name: "Read Only", type: "organization" }).id,
  },
  groupAdminRole: {
    function: "devicemgmt:getRole",
    arguments: { name: "Group Admin", type: "group" },
    output: () => dm.getRoleOutput({ name: "Group Admin", type: "group" }).id,
  },
  simulatorProduction: {
    function: "devicemgmt:getReleaseChannel",
    arguments: { appName: "Training Simulator", channelName: "Production" },
    output: () => dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Production" }).id,
  },
  simulatorBeta: {
    function: "devicemgmt:getReleaseChannel",
    arguments: { appName: "Training Simulator", channelName: "Beta" },
    output: () => dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Beta" }).id,
  },
} as const;

type Lookup = keyof typeof LOOKUPS;

/** A property's value: plain, another declaration's `id` (`{ ref }`), or a lookup's `id` (`{ lookup }`). */
export type Value =
  string | number | boolean | { ref: string } | { lookup: Lookup } | Value[] | { [key: string]: Value };

export interface Declared {
  /** The resource's name in both programs. */
  name: string;
  /** The class of `dm` and the plugin's type (`devicemgmt:<type>`). */
  type: "Group" | "GroupFile" | "GroupReleaseChannel" | "User" | "Tag" | "File";
  properties: Record<string, Value>;
}

const isRef = (v: Value): v is { ref: string } => typeof v === "object" && !Array.isArray(v) && "ref" in v;
const isLookup = (v: Value): v is { lookup: Lookup } =>
  typeof v === "object" && !Array.isArray(v) && "lookup" in v;

function mapValue(value: Value, ref: (name: string) => unknown, lookup: (name: Lookup) => unknown): unknown {
  if (isRef(value)) return ref(value.ref);
  if (isLookup(value)) return lookup(value.lookup);
  if (Array.isArray(value)) return value.map((v) => mapValue(v, ref, lookup));
  if (typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapValue(v, ref, lookup)]));
  return value;
}

/** The lookups `declarations` use, in first-use order. */
function lookupsOf(declarations: Declared[]): Lookup[] {
  const used = new Set<Lookup>();
  for (const d of declarations)
    mapValue(
      d.properties,
      () => undefined,
      (name) => used.add(name),
    );
  return [...used];
}

/** The Pulumi YAML program of project `project` declaring `declarations`. */
export function yamlProgram(project: string, declarations: Declared[]): string {
  const variables = Object.fromEntries(
    lookupsOf(declarations).map((name) => [
      name,
      {
        "fn::invoke": { function: LOOKUPS[name].function, arguments: LOOKUPS[name].arguments, return: "id" },
      },
    ]),
  );
  const resources = Object.fromEntries(
    declarations.map((d) => [
      d.name,
      {
        type: `devicemgmt:${d.type}`,
        properties: mapValue(
          d.properties,
          (name) => `\${${name}.id}`,
          (name) => `\${${name}}`,
        ),
      },
    ]),
  );
  return stringify({ name: project, runtime: "yaml", variables, resources });
}

type Constructor = new (name: string, args: Record<string, unknown>) => pulumi.CustomResource;

/** The inline program of the dynamic classes declaring `declarations` (each after those it refers to). */
export function dynamicProgram(declarations: Declared[]): () => void {
  return () => {
    const lookups = new Map(lookupsOf(declarations).map((name) => [name, LOOKUPS[name].output()]));
    const made = new Map<string, pulumi.CustomResource>();
    for (const d of declarations) {
      const Class = (dm as unknown as Record<string, Constructor>)[d.type];
      const args = mapValue(
        d.properties,
        (name) => made.get(name)?.id,
        (name) => lookups.get(name),
      ) as Record<string, unknown>;
      made.set(d.name, new Class(d.name, args));
    }
  };
}
