import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type AdoptionArgs, registration } from "../../framework";
import { fileKind } from "./definition";

// What the package exports of the kind besides its class, from the kind's other files.
export { getFile, getFileOutput, type FileResult, type GetFileArgs } from "./lookups";

/** The inputs of a {@link File}. */
export interface FileArgs extends AdoptionArgs {
  /**
   * The local file to upload: a path relative to the program's folder, or absolute. Never sent to the API and
   * never compared: the content's SHA-512 is (`sha512`), so the same bytes at another path are no change, and
   * changed bytes at the same path replace the file. Refused at preview: a missing, unreadable or empty file, a
   * folder, a symbolic link leading outside the program's folder, an `.apk` or `.obb` (builds and bundle files
   * are not Files).
   */
  source: pulumi.Input<string>;
  /** The file's name on devices; absent: the source's own name. A change replaces the file. */
  filename?: pulumi.Input<string>;
  /** The folder on devices, e.g. "/sdcard/Docs". A change replaces the file. */
  path: pulumi.Input<string>;
  /**
   * Optional pin: the SHA-512 (hex) the source must have; the check of a preview and of an `up` fails when it
   * has another (`up` hashes the source again: only a pin holds the bytes a preview was reviewed with). Absent,
   * the source's hash is taken (and is the output `sha512`).
   */
  sha512?: pulumi.Input<string>;
}

/**
 * A file of the organization's content, uploaded from the repository, for `GroupFile` and `DeviceFile` to put on
 * headsets. Its identity is its content's SHA-512: preview hashes `source`, and a changed hash (new bytes in the
 * repository, or the file replaced in the portal, seen by `refresh`) replaces the file: the old one is deleted,
 * then the new bytes are uploaded (the file gets a new id; attachments declared with `file.id` follow it).
 *
 * A create fails, before any upload, when a file of the same name exists in the same folder: take it over with
 * `adoptId` (same name, folder and content only), or use `aliases` if you renamed the resource in code. Destroy
 * deletes the file (and the API removes it from the groups and devices it was on).
 *
 * @example
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab" }); // a configured group at the root
 * const manual = new dm.File("manual", { source: "content/safety-manual.pdf", path: "/sdcard/Docs" });
 * new dm.GroupFile("berlin-manual", { groupId: berlin.id, fileId: manual.id });
 */
export class File extends DeviceMgmtResource {
  /** The local file uploaded, as declared. */
  declare readonly source: pulumi.Output<string>;
  /** The file's name on devices. */
  declare readonly filename: pulumi.Output<string>;
  /** The folder on devices. */
  declare readonly path: pulumi.Output<string>;
  /** The SHA-512 (hex, lower case) of the content, as the API answers it. */
  declare readonly sha512: pulumi.Output<string>;
  /** The content's size in bytes. */
  declare readonly sizeBytes: pulumi.Output<number | null>;
  /** When the file was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the file was last changed (ISO 8601). */
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: FileArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(fileKind, name, args, opts));
  }
}
