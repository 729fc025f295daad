/**
 * The Video kind's CRUD, on typed inputs. The content's identity is its SHA-512, as for a File: check hashes
 * `source` (framework/source.ts) and records it as `sha512`; the upload sends exactly those bytes or refuses.
 *
 * Metadata (name, description, rendering) changes in place through `PUT /videos/{videoId}`, which takes the
 * whole object, tags included (the OpenAPI requires them): the tags sent are the ones just read, so a `TagSet`
 * on the video keeps them, whether the API replaces a video's tags with a PUT's or adds them (emulator switch
 * `mergeVideoTagsOnPut`). A PUT is sent only when the declared metadata differs from what the video has.
 *
 * New content (or another filename, which UpdateVideo does not take) is a new upload, and a new upload is a new
 * video with a new id: a replacement. It creates first, then deletes (the engine's default; the kind has no
 * natural key, since videos of one name may coexist): GroupVideo and DeviceVideo resources that name `video.id`
 * are replaced onto the new video before the old one is deleted (deleting first would leave a site without the
 * video for the whole upload, and a failed upload with nothing), and a failed upload leaves the old video and its
 * attachments as they were.
 *
 * Create never adopts silently: a video of the same filename and SHA-512 is refused (notCreatedHere) unless
 * `adoptId` names it (adoption then requires that same filename and content, and brings the metadata to the
 * declared values). Why refuse it: another stack or the portal may own that video, and destroying this stack would
 * delete it. A video of the same filename with other content is no conflict (it is another video). A run killed
 * after the upload completed is repaired: the journaled create (claims.ts) takes over the video it left.
 */
import {
  resourceLog,
  uploadProgress,
  clientForProps,
  adoptable,
  jsonClean,
  notCreatedHere,
  unlessGone,
  type Props,
  heldBySelf,
  leftByUnfinishedCreate,
  checkKind,
  diffKindAsked,
  readById,
  type InputsOf,
  type KindHandler,
  stateFrom,
  checkedUpload,
  type WrongType,
} from "../../framework";
import { NotPossibleError } from "../../errors";
import type { DeviceMgmtClient, UpdateVideoBody, Video } from "../../client";
import { isVideoFilename, videoProperties, type VideoProperties, videoIdentity } from "./properties";
import { renderingFailures } from "./rendering";

type Inputs = InputsOf<VideoProperties>;

function toOutputs(live: Video, props: Props): Props {
  return jsonClean({
    ...stateFrom(videoProperties, live, props),
    sizeBytes: live.sizeBytes,
    playtimeSeconds: live.details?.playtimeSeconds ?? null,
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
  });
}

/** A source name the API would refuse as a video's filename (InitiateVideoUpload: .mp4, .mkv, .webm). */
const notAVideo: WrongType = (extension) =>
  isVideoFilename(`x${extension}`)
    ? undefined
    : `the API takes videos as .mp4, .mkv or .webm, not ${extension || "a file without extension"}. Convert ` +
      "the video to one of them, or give filename (ending so) if the content already is one.";

/**
 * The whole object `PUT /videos/{videoId}` takes: the declared metadata, what the program leaves out as the video
 * has it, and the video's own tags, unchanged.
 */
function updateBody(live: Video, inputs: Inputs): UpdateVideoBody {
  return {
    name: inputs.name ?? live.name,
    description: inputs.description !== undefined ? inputs.description : (live.description ?? null),
    videoType: inputs.videoType,
    videoMapping: inputs.videoMapping,
    videoDisplay: inputs.videoDisplay,
    videoPacking: inputs.videoPacking,
    audioEncoding: inputs.audioEncoding,
    tags: live.tags ?? [],
  };
}

/** The video with the declared metadata: `live` when it has it already, else what the PUT answers. */
async function withMetadata(client: DeviceMgmtClient, live: Video, inputs: Inputs): Promise<Video> {
  const body = updateBody(live, inputs);
  const details = live.details;
  const current = {
    name: live.name,
    description: live.description || null,
    videoType: details?.videoType,
    videoMapping: details?.videoMapping ?? null,
    videoDisplay: details?.videoDisplay ?? null,
    videoPacking: details?.videoPacking ?? null,
    audioEncoding: details?.audioEncoding,
  };
  const wanted = { ...body, description: body.description || null, tags: undefined };
  const differs = Object.entries(current).some(
    ([key, value]) => wanted[key as keyof typeof wanted] !== value,
  );
  return differs ? client.videos.update(live.id, body) : live;
}

