/** `getFile`: a file by name. */
import type { DeviceMgmtClient } from "../../client";
import { checker } from "../../client/arguments";
import { exactlyOne, lookup, lookupClient, toOutput, type LookupOptions } from "../../lookupSupport";

export interface FileResult {
  /** For a GroupFile's or DeviceFile's `fileId`. */
  id: string;
  filename: string;
}

/** Arguments of {@link getFile}. */
export interface GetFileArgs {
  /** The file's exact name, e.g. "safety-manual.pdf". */
  filename: string;
}

/**
 * Finds a file of the organization by file name.
 *
 * @function
 * @example
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab" }); // a configured group at the root
 * const manual = dm.getFileOutput({ filename: "safety-manual.pdf" });
 * new dm.GroupFile("berlin-manual", { groupId: berlin.id, fileId: manual.id });
 */
export const getFile = lookup(async function getFile(
  args: GetFileArgs,
  options?: LookupOptions,
): Promise<FileResult> {
  const check = checker("getFile", args, 'getFile({ filename: "safety-manual.pdf" })');
  check.only("filename");
  const filename = check.name("filename", "file's name");
  const files = await lookupClient(options).files.all();
  const file = exactlyOne(
    `file named "${filename}"`,
    files.filter((f) => f.filename === filename),
    (f) => f.id,
    files.map((f) => f.filename),
  );
  return { id: file.id, filename: file.filename };
});
/** {@link getFile} with Inputs, as an Output. */
export const getFileOutput = toOutput(getFile);

/** The names getFile finds: `getFile` finds a file by its file name. */
export async function fileNamesLookedUp(client: DeviceMgmtClient): Promise<string[]> {
  return (await client.files.all()).map((file) => file.filename);
}
