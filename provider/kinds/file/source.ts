/**
 * A content kind's `source` at check: resolved against the program's folder (the plugin's working directory),
 * refused with the property and the fix when it cannot be uploaded as that kind, and hashed (streamed, with the
 * algorithm the API answers for the kind: SHA-512 for a File, SHA-256 for an AppVersion). Hashes are cached in
 * this module, per process, by algorithm, absolute path, size and mtime: a preview and the up that follows in the
 * same plugin (and several resources naming one file) read an unchanged file once. A file rewritten within the
 * mtime's resolution with the same size would be missed here, but not by the upload, which hashes the bytes it
 * sends and refuses a mismatch (SourceChangedError).
 */
import { lstat, realpath, stat } from "node:fs/promises";
import { basename, extname, isAbsolute, relative, resolve } from "node:path";
import { checksumOfFile, type ChecksumAlgorithm } from "../../client/upload";

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

/** Builds go through the app kinds: an APK is an app version, an OBB belongs to a bundle. */
const BUILDS: Record<string, string> = {
  ".apk": "an app build (.apk) is uploaded as an app version, not as a File",
  ".obb": "an expansion file (.obb) belongs to an app bundle, not to a File",
};

export type SourceCheck = { absolute: string; sha512: string; filename: string } | { failure: string };

/** What `source` names, or why it cannot be a File's content (the failure names the property and the fix). */
export async function checkSource(source: string, base = process.cwd()): Promise<SourceCheck> {
  const found = await checkContentSource(source, base, {
    algorithm: "SHA-512",
    refuse: (extension) => {
      const kind = BUILDS[extension];
      return kind && `${kind}. Declare a file of another kind as a File.`;
    },
  });
  return "failure" in found
    ? found
    : { absolute: found.absolute, sha512: found.checksum, filename: found.filename };
}

/** What a kind takes as its source: the hash the API answers, and the extensions it refuses (and why). */
export interface SourceRules {
  algorithm: ChecksumAlgorithm;
  /** Why a file with this extension (lower case, with its dot) is not this kind's content, or undefined. */
  refuse(extension: string): string | undefined;
}

export type ContentSourceCheck =
  { absolute: string; checksum: string; filename: string } | { failure: string };

/** What `source` names, or why it cannot be the kind's content (the failure names the property and the fix). */
export async function checkContentSource(
  source: string,
  base: string,
  rules: SourceRules,
): Promise<ContentSourceCheck> {
  const absolute = isAbsolute(source) ? source : resolve(base, source);
  const refused = rules.refuse(extname(absolute).toLowerCase());
  if (refused) return { failure: `source: ${source}: ${refused}` };
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
      failure: `source: ${source} is a folder. Give the path of one file (one resource per file).`,
    };
  if (!file.isFile())
    return { failure: `source: ${source} is not a regular file. Give the path of one file.` };
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
