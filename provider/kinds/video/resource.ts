import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type AdoptionArgs, registration } from "../../framework";
import { videoKind } from "./definition";

// What the package exports of the kind besides its class, from the kind's other files.
export { getVideo, getVideoOutput, type GetVideoArgs, type VideoResult } from "./lookups";

/** The inputs of a {@link Video}. */
export interface VideoArgs extends AdoptionArgs {
  /**
   * The local video to upload: a path relative to the program's folder, or absolute. Never sent to the API and
   * never compared: the content's SHA-512 is (`sha512`), so the same bytes at another path are no change, and
   * changed bytes at the same path replace the video. Refused at preview: a missing, unreadable or empty file, a
   * folder, a symbolic link leading outside the program's folder, and (without `filename`) a name not ending in
   * .mp4, .mkv or .webm.
   */
  source: pulumi.Input<string>;
  /** The video's file name, ending in .mp4, .mkv or .webm; absent: the source's own name. A change replaces it. */
  filename?: pulumi.Input<string>;
  /** The display name (what `getVideo` finds). Absent: the name the service gives is kept. Changes in place. */
  name?: pulumi.Input<string>;
  /** A description; null or "" for none. Absent: whatever the video has is kept. Changes in place. */
  description?: pulumi.Input<string | null>;
  /** How the video is shown: `ThreeSixty`, `OneEighty` or a flat `TwoDimensional`. Changes in place. */
  videoType: pulumi.Input<"ThreeSixty" | "OneEighty" | "TwoDimensional">;
  /** Required for ThreeSixty and OneEighty videos, refused for TwoDimensional ones. Changes in place. */
  videoMapping?: pulumi.Input<"EQUIRECTANGULAR" | "CUBEMAP" | null>;
  /** Required for ThreeSixty and OneEighty videos, refused for TwoDimensional ones. Changes in place. */
  videoDisplay?: pulumi.Input<"Stereoscopic" | "Monoscopic" | null>;
  /** Required for a Stereoscopic video, refused otherwise. Changes in place. */
  videoPacking?: pulumi.Input<"TOP_BOTTOM" | "LEFT_RIGHT" | null>;
  /** The audio encoding as the API names it: "STEREO", "MONO", "AMBIX_4", "TBE_8", … Changes in place. */
  audioEncoding: pulumi.Input<string>;
  /**
   * Optional pin: the SHA-512 (hex) the source must have; the check of a preview and of an `up` fails when it
   * has another (`up` hashes the source again: only a pin holds the bytes a preview was reviewed with). Absent,
   * the source's hash is taken (and is the output `sha512`).
   */
  sha512?: pulumi.Input<string>;
}

/**
 * A video of the organization's content, uploaded from the repository, for `GroupVideo`, `DeviceVideo` and
 * experiences to show on headsets. Its identity is its content's SHA-512: preview hashes `source`, and a changed
 * hash (new bytes in the repository, or the video replaced in the portal, seen by `refresh`) uploads a new video
 * and then deletes the old one (a new upload is a new video id; attachments declared with `video.id` move to the
 * new video before the old one goes). The name, description and rendering fields change in place
 * (`PUT /videos/{videoId}`), leaving the video's tags as they are (a `TagSet` owns them).
 *
 * A create fails, before any upload, when a video of the same file name and content exists: take it over with
 * `adoptId` (same file name and content only), or use `aliases` if you renamed the resource in code. Destroy
 * deletes the video (and the API removes it from the groups and devices it was on).
 *
 * @example
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab" }); // a configured group at the root
 * const tour = new dm.Video("tour", {
 *   source: "content/forklift-360.mp4",
 *   name: "Forklift Safety 360",
 *   videoType: "ThreeSixty",
 *   videoMapping: "EQUIRECTANGULAR",
 *   videoDisplay: "Monoscopic",
 *   audioEncoding: "STEREO",
 * });
 * new dm.GroupVideo("berlin-tour", { groupId: berlin.id, videoId: tour.id });
 */
export class Video extends DeviceMgmtResource {
  /** The local video uploaded, as declared. */
  declare readonly source: pulumi.Output<string>;
  /** The video's file name. */
  declare readonly filename: pulumi.Output<string>;
  /** The display name. */
  declare readonly name: pulumi.Output<string>;
  /** The description, or null. */
  declare readonly description: pulumi.Output<string | null>;
  declare readonly videoType: pulumi.Output<"ThreeSixty" | "OneEighty" | "TwoDimensional">;
  declare readonly videoMapping: pulumi.Output<"EQUIRECTANGULAR" | "CUBEMAP" | null>;
  declare readonly videoDisplay: pulumi.Output<"Stereoscopic" | "Monoscopic" | null>;
  declare readonly videoPacking: pulumi.Output<"TOP_BOTTOM" | "LEFT_RIGHT" | null>;
  declare readonly audioEncoding: pulumi.Output<string>;
  /** The SHA-512 (hex, lower case) of the content, as the API answers it. */
  declare readonly sha512: pulumi.Output<string>;
  /** The content's size in bytes. */
  declare readonly sizeBytes: pulumi.Output<number>;
  /** The running time in seconds, once the service has read the video (null until then). */
  declare readonly playtimeSeconds: pulumi.Output<number | null>;
  /** When the video was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the video was last changed (ISO 8601). */
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: VideoArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(videoKind, name, args, opts));
  }
}
