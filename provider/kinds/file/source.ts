/**
 * A File's `source` at check: resolved against the program's folder (the plugin's working directory), refused
 * with the property and the fix when it cannot be uploaded as a File, and hashed (SHA-512, streamed, as the API
 * computes a file's checksum). Hashes are cached in this module, per process, by absolute path, size and mtime:
 * a preview and the up that follows in the same plugin (and several resources naming one file) read an
 * unchanged file once. A file rewritten within the mtime's resolution with the same size would be missed here,
 * but not by the upload, which hashes the bytes it sends and refuses a mismatch (SourceChangedError).
 */
import { lstat, realpath, stat } from "node:fs/promises";
import { basename, extname, isAbsolute, relative, resolve } from "node:path";
import { checksumOfFile } from "../../client/upload";

const cache = new Map<string, { size: number; mtimeMs: number; sha512: string }>();
let reads = 0;

/** How many files were read to hash them in this process (tests: the cache spares the second read). */
export function hashReads(): number {
  return reads;
}

/** The SHA-512 (hex) of a local file, cached by absolute path, size and mtime. */
export async function sha512Of(absolute: string): Promise<string> {
  const { size, mtimeMs } = await stat(absolute);
  const known = cache.get(absolute);
  if (known && known.size === size && known.mtimeMs === mtimeMs) return known.sha512;
  reads++;
  const sha512 = await checksumOfFile(absolute, "SHA-512");
  cache.set(absolute, { size, mtimeMs, sha512 });
  return sha512;
}

/** Extensions a kind's source may not have, each with why (the failure's words). */
export type RefusedExtensions = Record<string, string>;

/** Builds go through the app kinds: an APK is an app version, an OBB belongs to a bundle. */
const BUILDS: RefusedExtensions = {
  ".apk":
    "an app build (.apk) is uploaded as an app version, not as a File. Declare a file of another kind as a File",
  ".obb":
    "an expansion file (.obb) belongs to an app bundle, not to a File. Declare it among an AppBundle's files",
};

export type SourceCheck = { absolute: string; sha512: string; filename: string } | { failure: string };

/**
 * What `source` names, or why it cannot be uploaded (the failure names the property and the fix). `refused`:
 * the extensions this kind does not take (a File's by default; an AppBundle's data files take an .obb).
 */
export async function checkSource(
  source: string,
  base = process.cwd(),
  refused: RefusedExtensions = BUILDS,
): Promise<SourceCheck> {
  const absolute = isAbsolute(source) ? source : resolve(base, source);
  const kind = refused[extname(absolute).toLowerCase()];
  if (kind) return { failure: `source: ${source}: ${kind}.` };
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
  try {
    return { absolute, sha512: await sha512Of(absolute), filename: basename(absolute) };
  } catch (error) {
    return {
      failure:
        `source: ${source} cannot be read (${error instanceof Error ? error.message : String(error)}). ` +
        `Make it readable by the user running Pulumi.`,
    };
  }
}
