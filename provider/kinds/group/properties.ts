/**
 * The Group kind's properties, declared once (framework/properties.ts): its schemas, how each change applies,
 * and how the API shows it. Everything else of the kind reads them from here.
 */
import { z } from "zod";
import type { Group as ApiGroup } from "../../client";
import { requiredText, uuid } from "../../framework/framework";
import { carried, type PropertySpecs, type StateOf } from "../../framework/properties";

export const groupProperties = {
  name: {
    schema: requiredText("name", 255),
    change: "update",
    fromLive: (live: ApiGroup) => live.name,
  },
  parentId: {
    schema: uuid("parentId")
      .nullable()
      .optional()
      .transform((v) => v ?? null),
    change: "update",
    fromLive: (live: ApiGroup) => live.parent?.id ?? null,
    default: null,
  },
  configured: {
    schema: z
      .boolean({ error: "configured must be true or false" })
      .optional()
      .transform((v) => v ?? false),
    change: "update",
    fromLive: (live: ApiGroup) => live.isConfigured,
    default: false,
  },
  sameNameOrdinal: {
    schema: z
      .number({ error: "sameNameOrdinal must be a whole number from 1" })
      .int({ error: "sameNameOrdinal must be a whole number from 1" })
      .min(1, { error: "sameNameOrdinal must be a whole number from 1" })
      .optional(),
    change: "createOnly",
  },
  ...carried,
} satisfies PropertySpecs<ApiGroup>;

export type GroupProperties = typeof groupProperties;
export type GroupState = StateOf<GroupProperties>;