/**
 * The videos of the organization with this filename and content, but the one this resource records (a
 * replacement asked for with the same content, `--replace`, meets the video it replaces: that one goes after).
 */
async function sameContent(client: DeviceMgmtClient, inputs: Inputs): Promise<Video[]> {
  return (await client.videos.all()).filter(
    (v) =>
      v.filename === inputs.filename &&
      v.checksum.value.toLowerCase() === inputs.sha512 &&
      !heldBySelf(videoIdentity.kind, v.id, inputs),
  );
}

/** Adoption takes over only the declared content: another filename or checksum is refused before any write. */
function refuseOtherContent(live: Video, inputs: Inputs): void {
  const sha512 = live.checksum.value.toLowerCase();
  if (live.filename === inputs.filename && sha512 === inputs.sha512) return;
  throw new NotPossibleError(
    `adoptId: video ${live.id} is "${live.filename}" with SHA-512 ${sha512}, not "${inputs.filename}" with the ` +
      `SHA-512 of ${inputs.source} (${inputs.sha512}). Nothing was changed. Adopt a video with the declared ` +
      `filename and content, or remove adoptId to upload it.`,
    { kind: "Video", property: "adoptId", fix: "adopt a video with the declared filename and content" },
  );
}

export const videoHandler: KindHandler<VideoProperties> = {
  async check(_olds, news) {
    const { inputs, failures } = checkKind(videoIdentity, news);
    const judged = new Set(failures.map((f) => f.property));
    failures.push(...renderingFailures(inputs).filter((f) => !judged.has(f.property)));
    // Without a declared filename, the source's own name is the one sent: it must be a container the API takes.
    const named = inputs.filename !== undefined || judged.has("filename");
    return checkedUpload(inputs, failures, named ? undefined : notAVideo);
  },

  diff: (_id, olds, news) => diffKindAsked(videoIdentity, olds, news),

  async create(inputs) {
    const client = clientForProps(inputs);
    if (inputs.adoptId !== undefined) {
      const live = await adoptable("video", inputs.adoptId, (id) => client.videos.get(id));
      refuseOtherContent(live, inputs);
      await resourceLog.info(`adopted video ${live.id} ("${live.filename}", the declared content)`);
      return { id: live.id, outs: toOutputs(await withMetadata(client, live, inputs), inputs) };
    }
    const existing = await sameContent(client, inputs);
    const own = leftByUnfinishedCreate(videoIdentity.kind, inputs, existing);
    if (own) return { id: own.id, outs: toOutputs(await withMetadata(client, own, inputs), inputs) };
    if (existing.length > 0)
      throw notCreatedHere(
        `A video "${inputs.filename}" with the same content (SHA-512 ${inputs.sha512}) already exists (id ` +
          `${existing.map((v) => v.id).join(", ")}), and this Video did not upload it.`,
        "a video",
        existing[0].id,
      );
    const { made } = await client.uploadVideo({
      source: inputs.source,
      filename: inputs.filename as string,
      videoType: inputs.videoType,
      videoMapping: inputs.videoMapping,
      videoDisplay: inputs.videoDisplay,
      videoPacking: inputs.videoPacking,
      audioEncoding: inputs.audioEncoding,
      expectedChecksum: inputs.sha512,
      onProgress: uploadProgress(inputs.filename as string),
    });
    // The upload takes no name or description: those that differ from what the service gave are PUT.
    return { id: made.id, outs: toOutputs(await withMetadata(client, made, inputs), inputs) };
  },

  read: (id, props) =>
    readById(videoIdentity, id, props, (client, videoId) => client.videos.get(videoId), toOutputs),

  async update(id, _olds, news) {
    const client = clientForProps(news);
    const live = await client.videos.get(id);
    return { outs: toOutputs(await withMetadata(client, live, news), news) };
  },

  async delete(id, props) {
    await unlessGone(clientForProps(props).videos.delete(id));
  },
};
