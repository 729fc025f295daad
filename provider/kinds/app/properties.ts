/**
 * The App kind's properties, declared once (framework/properties.ts): its schemas, how each change applies, and
 * how the API shows it. Everything else of the kind reads them from here. Tags are not among them: `TagSet` owns
 * an app's tags (the provider never sends UpdateApp's `tags`).
 */
import { z } from "zod";
import type { App as ApiApp } from "../../client";
import {
  deepEqual,
  requiredText,
  uuid,
  carried,
  type PropertySpecs,
  type StateOf,
  defineIdentity,
  knownText,
} from "../../framework";

/** The models as a set: ids without case, each once, in any order. */
const modelSet = (ids: unknown): string[] | undefined =>
  Array.isArray(ids) ? [...new Set(ids.map((id) => String(id).toLowerCase()))].sort() : undefined;

export const appProperties = {
  name: {
    schema: requiredText(
      "name",
      100,
      "name must be at most 100 characters (the API's limit for an app's name)",
    ),
    change: "update",
    fromLive: (live: ApiApp) => live.name,
  },
  description: {
    // "" and null both mean "no description": the documents do not say whether the API keeps "" or reads it as
    // null (the emulator's keepEmptyAppDescription switch), so both are null here, declared and read back.
    schema: z
      .string({ error: "description must be a string, or null for none" })
      .nullable()
      .optional()
      .transform((v) => (v === undefined || v === null || v === "" ? null : v)),
    change: "update",
    fromLive: (live: ApiApp) => live.description || null,
    default: null,
  },
  deviceModelIds: {
    schema: z
      .array(uuid("deviceModelIds[]"), { error: "deviceModelIds must be a list of device model ids" })
      .optional()
      .transform(modelSet),
    // CreateApp takes the models, UpdateApp does not: a change needs a new app.
    change: "replace",
    fromLive: (live: ApiApp) => modelSet((live.deviceModels ?? []).map((m) => m.id)),
    // Left out of the program, the models are not managed: whatever the service gave the app is no change.
    equal: (recorded: unknown, declared: unknown) =>
      declared === undefined || deepEqual(modelSet(recorded) ?? recorded, modelSet(declared) ?? declared),
  },
  ...carried,
} satisfies PropertySpecs<ApiApp>;

export type AppProperties = typeof appProperties;
export type AppState = StateOf<AppProperties>;

/**
 * Who the App kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const appIdentity = defineIdentity({
  kind: "app",
  type: "App",
  naturalKey: false,
  properties: appProperties,
  // Apps as their create compares names: without case (handler.ts).
  claim: {
    property: "name",
    keys: (p) =>
      knownText(p.name) === undefined ? undefined : [(knownText(p.name) as string).trim().toLowerCase()],
    describe: (p) => `the app "${String(p.name)}" (app names compare without case)`,
  },
});
