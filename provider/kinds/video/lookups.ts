/** `getVideo`: a video by name. */
import type { DeviceMgmtClient } from "../../client";
import { checker } from "../../client/arguments";
import { exactlyOne, lookup, lookupClient, toOutput, type LookupOptions } from "../../lookupSupport";

export interface VideoResult {
  /** For an experience's content `{ type: "video", id }`. */
  id: string;
  name: string;
  filename: string;
}

/** Arguments of {@link getVideo}. */
export interface GetVideoArgs {
  /** The video's exact name, e.g. "Welcome Tour" (case-sensitive). */
  name: string;
}

/**
 * Finds a video of the organization by name.
 *
 * @function
 * @example
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab" }); // a configured group at the root
 * const tour = dm.getVideoOutput({ name: "Welcome Tour" });
 * new dm.GroupVideo("berlin-tour", { groupId: berlin.id, videoId: tour.id });
 */
export const getVideo = lookup(async function getVideo(
  args: GetVideoArgs,
  options?: LookupOptions,
): Promise<VideoResult> {
  const check = checker("getVideo", args, 'getVideo({ name: "Welcome Tour" })');
  check.only("name");
  const name = check.name("name", "video's name");
  const videos = await lookupClient(options).videos.all();
  const video = exactlyOne(
    `video named "${name}"`,
    videos.filter((v) => v.name === name),
    (v) => `${v.id} (${v.filename})`,
    videos.map((v) => v.name),
  );
  return { id: video.id, name: video.name, filename: video.filename };
});
/** {@link getVideo} with Inputs, as an Output. */
export const getVideoOutput = toOutput(getVideo);

/** The names getVideo finds: `getVideo` finds a video by its display name. */
export async function videoNamesLookedUp(client: DeviceMgmtClient): Promise<string[]> {
  return (await client.videos.all()).map((video) => video.name);
}
