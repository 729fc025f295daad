/**
 * The CRUD of Image and Custom3DEnvironment, one handler generic over the kind (both are content uploaded on the
 * same protocol, answered without a checksum, processed to `available`, and never deletable through the API).
 *
 * - check: validates the inputs, refuses a source that is missing, a folder, a link out of the program's folder
 *   or of a type the kind does not take (file/source.ts), and hashes it (SHA-512, streamed, cached by path,
 *   size and mtime); a declared `sha512` pins the content. The file name defaults to the source's.
 * - diff: the hash and the file name, never the local path; a change of either replaces the object (a new
 *   upload; the old object is forgotten, see delete).
 * - create: with `adoptId`, takes over that object when its name is the declared one (the API gives no checksum:
 *   adoption trusts that it holds the declared content, and says so). Otherwise it uploads (parts, URLs renewed
 *   when they expire, a lost complete resolved by the upload's own id: client/upload.ts), checking the bytes sent
 *   against check's hash, then waits for `available` (an object whose processing ends otherwise fails the run
 *   with the status; it stays, unusable, and the next create uploads again), at most the stack config
 *   `devicemgmt:processingTimeoutSeconds`. After a run killed mid-create, or a create whose wait timed out (its
 *   journal note stays: framework/interruptedCreates.ts), the same resource's next create takes over the object
 *   of its name and content that run made (framework/claims.ts), waiting for it if it is still pending, instead
 *   of uploading a second one.
 * - read: by id; the name and the status are what refresh can see. Content replaced in the portal under the
 *   same id cannot be seen: the API answers no checksum.
 * - delete: the API cannot delete images or 3D environments: the object stays in the organization, the stack
 *   forgets it, and the run says so (as App and DeviceMigration).
 */
import type { DeviceMgmtClient, UploadResult, NamedUploadOptions, ProcessingOptions } from "../../client";
import { waitUntilAvailable } from "../../client";
import { NotPossibleError } from "../../errors";
import type { ResourceKind } from "../../kindKeys";
import {
  clientForProps,
  adoptable,
  containsUnknown,
  jsonClean,
  type Props,
  leftByUnfinishedCreate,
  unfinishedCreateStartedAt,
  checkKind,
  diffKindAsked,
  readById,
  type InputsOf,
  type KindHandler,
  type KindIdentity,
  stateFrom,
  type PropertySpecs,
  checkSource,
  resourceLog,
  uploadProgress,
} from "../../framework";

type Uploaded = { id: string; status?: string; createdAt?: string | null };

/** What differs between the two kinds. */
export interface UploadedKind<Live extends Uploaded, P extends PropertySpecs<Live>> {
  /** The kind's identity (properties.ts). */
  identity: KindIdentity<ResourceKind, P, "Image" | "Custom3DEnvironment">;
  /** "an image", "a custom 3D environment": for messages. */
  noun: string;
  extensions: readonly string[];
  get(client: DeviceMgmtClient, id: string): Promise<Live>;
  /** The objects of the organization with this file name (for the repair after a killed run). */
  named(client: DeviceMgmtClient, filename: string): Promise<Live[]>;
  upload(
    client: DeviceMgmtClient,
    options: NamedUploadOptions & ProcessingOptions,
  ): Promise<UploadResult<Live>>;
  nameOf(live: Live): string | null;
  /** The outputs beyond the declared properties. */
  outputs(live: Live): Props;
}

