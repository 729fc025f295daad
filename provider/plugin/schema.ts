/**
 * The plugin's Pulumi package schema (`pulumi package get-schema devicemgmt`), generated from the kind table:
 * each kind's declared properties give its inputs and outputs, their types (zod's JSON Schema of the property's
 * own schema, as `check` applies it), descriptions, secrecy (`secret`) and replace-on-change (`change:
 * "replace"`). Nothing here restates a property: a kind gains a property in its properties.ts and the schema,
 * the generated SDKs and the YAML host see it.
 *
 * What the kind table does not declare is here: the type of each extra output (a name-keyed table, checked
 * against every kind's `outputs`), the provider's configuration (keyed by connection.ts's CONFIG_KEYS) and the
 * lookups served as functions (functions.ts).
 */
import { z } from "zod";
import { KINDS } from "../kinds";
import { carried, type KindDefinition, type PropertySpec } from "../framework";
import { CONFIG_KEYS } from "../connection";
import { ORGANIZATION_KEY } from "../framework/organization";
import { FUNCTIONS } from "./functions";
import { PACKAGE, resourceToken } from "../pluginToken";
import type {
  FunctionSpec,
  ObjectTypeSpec,
  PackageSchema,
  PropertySpecJson,
  ResourceSpec,
  TypeSpec,
} from "./schemaTypes";

export { PACKAGE, resourceToken } from "../pluginToken";

/**
 * The type of each output a kind declares beside its properties (`outputs` in its definition), by name: the
 * names mean the same in every kind. A kind declaring an output missing here (and, for a kind whose objects are
 * another kind's, not a property of that kind) fails schema generation (and its test), naming it.
 */
const OUTPUT_TYPES: Record<string, PropertySpecJson> = {
  [ORGANIZATION_KEY]: { type: "string", description: "The id of the organization the object belongs to." },
  createdAt: { type: "string", description: "When the object was created (ISO 8601)." },
  updatedAt: { type: "string", description: "When the object was last changed (ISO 8601)." },
  status: { type: "string", description: "The processing status the API reports." },
  code: { type: "number", description: "The build's version code, as the API answers it." },
  sizeBytes: { type: "number", description: "The size of the uploaded content in bytes." },
  playtimeSeconds: { type: "number", description: "The video's play time in seconds." },
  type: { type: "string", description: "The image's type." },
  objectName: { type: "string", description: "The stored object's name." },
  mimeType: { type: "string", description: "The content's MIME type." },
  deviceModel: { type: "string", description: "The device's model." },
  configuredInRun: { type: "string", description: "The run that last configured the experience." },
  migratedAt: { type: "string", description: "When the migration was requested (ISO 8601)." },
  pending: { type: "boolean", description: "True while the user is an invitation not accepted yet." },
  invitedAt: { type: "string", description: "When the invitation was sent (ISO 8601); only while pending." },
  createdInRun: { type: "string", description: "The run that created the tag set." },
  addedTagIds: {
    type: "array",
    items: { type: "string" },
    description: "The tags this set added (removed again on destroy).",
  },
  version: { type: "string", description: "The version the channel serves." },
  channelName: { type: "string", description: "The release channel's name." },
  previousVersion: { type: "string", description: "The version the channel served before." },
  rolloutStatus: { type: "string", description: "The rollout's status." },
  rolloutSummary: { type: "string", description: "The rollout in words." },
  rolloutVersionId: { type: "string", description: "The build the rollout delivers." },
};

/** The provider's configuration, one entry per stack setting connection.ts reads (`devicemgmt:<key>`). */
const CONFIG: Record<keyof typeof CONFIG_KEYS, PropertySpecJson> = {
  baseUrl: {
    type: "string",
    description:
      "The v3 API base URL, ending in /api/v3 (or the environment variable DEVICEMGMT_BASE_URL). Plain http only " +
      "to this machine unless allowInsecureHttp.",
  },
  apiToken: {
    type: "string",
    secret: true,
    description:
      "A v3 access token of the organization (or the environment variable DEVICEMGMT_API_TOKEN). Kept secret.",
  },
  requestsPerMinute: { type: "integer", description: "The most requests per minute the provider sends." },
  maxRetries: { type: "integer", description: "How often a failed request is tried again (0: never)." },
  uploadPartTimeoutSeconds: {
    type: "integer",
    description: "How long one uploaded part may take, in seconds.",
  },
  processingTimeoutSeconds: {
    type: "integer",
    description: "How long a create waits for uploaded content to be processed, in seconds.",
  },
  allowInsecureHttp: {
    type: "boolean",
    description:
      "Lets a plain-http baseUrl reach a host other than this machine (the token then travels in clear).",
  },
};

