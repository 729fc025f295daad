/**
 * The File kind's properties, declared once (framework/properties.ts). The content's identity is its SHA-512
 * (`sha512`, computed by check from `source`, compared with the checksum the API answers): the diff compares the
 * hash, the file name and the device folder, never the local path, so the same bytes moved to another local path
 * are no change and changed bytes at the same path are one.
 */
import { z } from "zod";
import type { DeviceFile } from "../../client";
import { carried, type PropertySpecs, type StateOf } from "../../framework/properties";

export const fileProperties = {
  source: {
    schema: z
      .string({
        error: "source is required: the path of the local file to upload (relative to the program's folder)",
      })
      .trim()
      .min(1, { error: "source must not be empty: give the path of the local file to upload" }),
    // Read only by create, never compared (createOnly: a change is recorded, never diffed): where the bytes are
    // on this machine says nothing about the content (sha512 does), so a moved source is no change at all.
    change: "createOnly",
  },
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
  sha512: {
    // Computed by check from source. Declared, it pins the content: a source with another hash fails check.
    schema: z
      .string({ error: "sha512 must be a string: the SHA-512 (128 hex digits) the source must have" })
      .trim()
      .regex(/^[0-9a-fA-F]{128}$/, { error: "sha512 must be 128 hex digits (a SHA-512), or left out" })
      .transform((v) => v.toLowerCase())
      .optional(),
    change: "replace",
    fromLive: (live: DeviceFile) => live.checksum.value.toLowerCase(),
    equal: (a: unknown, b: unknown) =>
      typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b,
  },
  ...carried,
} satisfies PropertySpecs<DeviceFile>;

export type FileProperties = typeof fileProperties;
export type FileState = StateOf<FileProperties>;
