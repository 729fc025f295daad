import * as path from "node:path";
import * as dm from "pulumi-devicemgmt";

/** The build the program uploads for the Training Simulator and puts on its Beta channel. */
export const BETA_SIMULATOR_VERSION = "2.6.0-beta.1";

/**
 * A fixture of `content/` as the kinds resolve `source`: relative to the program's folder, the working directory
 * of the provider plugin the engine starts. That is also this program's working directory, whichever way it runs:
 * examples/org for `pulumi up` (in examples/org or at the repository root, whose Pulumi.yaml says `main:
 * examples/org/`), the repository root for `npm run demo` and the tests (an inline program, `main` the root). So
 * the path is taken relative to the working directory, never written out: "content/…" in the first case,
 * "examples/org/content/…" in the second. A moved path is no change: the kinds compare content hashes, not paths.
 */
const fixture = (name: string) => path.relative(process.cwd(), path.join(__dirname, "content", name));

/**
 * Content uploaded from the repository (the files of `content/`, made-up bytes: see content/README.md), so that
 * what reaches the headsets is reviewed with the program:
 * - a build of the Training Simulator, uploaded and put on the Beta channel (Production keeps the build Beta
 *   had before: sites.ts; the policy pack's devicemgmt-production-from-beta lets it follow only what Beta had);
 * - a training video, shown at Austin Lab beside the looked-up "Welcome Tour";
 * - an evacuation plan for Berlin Lab's headsets, beside the looked-up safety manual.
 */
export function declareContent(sites: { berlin: dm.Group; austin: dm.Group }) {
  const simulator = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Beta" });
  const build = new dm.AppVersion("simulator-build", {
    appId: simulator.appId,
    source: fixture(`training-simulator-${BETA_SIMULATOR_VERSION}.apk`),
    versionName: BETA_SIMULATOR_VERSION,
    releaseNotes: "Forklift scenario; faster loading of the warehouse scene.",
  });
  new dm.ReleaseChannelVersion("simulator-beta-version", {
    appId: simulator.appId,
    releaseChannelId: simulator.id,
    versionId: build.id,
  });

  const video = new dm.Video("forklift-safety-video", {
    source: fixture("forklift-safety.mp4"),
    name: "Forklift Safety",
    description: "Five minutes on forklift safety, for new warehouse staff.",
    videoType: "TwoDimensional",
    audioEncoding: "STEREO",
  });
  new dm.GroupVideo("austin-forklift-safety", { groupId: sites.austin.id, videoId: video.id });

  const plan = new dm.File("evacuation-plan", {
    source: fixture("evacuation-plan.pdf"),
    path: "/sdcard/Docs",
  });
  new dm.GroupFile("berlin-evacuation-plan", { groupId: sites.berlin.id, fileId: plan.id });

  // The ids of what was uploaded (a stack output: the demo's report reads these through the API).
  return { build: build.id, video: video.id, file: plan.id };
}
