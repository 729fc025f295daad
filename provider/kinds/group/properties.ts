/**
 * The Group kind's properties, declared once (framework/properties.ts): its schemas, how each change applies,
 * and how the API shows it. Everything else of the kind reads them from here.
 */
import { z } from "zod";
import type { Group as ApiGroup } from "../../client";
import {
  requiredText,
  uuid,
  carried,
  type PropertySpecs,
  type StateOf,
  defineIdentity,
  knownText,
} from "../../framework";

export const groupProperties = {
  name: {
    description:
      "The group's name (1 to 255 characters), unique among its siblings. Renaming updates in place.",
    schema: requiredText("name", 255),
    change: "update",
    fromLive: (live: ApiGroup) => live.name,
  },
  parentId: {
    description:
      "The parent group's id (an unconfigured group); absent for a root-level group. Re-parenting updates in place.",
    schema: uuid("parentId")
      .nullable()
      .optional()
      .transform((v) => v ?? null),
    change: "update",
    fromLive: (live: ApiGroup) => live.parent?.id ?? null,
    default: null,
  },
  configured: {
    description:
      "Configured groups are leaves that hold devices, release channels and content; configuring cannot be undone. Default false.",
    schema: z
      .boolean({ error: "configured must be true or false" })
      .optional()
      .transform((v) => v ?? false),
    change: "update",
    fromLive: (live: ApiGroup) => live.isConfigured,
    default: false,
  },
  sameNameOrdinal: {
    description:
      "Where several groups of one name sit under one parent: which copy this is (1, 2, …). Only creates read it.",
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

/**
 * The hidden input a `Group` whose `parentId` is the `id` output of a `Group` of the same program declared
 * `configured: true` carries: that parent's resource name. A parent the run creates has no id at preview, so
 * check could not look it up; the program knows (see `Group`'s constructor), and check refuses it.
 */
export const CONFIGURED_PARENT_KEY = "__configuredParent";

/** Check's reason for a parent declared configured in the same program. */
export const configuredParentReason = (parentName: string) =>
  `parentId: the parent is Group "${parentName}" of this program, declared configured: true, and configured groups ` +
  `are leaves (they hold devices and content, not groups): a group's parent must be an unconfigured group. ` +
  `Choose an unconfigured parent (or none: a root-level group), or declare "${parentName}" unconfigured.`;

/**
 * Who the Group kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const groupIdentity = defineIdentity({
  kind: "group",
  type: "Group",
  naturalKey: false,
  properties: groupProperties,
  // Named only for the repair after a killed run: create.ts has its own rule, with same-named groups the program
  // may declare on purpose (`sameNameOrdinal`).
  claim: {
    property: "name",
    keys: (p) => {
      const parent = p.parentId === undefined || p.parentId === null ? "root" : knownText(p.parentId);
      const ordinal = typeof p.sameNameOrdinal === "number" ? String(p.sameNameOrdinal) : "";
      return knownText(p.name) === undefined || parent === undefined
        ? undefined
        : [`${parent}/${p.name}/${ordinal}`];
    },
    describe: (p) => `the group "${String(p.name)}"`,
    refuses: false,
  },
});
