/**
 * The File kind's CRUD, on typed inputs. The content's identity is its SHA-512: check hashes `source`
 * (framework/source.ts) and records the hash as `sha512`; the upload sends exactly those bytes or refuses (the
 * uploader hashes what it sends and compares with check's hash, then with the checksum the API answers).
 *
 * Every change of content, name or folder is a replacement that deletes the old file first (the kind has a
 * natural key: a file name in a device folder). Why not an update with `conflictStrategy: "replace"`: the
 * documents do not say whether a replacing upload keeps the file's id (emulator switch `replaceKeepsFileId`),
 * and a dynamic resource cannot change its id in an update; deleting first, then uploading, behaves the same
 * under both readings. GroupFile/DeviceFile resources that name the file's id follow it (their fileId changes).
 *
 * Create never adopts silently: a file of the same name in the same folder, whatever its checksum, is refused
 * (notCreatedHere) unless `adoptId` names it (adoption then requires the same name, folder and checksum). Why
 * refuse the same checksum too: another stack or the portal may own that file, and destroying this stack would
 * delete it. Why not upload beside it: the API's default `keep-both` would leave two files of one name in one
 * folder, which devices cannot tell apart. A lost `complete` answer is resolved by the uploader.
 *
 * Refresh follows the file's place, not only its id: a file replaced in the portal under a new id is this File's
 * own file with other content (replaced.ts), read with its new id and checksum, so the next `up` deletes it and
 * uploads the declared bytes (create then finds the place empty). Only a resource that held the place reads so;
 * a create still refuses every file of the name that it did not make.
 */
import { NotPossibleError } from "../../errors";
import type { DeviceFile, DeviceMgmtClient } from "../../client";
import {
  clientForProps,
  adoptable,
  jsonClean,
  notCreatedHere,
  unlessGone,
  type Props,
  heldByAnother,
  leftByUnfinishedCreate,
  checkKind,
  diffKindAsked,
  readById,
  type InputsOf,
  type KindHandler,
  stateFrom,
  checkedUpload,
  type WrongType,
  resourceLog,
  uploadProgress,
} from "../../framework";
import { fileProperties, type FileProperties, fileIdentity } from "./properties";
import { inRecordedPlace } from "./replaced";

function toOutputs(live: DeviceFile, props: Props): Props {
  return jsonClean({
    ...stateFrom(fileProperties, live, props),
    sizeBytes: live.sizeBytes,
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
  });
}

/** The files of the organization with this name in this device folder. */
async function sameNamed(client: DeviceMgmtClient, inputs: InputsOf<FileProperties>): Promise<DeviceFile[]> {
  return (await client.files.all()).filter(
    (f) => f.filename === inputs.filename && f.location === inputs.path,
  );
}

/** Adoption takes over only the declared content: another checksum, name or folder is refused before any write. */
function refuseOtherContent(live: DeviceFile, inputs: InputsOf<FileProperties>): void {
  const sha512 = live.checksum.value.toLowerCase();
  if (live.filename === inputs.filename && live.location === inputs.path && sha512 === inputs.sha512) return;
  throw new NotPossibleError(
    `adoptId: file ${live.id} is "${live.filename}" in ${live.location ?? "(no folder)"} with SHA-512 ${sha512}, ` +
      `not "${inputs.filename}" in ${inputs.path} with the SHA-512 of ${inputs.source} (${inputs.sha512}). Nothing ` +
      `was changed. Adopt a file with the declared name, folder and content, or remove adoptId to upload it.`,
    { kind: "File", property: "adoptId", fix: "adopt a file with the declared name, folder and content" },
  );
}

/** Builds go through the app kinds: an APK is an app version, an OBB belongs to a bundle. */
const BUILDS: Record<string, string> = {
  ".apk": "an app build (.apk) is uploaded as an app version, not as a File",
  ".obb": "an expansion file (.obb) belongs to an app bundle, not to a File",
};
const notAFile: WrongType = (extension) =>
  BUILDS[extension] && `${BUILDS[extension]}. Declare a file of another kind as a File.`;

export const fileHandler: KindHandler<FileProperties> = {
  async check(_olds, news) {
    const { inputs, failures } = checkKind(fileIdentity, news);
    return checkedUpload(inputs, failures, notAFile);
  },

  diff: (_id, olds, news) => diffKindAsked(fileIdentity, olds, news),

  async create(inputs) {
    const client = clientForProps(inputs);
    if (inputs.adoptId !== undefined) {
      const live = await adoptable("file", inputs.adoptId, (id) => client.files.get(id));
      refuseOtherContent(live, inputs);
      return { id: live.id, outs: toOutputs(live, inputs) };
    }
    const existing = await sameNamed(client, inputs);
    const own = leftByUnfinishedCreate(fileIdentity.kind, inputs, existing);
    if (own) {
      refuseOtherContent(own, inputs);
      return { id: own.id, outs: toOutputs(own, inputs) };
    }
    if (existing.length > 0) {
      const same = existing.find((f) => f.checksum.value.toLowerCase() === inputs.sha512);
      throw notCreatedHere(
        `A file named "${inputs.filename}" already exists in ${inputs.path} (id ` +
          `${existing.map((f) => f.id).join(", ")}${same ? ", with the same content" : ", with other content"}), ` +
          `and this File did not create it.`,
        "a file",
        (same ?? existing[0]).id,
        same
          ? ""
          : " adoptId takes over only a file with the declared content: delete the other file, or give this one " +
              "another filename.",
      );
    }
    const { made } = await client.uploadFile({
      source: inputs.source,
      filename: inputs.filename as string,
      path: inputs.path,
      expectedChecksum: inputs.sha512,
      onProgress: uploadProgress(inputs.filename as string),
    });
    return { id: made.id, outs: toOutputs(made, inputs) };
  },

  // A file gone by id may have been replaced in its place under a new id (replaced.ts): read as this File's.
  read: (id, props) =>
    readById(
      fileIdentity,
      id,
      props,
      (client, fileId) => client.files.get(fileId),
      toOutputs,
      async (client, goneId) => {
        const successor = inRecordedPlace(await client.files.all(), props, goneId);
        if (successor === undefined || heldByAnother(fileIdentity.kind, successor.id, props))
          return undefined;
        await resourceLog.info(
          `file ${goneId} is gone and file ${successor.id} is in its place ("${successor.filename}" in ` +
            `${String(successor.location)}), replaced outside Pulumi: read as this File's, with its content`,
        );
        return { id: successor.id, live: successor };
      },
    ),

  async update(id, _olds, news) {
    // Only source (never compared) and connection update in place: nothing is sent; the file is read again.
    const live = await clientForProps(news).files.get(id);
    return { outs: toOutputs(live, news) };
  },

  async delete(id, props) {
    await unlessGone(clientForProps(props).files.delete(id));
  },
};
