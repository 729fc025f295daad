/**
 * The Video kind's properties, declared once (framework/properties.ts). The content's identity is its SHA-512
 * (`sha512`, computed by check from `source`), as for a File: the diff compares the hash and the file name, never
 * the local path. The rest is metadata `PUT /videos/{videoId}` changes in place: the name, the description and the
 * rendering fields (rendering.ts checks the OpenAPI's rules between them at preview). Tags are not among them:
 * `TagSet` owns a video's tags (the provider sends back the tags it read, handler.ts).
 */
import { z } from "zod";
import type { Video } from "../../client";
import {
  carried,
  type PropertySpecs,
  type StateOf,
  sha512Property,
  sourceProperty,
  defineIdentity,
  byProperties,
} from "../../framework";

/** The containers the API takes (InitiateVideoUpload: the filename "must end with .mp4, .mkv, or .webm"). */
export const VIDEO_EXTENSIONS = [".mp4", ".mkv", ".webm"] as const;
export const isVideoFilename = (name: string) => /\.(mp4|mkv|webm)$/i.test(name);

export const VIDEO_TYPES = ["ThreeSixty", "OneEighty", "TwoDimensional"] as const;
export const AUDIO_ENCODINGS = [
  "UNKNOWN",
  "MONO",
  "STEREO",
  ...["TBE_8", "TBE_8_2", "TBE_6", "TBE_6_2", "TBE_4", "TBE_4_2"],
  ...["TBE_8_PAIR_0", "TBE_8_PAIR_1", "TBE_8_PAIR_2", "TBE_8_PAIR_3"],
  ...["TBE_CHANNEL_0", "TBE_CHANNEL_1", "TBE_CHANNEL_2", "TBE_CHANNEL_3"],
  ...["TBE_CHANNEL_4", "TBE_CHANNEL_5", "TBE_CHANNEL_6", "TBE_CHANNEL_7"],
  ...["HEADLOCKED_STEREO", "HEADLOCKED_CHANNEL_0", "HEADLOCKED_CHANNEL_1"],
  ...["AMBIX_4", "AMBIX_4_2", "AMBIX_9", "AMBIX_9_2", "AMBIX_16", "AMBIX_16_2"],
] as const;

/** Left out of the program, a property is not managed: whatever the video has is no change. */
const unlessDeclared = (recorded: unknown, declared: unknown) =>
  declared === undefined || (recorded ?? null) === (declared ?? null);

/** One of `values`, or null/absent (a rendering field the video type does not take). */
function renderingField<const V extends readonly [string, ...string[]]>(property: string, values: V) {
  return z
    .enum(values, { error: `${property} must be one of ${values.join(", ")}, or null` })
    .nullable()
    .optional()
    .transform((v) => v ?? null);
}

export const videoProperties = {
  source: sourceProperty("video"),
  filename: {
    // Absent: the source's own name (check fills it in, and refuses one the API does not take).
    schema: z
      .string({ error: "filename must be a string: the video's file name, e.g. tour.mp4" })
      .trim()
      .min(1, { error: "filename must not be empty (leave it out to use the source's name)" })
      .refine((v) => !/[/\\]/.test(v), { error: "filename must be a name without / or \\" })
      .refine(isVideoFilename, {
        error:
          "filename must end with .mp4, .mkv or .webm (the containers the API takes): convert the video, or " +
          "name it by its container",
      })
      .optional(),
    // UpdateVideo takes no filename: another name is another upload.
    change: "replace",
    fromLive: (live: Video) => live.filename,
  },
  name: {
    schema: z
      .string({ error: "name must be a string: the video's display name" })
      .trim()
      .min(1, { error: "name must not be empty (leave it out to keep the name the service gives)" })
      .max(255, { error: "name must be at most 255 characters" })
      .optional(),
    change: "update",
    fromLive: (live: Video) => live.name,
    equal: unlessDeclared,
  },
  description: {
    // "" and null both mean "no description" (Laravel reads "" as null); absent: not managed.
    schema: z
      .string({ error: "description must be a string, or null for none" })
      .nullable()
      .optional()
      .transform((v) => (v === "" ? null : v)),
    change: "update",
    fromLive: (live: Video) => live.description || null,
    equal: unlessDeclared,
  },
  videoType: {
    schema: z.enum(VIDEO_TYPES, {
      error: `videoType is required: one of ${VIDEO_TYPES.join(", ")} (a flat video is TwoDimensional)`,
    }),
    change: "update",
    fromLive: (live: Video) => live.details?.videoType,
  },
  videoMapping: {
    schema: renderingField("videoMapping", ["EQUIRECTANGULAR", "CUBEMAP"]),
    change: "update",
    fromLive: (live: Video) => live.details?.videoMapping ?? null,
    default: null,
  },
  videoDisplay: {
    schema: renderingField("videoDisplay", ["Stereoscopic", "Monoscopic"]),
    change: "update",
    fromLive: (live: Video) => live.details?.videoDisplay ?? null,
    default: null,
  },
  videoPacking: {
    schema: renderingField("videoPacking", ["TOP_BOTTOM", "LEFT_RIGHT"]),
    change: "update",
    fromLive: (live: Video) => live.details?.videoPacking ?? null,
    default: null,
  },
  audioEncoding: {
    schema: z.enum(AUDIO_ENCODINGS, {
      error: 'audioEncoding is required: the API\'s encoding name, e.g. "STEREO", "MONO" or "AMBIX_4"',
    }),
    change: "update",
    fromLive: (live: Video) => live.details?.audioEncoding,
  },
  sha512: sha512Property<Video>(),
  ...carried,
} satisfies PropertySpecs<Video>;

export type VideoProperties = typeof videoProperties;
export type VideoState = StateOf<VideoProperties>;

/**
 * Who the Video kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const videoIdentity = defineIdentity({
  kind: "video",
  type: "Video",
  // Videos of one name may coexist: a replacement creates the new video first (handler.ts says why).
  naturalKey: false,
  properties: videoProperties,
  // A video's file name and content: videos of one name may coexist, but the same bytes under the same name
  // uploaded twice would be one video declared twice (and its killed-run repair is found by both).
  claim: {
    property: "source",
    keys: byProperties(["filename", "sha512"]),
    describe: (p) => `the video "${String(p.filename)}" with SHA-512 ${String(p.sha512).slice(0, 16)}…`,
  },
});