/** The configuration's keys as provider inputs (`baseUrl`), each with the stack setting it stands for. */
export const CONFIG_PROPERTIES = Object.keys(CONFIG) as (keyof typeof CONFIG_KEYS)[];

type JsonSchema = Record<string, unknown> & {
  type?: string | string[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  enum?: unknown[];
  description?: string;
};

/** The JSON Schema of `check`'s input side (what a program may write), unrepresentable parts as "any". */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
}

const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A type with the values of an enum among it, for the property's description. */
type TypeWithValues = TypeSpec & { enumValues?: unknown[] };

/**
 * A Pulumi type for a JSON Schema: null alternatives dropped (absent and null are one in Pulumi), enums as their
 * base type with the values in the description, objects with properties as named types in `types`.
 */
function typeOf(schema: JsonSchema, name: string, types: Record<string, ObjectTypeSpec>): TypeWithValues {
  const alternatives = (schema.anyOf ?? []).filter((s) => s.type !== "null");
  if (schema.anyOf) return alternatives.length === 1 ? typeOf(alternatives[0], name, types) : ANY;
  const declared = Array.isArray(schema.type) ? schema.type.filter((t) => t !== "null") : [schema.type];
  const type = declared.length === 1 ? declared[0] : undefined;
  if (schema.enum && (type === undefined || type === "string"))
    return { type: "string", enumValues: schema.enum };
  switch (type) {
    case "string":
    case "boolean":
    case "number":
    case "integer":
      return { type };
    case "array": {
      // An array of enum values: the values go to the property's description, not into the item type.
      const item: TypeWithValues = schema.items ? typeOf(schema.items, `${name}Item`, types) : ANY;
      const { enumValues, ...items } = item;
      return { type: "array", items, ...(enumValues ? { enumValues } : {}) };
    }
    case "object": {
      if (schema.properties && Object.keys(schema.properties).length > 0) {
        const token = `${PACKAGE}:index:${name}`;
        types[token] = objectType(schema, name, types);
        return { $ref: `#/types/${token}` };
      }
      const values = schema.additionalProperties;
      const value: TypeWithValues = typeof values === "object" ? typeOf(values, name, types) : ANY;
      const { enumValues, ...additionalProperties } = value;
      return { type: "object", additionalProperties, ...(enumValues ? { enumValues } : {}) };
    }
    default:
      return ANY;
  }
}

function objectType(schema: JsonSchema, name: string, types: Record<string, ObjectTypeSpec>): ObjectTypeSpec {
  const properties: Record<string, PropertySpecJson> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {}))
    properties[key] = propertyOf(property, `${name}${capitalized(key)}`, types, property.description);
  return {
    type: "object",
    ...(schema.description ? { description: schema.description } : {}),
    properties,
    ...(schema.required?.length ? { required: schema.required } : {}),
  };
}

function propertyOf(
  schema: JsonSchema,
  name: string,
  types: Record<string, ObjectTypeSpec>,
  description: string | undefined,
): PropertySpecJson {
  const { enumValues, ...type } = typeOf(schema, name, types);
  const listed = enumValues?.map((v) => JSON.stringify(v)).join(", ");
  const each = type.type === "array" || type.type === "object" ? "Each value one of" : "One of";
  const values = listed ? `${each}: ${listed}.` : undefined;
  const text = [description, values].filter(Boolean).join(" ");
  return { ...type, ...(text ? { description: text } : {}) };
}

/** The properties `check` requires: those whose schema refuses an absent value. */
export function requiredInputsOf(properties: Record<string, PropertySpec<never>>): string[] {
  return Object.entries(properties)
    .filter(([, spec]) => !spec.schema.safeParse(undefined).success)
    .map(([key]) => key);
}

