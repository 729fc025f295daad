/**
 * An uploaded kind's `source` at check (File, Video, AppVersion, ...): resolved against the program's folder (the
 * plugin's working directory), refused with the property and the fix when it cannot be uploaded (missing, a
 * folder, a link leading outside the program's folder, empty, or of a type the kind refuses: `wrongType`), and hashed
 * (streamed, with the algorithm the API answers for the kind: SHA-512 for files and videos, SHA-256 for builds).
 * Hashes are cached in this module, per process, by algorithm, absolute path, size and mtime: a preview and the up
 * that follows in the same plugin (and several resources naming one file) read an unchanged file once. A file rewritten within the mtime's resolution with the same size would be missed here,
 * but not by the upload, which hashes the bytes it sends and refuses a mismatch (SourceChangedError).
 */
import { lstat, realpath, stat } from "node:fs/promises";
import { basename, extname, isAbsolute, relative, resolve } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { checksumOfFile, type ChecksumAlgorithm } from "../client/upload";
import { containsUnknown } from "./protocol";

const cache = new Map<string, { size: number; mtimeMs: number; checksum: string }>();
let reads = 0;

/** How many files were read to hash them in this process (tests: the cache spares the second read). */
export function hashReads(): number {
  return reads;
}

/** The checksum (hex) of a local file, cached by algorithm, absolute path, size and mtime. */
export async function checksumOfSource(absolute: string, algorithm: ChecksumAlgorithm): Promise<string> {
  const { size, mtimeMs } = await stat(absolute);
  const key = `${algorithm} ${absolute}`;
  const known = cache.get(key);
  if (known && known.size === size && known.mtimeMs === mtimeMs) return known.checksum;
  reads++;
  const checksum = await checksumOfFile(absolute, algorithm);
  cache.set(key, { size, mtimeMs, checksum });
  return checksum;
}

export type SourceCheck = { absolute: string; sha512: string; filename: string } | { failure: string };

export type ContentSourceCheck =
  { absolute: string; checksum: string; filename: string } | { failure: string };

/** What a kind takes as its source: the hash the API answers, and the extensions it refuses (and why). */
export interface SourceRules {
  algorithm: ChecksumAlgorithm;
  refuse: WrongType;
}

/**
 * Why the kind takes no file of this extension (lower case, with its dot), with the fix; undefined: it does.
 */
export type WrongType = (extension: string) => string | undefined;

/** What `source` names, or why it cannot be a SHA-512 kind's content (files, videos). */
export async function checkSource(
  source: string,
  base = process.cwd(),
  wrongType: WrongType = () => undefined,
): Promise<SourceCheck> {
  const found = await checkContentSource(source, base, { algorithm: "SHA-512", refuse: wrongType });
  return "failure" in found
    ? found
    : { absolute: found.absolute, sha512: found.checksum, filename: found.filename };
}

/** What `source` names, or why it cannot be the kind's content (the failure names the property and the fix). */
export async function checkContentSource(
  source: string,
  base: string,
  rules: SourceRules,
): Promise<ContentSourceCheck> {
  const absolute = isAbsolute(source) ? source : resolve(base, source);
  let link;
  try {
    link = await lstat(absolute);
  } catch {
    return {
      failure:
        `source: ${source} does not exist (looked for ${absolute}). Give the path of the file to upload, ` +
        `relative to the program's folder (${base}) or absolute.`,
    };
  }
  if (link.isSymbolicLink()) {
    const [target, folder] = await Promise.all([realpath(absolute).catch(() => undefined), realpath(base)]);
    const inside =
      target !== undefined &&
      !relative(folder, target).startsWith("..") &&
      !isAbsolute(relative(folder, target));
    if (!inside)
      return {
        failure:
          `source: ${source} is a symbolic link ${target ? `to ${target}, outside` : "that leads nowhere from"} the ` +
          `program's folder (${folder}). Copy the file into the program's folder (what is uploaded then is ` +
          `reviewed with the program), or name it by its own path.`,
      };
  }
  const file = await stat(absolute).catch(() => undefined);
  if (file === undefined)
    return { failure: `source: ${source} leads nowhere (a broken link). Give the path of an existing file.` };
  if (file.isDirectory())
    return {
      failure: `source: ${source} is a folder. Give the path of one file; declare one File per file.`,
    };
  if (!file.isFile())
    return { failure: `source: ${source} is not a regular file. Give the path of one file.` };
  const refused = rules.refuse(extname(absolute).toLowerCase());
  if (refused) return { failure: `source: ${source}: ${refused}` };
  // The documents give no lower bound for an upload's size, and an upload is at least one part: whether the
  // API takes an empty one is unknown, so every kind refuses it here rather than at the up, half-way.
  if (file.size === 0)
    return {
      failure:
        `source: ${source} is empty (0 bytes), and the API's documents do not say that an empty upload is ` +
        `accepted. Give the path of a file with content (for a marker file, write at least one byte into it).`,
    };
  try {
    return {
      absolute,
      checksum: await checksumOfSource(absolute, rules.algorithm),
      filename: basename(absolute),
    };
  } catch (error) {
    return {
      failure:
        `source: ${source} cannot be read (${error instanceof Error ? error.message : String(error)}). ` +
        `Make it readable by the user running Pulumi.`,
    };
  }
}

