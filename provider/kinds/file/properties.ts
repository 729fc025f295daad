/**
 * The File kind's properties, declared once (framework/properties.ts). The content's identity is its SHA-512
 * (`sha512`, computed by check from `source`, compared with the checksum the API answers): the diff compares the
 * hash, the file name and the device folder, never the local path, so the same bytes moved to another local path
 * are no change and changed bytes at the same path are one.
 */
import { z } from "zod";
import type { DeviceFile } from "../../client";
import {
  carried,
  type PropertySpecs,
  type StateOf,
  sha512Property,
  sourceProperty,
  defineIdentity,
  knownText,
} from "../../framework";

export const fileProperties = {
  source: sourceProperty("file"),
  filename: {
    // Absent: the source's own name (check fills it in).
    schema: z
      .string({ error: "filename must be a string: the file's name on devices" })
      .trim()
      .min(1, { error: "filename must not be empty (leave it out to use the source's name)" })
      .refine((v) => !/[/\\]/.test(v), {
        error: "filename must be a name without / or \\ (the folder is path)",
      })
      .optional(),
    // The API renames no file: another name is another file.
    change: "replace",
    fromLive: (live: DeviceFile) => live.filename,
  },
  path: {
    schema: z
      .string({ error: 'path is required: the folder on devices, e.g. "/sdcard/Docs"' })
      .trim()
      .min(1, { error: 'path must not be empty: the folder on devices, e.g. "/sdcard/Docs"' }),
    change: "replace",
    fromLive: (live: DeviceFile) => live.location ?? null,
  },
  sha512: sha512Property<DeviceFile>(),
  ...carried,
} satisfies PropertySpecs<DeviceFile>;

export type FileProperties = typeof fileProperties;
export type FileState = StateOf<FileProperties>;

/**
 * Who the File kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const fileIdentity = defineIdentity({
  kind: "file",
  type: "File",
  // A file name in a device folder: replacements delete the old file first (handler.ts says why).
  naturalKey: true,
  properties: fileProperties,
  // A file name in a device folder (names and folders compare exactly, as the API's conflict rule does).
  claim: {
    property: "filename",
    keys: (p) =>
      knownText(p.filename) === undefined || knownText(p.path) === undefined
        ? undefined
        : [`${knownText(p.path)}/${knownText(p.filename)}`],
    describe: (p) => `the file "${String(p.filename)}" in ${String(p.path)}`,
  },
});
