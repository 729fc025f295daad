/**
 * A file replaced in its place under a new id. The API's replace (an upload's `conflictStrategy: "replace"` over
 * a file of the same name in the same folder) may keep the replaced file's id or give the place to the new
 * upload's id: the documents do not say (emulator switch `replaceKeepsFileId`). A file name in a device folder is
 * the kind's natural key, the one path devices hold it at, so when the recorded id is gone and exactly one file
 * sits in the recorded place, that file is the resource's own file with other content: refresh and the drift
 * report read it (its id and checksum), and the next `up` puts the declared bytes back. The API cannot tell such
 * a replacement from a delete followed by another upload of that name there; either way the program declares
 * what that path holds. Two files in the place (a `keep-both` upload) name no one: the file reads as gone, and
 * the create that follows refuses them (handler.ts) as it refuses any file it did not make.
 */
import type { DeviceFile } from "../../client";
import type { Props } from "../../framework";

/** The one file in the place a File recorded (`filename` in `path`), other than the gone `goneId`. */
export function inRecordedPlace(
  files: DeviceFile[],
  recorded: Props,
  goneId: string,
): DeviceFile | undefined {
  if (typeof recorded.filename !== "string" || typeof recorded.path !== "string") return undefined;
  const there = files.filter(
    (f) => f.id !== goneId && f.filename === recorded.filename && f.location === recorded.path,
  );
  return there.length === 1 ? there[0] : undefined;
}