export function uploadedContentHandler<Live extends Uploaded, P extends PropertySpecs<Live>>(
  spec: UploadedKind<Live, P>,
): KindHandler<P> {
  const definition = spec.identity;
  const toOutputs = (live: Live, props: Props): Props =>
    jsonClean({ ...stateFrom(definition.properties, live, props), ...spec.outputs(live) });
  const available = (client: DeviceMgmtClient, live: Live) =>
    waitUntilAvailable(definition.type, live, () => spec.get(client, live.id), {
      timeoutMs: client.processingTimeoutMs,
    });

  /** Adoption takes over only an object of the declared name; its content cannot be compared (no checksum). */
  function refuseOtherName(live: Live, inputs: Props): void {
    if (spec.nameOf(live) === inputs.filename) return;
    throw new NotPossibleError(
      `adoptId: ${live.id} is ${spec.noun} named "${spec.nameOf(live) ?? "(no name)"}", not "${String(inputs.filename)}". ` +
        `Nothing was changed. Adopt ${spec.noun} of the declared filename, or remove adoptId to upload ${String(inputs.source)}.`,
      { kind: definition.type, property: "adoptId", fix: `adopt ${spec.noun} with the declared filename` },
    );
  }

  return {
    async check(_olds, news) {
      const { inputs, failures } = checkKind(definition, news);
      // (During a preview the source may still be the engine's unknown value: hashed at the up.)
      const declared = inputs as Props;
      if (failures.some((f) => f.property === "source") || containsUnknown(declared.source))
        return { inputs, failures };
      const found = await checkSource(String(declared.source), process.cwd(), (extension) =>
        spec.extensions.includes(extension)
          ? undefined
          : `not of a type ${definition.type} takes (${spec.extensions.join(", ")}). Give the path of a ` +
            `${spec.extensions.join(" or ")} file.`,
      );
      if ("failure" in found) {
        failures.push({ property: "source", reason: found.failure });
        return { inputs, failures };
      }
      if (declared.sha512 !== undefined && declared.sha512 !== found.sha512)
        failures.push({
          property: "sha512",
          reason:
            `sha512: ${String(declared.source)} has the SHA-512 ${found.sha512}, not the declared ` +
            `${String(declared.sha512)}. Declare the new hash, or leave sha512 out to take whatever the file holds.`,
        });
      return {
        inputs: { ...inputs, filename: declared.filename ?? found.filename, sha512: found.sha512 },
        failures,
      };
    },

    diff: (_id, olds, news) => diffKindAsked(definition, olds, news),

    async create(inputs: InputsOf<P>) {
      const props = inputs as Props;
      const client = clientForProps(props);
      if (typeof props.adoptId === "string") {
        const live = await adoptable(spec.noun.replace(/^an? /, ""), props.adoptId, (id) =>
          spec.get(client, id),
        );
        refuseOtherName(live, props);
        await resourceLog.info(
          `${definition.type} ${live.id} adopted by its id and name; the API answers no checksum for it, so its content ` +
            `is taken to be ${String(props.source)} (SHA-512 ${String(props.sha512)}).`,
        );
        return { id: live.id, outs: toOutputs(await available(client, live), props) };
      }
      const filename = String(props.filename);
      // Listing is only worth it after a killed run (images are listed one type at a time: 11 calls).
      const own =
        unfinishedCreateStartedAt(definition.kind, props) === undefined
          ? undefined
          : leftByUnfinishedCreate(definition.kind, props, await spec.named(client, filename));
      if (own) return { id: own.id, outs: toOutputs(await available(client, own), props) };
      const { made } = await spec.upload(client, {
        source: String(props.source),
        filename,
        expectedChecksum: String(props.sha512),
        onProgress: uploadProgress(filename),
        onStatus: (status) => void (status === "pending" && resourceLog.info(`${filename}: processing`)),
      });
      return { id: made.id, outs: toOutputs(made, props) };
    },

    read: (id, props) =>
      readById(definition, id, props, (client, liveId) => spec.get(client, liveId), toOutputs),

    async update(id, _olds, news) {
      // Only source (never compared) and connection update in place: nothing is sent; the object is read again.
      const live = await spec.get(clientForProps(news as Props), id);
      return { outs: toOutputs(live, news as Props) };
    },

    async delete(id, props) {
      // No DELETE in the API for these kinds: the object stays; only the stack forgets it.
      await resourceLog.warn(
        `${definition.type} ${id} ("${String(props.filename)}"): the API cannot delete ${spec.noun.replace(/^an? /, "")}s; ` +
          `it stays in the organization. Removed from the stack only.`,
      );
    },
  };
}
