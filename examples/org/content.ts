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

/** Where the Training Simulator reads its expansion files on the headsets (Android's obb folder of its package). */
export const SIMULATOR_OBB_FOLDER = "/sdcard/Android/obb/com.acme.trainingsimulator";

/**
 * Content uploaded from the repository (the files of `content/`, made-up or tiny bytes: see content/README.md),
 * so that what reaches the headsets is reviewed with the program:
 * - a build of the Training Simulator, bundled with the expansion file its warehouse scene reads (an AppBundle),
 *   and that bundle put on the Beta channel (Production keeps the build Beta had before: sites.ts; the policy
 *   pack's devicemgmt-production-from-beta lets it follow only what Beta had);
 * - a training video, shown at Austin Lab beside the looked-up "Welcome Tour";
 * - an evacuation plan for Berlin Lab's headsets, beside the looked-up safety manual;
 * - Austin Lab's own menu icon and the 3D training hall its home shows around the menu (experiences.ts uses
 *   them; the London kiosk keeps the icon it looks up by name). The API cannot delete images or 3D
 *   environments: a destroy leaves them in the organization, and says so.
 */
export function declareContent(sites: { berlin: dm.Group; austin: dm.Group }) {
  const simulator = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Beta" });
  const build = new dm.AppVersion("simulator-build", {
    appId: simulator.appId,
    source: fixture(`training-simulator-${BETA_SIMULATOR_VERSION}.apk`),
    versionName: BETA_SIMULATOR_VERSION,
    releaseNotes: "Forklift scenario; faster loading of the warehouse scene.",
  });
  // Beta gets the build with its expansion file: the channel delivers the bundle (the API shows the channel on
  // the bundle's build, so Production's rule sees a version as ever).
  const bundle = new dm.AppBundle("simulator-beta-bundle", {
    appId: simulator.appId,
    versionId: build.id,
    files: [{ source: fixture("main.260.com.acme.trainingsimulator.obb"), path: SIMULATOR_OBB_FOLDER }],
    label: "Beta with warehouse scene",
  });
  new dm.ReleaseChannelVersion("simulator-beta-version", {
    appId: simulator.appId,
    releaseChannelId: simulator.id,
    bundleId: bundle.id,
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

  const austinIcon = new dm.Image("austin-menu-icon", { source: fixture("austin-menu-icon.png") });
  const austinHall = new dm.Custom3DEnvironment("austin-training-hall", {
    source: fixture("austin-training-hall.glb"),
  });

  return {
    // For experiences.ts.
    austinIcon,
    austinHall,
    // The ids of what was uploaded (a stack output: the demo's report reads these through the API).
    ids: {
      build: build.id,
      video: video.id,
      file: plan.id,
      image: austinIcon.id,
      environment: austinHall.id,
      bundle: bundle.id,
    },
  };
}