/**
 * The `source` property of an uploaded kind (`noun`: "file", "video"): read only by create, never compared
 * (createOnly: a change is recorded, never diffed), since where the bytes are on this machine says nothing about
 * the content (`sha512` does): a moved source is no change at all.
 */
export function sourceProperty(noun: string) {
  return {
    schema: z
      .string({
        error: `source is required: the path of the local ${noun} to upload (relative to the program's folder)`,
      })
      .trim()
      .min(1, { error: `source must not be empty: give the path of the local ${noun} to upload` }),
    change: "createOnly",
  } as const;
}

/**
 * The `sha512` property of an uploaded kind whose API answers a SHA-512 (files, videos): computed by check from
 * `source`; declared, it pins the content (a source with another hash fails check). A change replaces the object.
 */
export function sha512Property<Live extends { checksum: { value: string } }>() {
  return {
    schema: z
      .string({ error: "sha512 must be a string: the SHA-512 (128 hex digits) the source must have" })
      .trim()
      .regex(/^[0-9a-fA-F]{128}$/, { error: "sha512 must be 128 hex digits (a SHA-512), or left out" })
      .transform((v) => v.toLowerCase())
      .optional(),
    change: "replace",
    fromLive: (live: Live) => live.checksum.value.toLowerCase(),
    equal: (a: unknown, b: unknown) =>
      typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b,
  } as const;
}

/** What an uploaded kind's check reads and fills in: the source, its optional name and pinned hash. */
interface UploadedInputs {
  source: string;
  filename?: string;
  sha512?: string;
}

/**
 * The end of an uploaded kind's check, once its own properties are judged: the source hashed (or its failure),
 * the declared `sha512` pin compared, `filename` and `sha512` filled in. A source refused already, or still the
 * engine's unknown value at preview (another resource's output), is left to the up.
 */
export async function checkedUpload<T extends UploadedInputs>(
  inputs: T,
  failures: pulumi.dynamic.CheckFailure[],
  wrongType?: WrongType,
): Promise<{ inputs: T; failures: pulumi.dynamic.CheckFailure[] }> {
  if (failures.some((f) => f.property === "source") || containsUnknown(inputs.source))
    return { inputs, failures };
  const found = await checkSource(inputs.source, undefined, wrongType);
  if ("failure" in found)
    return { inputs, failures: [...failures, { property: "source", reason: found.failure }] };
  if (inputs.sha512 !== undefined && inputs.sha512 !== found.sha512)
    failures = [
      ...failures,
      {
        property: "sha512",
        reason:
          `sha512: ${inputs.source} has the SHA-512 ${found.sha512}, not the declared ${inputs.sha512}. Declare ` +
          `the new hash, or leave sha512 out to take whatever the file holds.`,
      },
    ];
  return {
    inputs: { ...inputs, filename: inputs.filename ?? found.filename, sha512: found.sha512 },
    failures,
  };
}
