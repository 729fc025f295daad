/**
 * An app bundle as the kind reads it: the bundle (`GET /app-bundles/{id}`) and its data files with where it puts
 * them (`GET /app-bundles/{id}/files`). The API shows a bundle's files only through the second read, so every
 * reader (the handler, the drift report) takes both through here.
 */
import type { AppBundle, AppBundleFile, DeviceMgmtClient } from "../../client";

export interface BundleLive extends AppBundle {
  bundleFiles: AppBundleFile[];
}

/** One data file where the bundle puts it: its device folder, its name there, its content's SHA-512. */
export interface BundleEntry {
  path: string;
  filename: string;
  sha512: string;
}

/** The bundle and its files; NotFoundError when it is gone. */
export async function readAppBundle(client: DeviceMgmtClient, id: string): Promise<BundleLive> {
  const [bundle, bundleFiles] = await Promise.all([
    client.appBundles.get(id),
    client.appBundles.files(id).all(),
  ]);
  return { ...bundle, bundleFiles };
}

/** Splits a device path into its folder ("/" at the root) and name. */
function split(devicePath: string): { path: string; filename: string } {
  const at = devicePath.lastIndexOf("/");
  return { path: at <= 0 ? "/" : devicePath.slice(0, at), filename: devicePath.slice(at + 1) };
}

/** Every place the bundle puts a file, in a stable order. */
export function entriesOf(files: readonly AppBundleFile[]): BundleEntry[] {
  return sortEntries(
    files.flatMap((f) => f.bundlePaths.map((p) => ({ ...split(p), sha512: f.checksum.value.toLowerCase() }))),
  );
}

export const entryKey = (e: BundleEntry) => `${e.path}\n${e.filename}\n${e.sha512}`;

export function sortEntries<T extends BundleEntry>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => (entryKey(a) < entryKey(b) ? -1 : entryKey(a) > entryKey(b) ? 1 : 0));
}