/**
 * An output of a kind whose objects are another kind's (`relation`: a group copy records a Group's `parentId`) that
 * is a property of that kind: typed as that property, so a related kind adds nothing to OUTPUT_TYPES.
 */
function relatedOutput(
  definition: Pick<KindDefinition, "type" | "relation">,
  key: string,
  types: Record<string, ObjectTypeSpec>,
): PropertySpecJson | undefined {
  if (!definition.relation) return undefined;
  const related = KINDS[definition.relation.objectsOf] as KindDefinition;
  const spec = (related.properties as Record<string, PropertySpec<never> | undefined>)[key];
  if (!spec || key in carried) return undefined;
  const json = jsonSchemaOf(spec.schema);
  return propertyOf(json, `${related.type}${capitalized(key)}`, types, spec.description ?? json.description);
}

/** A kind's resource: every declared property as input and output, then its extra outputs. */
export function resourceOf(
  definition: Pick<KindDefinition, "type" | "properties" | "outputs" | "relation">,
  types: Record<string, ObjectTypeSpec>,
): ResourceSpec {
  const inputProperties: Record<string, PropertySpecJson> = {};
  for (const [key, spec] of Object.entries(definition.properties as Record<string, PropertySpec<never>>)) {
    // The carried properties (adoptId, connection) are one type for every kind: named without the kind.
    const typeName = key in carried ? capitalized(key) : `${definition.type}${capitalized(key)}`;
    const json = jsonSchemaOf(spec.schema);
    inputProperties[key] = {
      ...propertyOf(json, typeName, types, spec.description ?? json.description),
      ...(spec.secret ? { secret: true } : {}),
      ...(spec.change === "replace" ? { replaceOnChanges: true } : {}),
    };
  }
  const properties: Record<string, PropertySpecJson> = {};
  for (const [key, property] of Object.entries(inputProperties)) {
    const { replaceOnChanges: _replace, ...output } = property;
    properties[key] = output;
  }
  for (const key of [ORGANIZATION_KEY, ...definition.outputs]) {
    const output = OUTPUT_TYPES[key] ?? relatedOutput(definition, key, types);
    if (!output)
      throw new Error(
        `${definition.type} declares the output "${key}", which has no type in provider/plugin/schema.ts ` +
          `OUTPUT_TYPES: add one there`,
      );
    properties[key] = output;
  }
  const requiredInputs = requiredInputsOf(definition.properties as Record<string, PropertySpec<never>>);
  return { inputProperties, requiredInputs, properties, required: requiredInputs };
}

/** The whole package schema at `version` (the plugin's own, semver without "v"). */
export function packageSchema(version: string): PackageSchema {
  const types: Record<string, ObjectTypeSpec> = {};
  const resources: Record<string, ResourceSpec> = {};
  for (const definition of Object.values(KINDS) as KindDefinition[])
    resources[resourceToken(definition.type)] = resourceOf(definition, types);
  const functions: Record<string, FunctionSpec> = {};
  for (const [token, fn] of Object.entries(FUNCTIONS)) functions[token] = fn.spec;
  return {
    name: PACKAGE,
    displayName: "Device Management",
    version,
    description:
      "A VR-headset device-management organization as code: groups, users, roles, release channels, " +
      "experiences, devices and uploaded content.",
    keywords: ["pulumi", "device-management", "mdm", "kind/native"],
    license: "Apache-2.0",
    repository: "https://github.com/pulumi-devicemgmt/pulumi-devicemgmt",
    publisher: "pulumi-devicemgmt",
    config: { variables: CONFIG },
    provider: {
      description:
        "The device-management provider: one organization's API (an explicit instance: another one).",
      inputProperties: CONFIG,
    },
    types,
    resources,
    functions,
    language: {
      nodejs: { packageName: "@pulumi-devicemgmt/devicemgmt" },
      python: { packageName: "pulumi_devicemgmt" },
      go: { importBasePath: "github.com/pulumi-devicemgmt/pulumi-devicemgmt/sdk/go/devicemgmt" },
      csharp: { rootNamespace: "PulumiDeviceMgmt" },
    },
  };
}
