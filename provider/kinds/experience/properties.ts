/**
 * The properties both experience kinds declare (framework/properties.ts): the owner (a group or a device:
 * changing it replaces the resource), the mode, the fields the kind takes, resetOnDelete and the connection.
 * How the API shows each (`fromLive`) is the read's declared form (`declaredFormOf`, fields.ts), the one live →
 * state mapping that the resources' outputs, the drift report and the exporter share. The admin PIN has none: it
 * is never read into state.
 */
import { z } from "zod";
import type { HeadsetExperience as ApiExperience } from "../../client";
import { uuid, type HiddenInputs, carried, type PropertySpec, type ValueOf } from "../../framework";
import {
  declaredFormOf,
  declaredMode,
  FIELD_SCHEMAS,
  sameOrUndeclared,
  type FieldName,
  type ModeFields,
} from "./fields";

/** A field's value after check. */
export type FieldValue<K extends FieldName> = z.output<(typeof FIELD_SCHEMAS)[K]>;

/**
 * What the handler both kinds share reads of a kind's typed inputs (`InputsOf` of either kind is one): the
 * owner, the mode, and any field either kind takes.
 */
export type ExperienceInputs<M extends string = string> = {
  groupId?: string;
  deviceId?: string;
  mode: M;
  resetOnDelete: boolean;
  connection?: ValueOf<typeof carried.connection>;
} & { [K in FieldName]?: FieldValue<K> } & HiddenInputs;

type FieldSpecs<F extends FieldName> = { [K in F]: PropertySpec<ApiExperience, FieldValue<K> | undefined> };

/** The properties of an experience kind with the modes of `table` (`modes`, for the schema) and the fields `fields`. */
export function experienceProperties<const M extends string, const F extends FieldName>(
  table: Record<M, ModeFields>,
  modes: readonly [M, ...M[]],
  fields: readonly F[],
) {
  // Built field by field from the schemas, so typed here once: each field's value is its schema's output.
  const fieldSpecs: Record<string, PropertySpec<ApiExperience, unknown>> = {};
  for (const field of fields) {
    fieldSpecs[field] =
      field === "adminPin"
        ? { schema: FIELD_SCHEMAS.adminPin.optional(), change: "update", default: null, secret: true }
        : {
            schema: (FIELD_SCHEMAS[field] as z.ZodType).optional(),
            change: "update",
            fromLive: (live) => declaredFormOf(table, live)[field],
            equal: sameOrUndeclared,
          };
  }
  return {
    groupId: { schema: uuid("groupId").optional(), change: "replace" as const },
    deviceId: { schema: uuid("deviceId").optional(), change: "replace" as const },
    mode: {
      schema: z.enum(modes, { error: `mode must be one of ${modes.join(", ")}` }),
      change: "update" as const,
      // A mode the API adds later is compared as it reads (typed as the declared modes, which it is not).
      fromLive: (live: ApiExperience) => declaredMode(live.mode) as M,
    },
    ...(fieldSpecs as FieldSpecs<F>),
    resetOnDelete: {
      schema: z
        .boolean({ error: "resetOnDelete must be true or false" })
        .optional()
        .transform((v) => v ?? false),
      change: "update" as const,
      default: false,
    },
    connection: carried.connection,
  };
}
