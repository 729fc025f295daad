import * as dm from "pulumi-devicemgmt";

/** The headsets of each site, by device name (each is placed in its site and carries the site's tag). */
export interface SiteDevices {
  berlin: string[];
  london: string[];
  austin: string[];
}

export const NO_SITE_DEVICES: SiteDevices = { berlin: [], london: [], austin: [] };

/** The example's placement: the seeded organization's Headset 02 to 05 (01 stays ungrouped, 08 is the loaner). */
export const DEFAULT_SITE_DEVICES: SiteDevices = {
  berlin: ["Headset 02", "Headset 03"],
  london: ["Headset 04"],
  austin: ["Headset 05"],
};

/**
 * The version the Training Simulator's Production channel delivers: the build Beta ran before it got the build
 * this program uploads (content.ts).
 */
export const PRODUCTION_SIMULATOR_VERSION = "2.5.0-beta.3";

/**
 * Where each headset sits, its site's tag, one looked-up piece of content per site, and which build Production
 * ships.
 * - Every site has a tag of its own (`site-berlin`, …), and every device of a site carries it (the policy pack
 *   checks that): a headset moved to the wrong site shows up in review, not in the field.
 * - Production moves to a build only once Beta has run it (the policy pack checks that too).
 */
export function declareSites(
  sites: { berlin: dm.Group; london: dm.Group; austin: dm.Group },
  devices: SiteDevices,
) {
  const placed: Record<string, dm.Device> = {};
  for (const key of ["berlin", "london", "austin"] as const) {
    const tag = new dm.Tag(`site-${key}`, { name: `site-${key}` });
    for (const name of devices[key]) {
      const device = dm.getDeviceOutput({ name });
      const resourceName = `${key}-${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
      placed[resourceName] = new dm.Device(resourceName, {
        deviceId: device.id,
        groupId: sites[key].id,
        tags: [tag.name],
      });
    }
  }

  // One piece of content per site, looked up by name: the safety manual in Berlin, the floor plan at the
  // warehouse, the welcome tour in Austin (content.ts adds what the program uploads itself).
  const file = (filename: string) => dm.getFileOutput({ filename });
  new dm.GroupFile("berlin-safety-manual", {
    groupId: sites.berlin.id,
    fileId: file("safety-manual.pdf").id,
  });
  new dm.GroupFile("london-floorplan", {
    groupId: sites.london.id,
    fileId: file("warehouse-floorplan.png").id,
  });
  new dm.GroupVideo("austin-welcome-tour", {
    groupId: sites.austin.id,
    videoId: dm.getVideoOutput({ name: "Welcome Tour" }).id,
  });

  const simulatorProduction = dm.getReleaseChannelOutput({
    appName: "Training Simulator",
    channelName: "Production",
  });
  const promoted = dm.getAppVersionOutput({
    appName: "Training Simulator",
    version: PRODUCTION_SIMULATOR_VERSION,
  });
  new dm.ReleaseChannelVersion("simulator-production-version", {
    appId: simulatorProduction.appId,
    releaseChannelId: simulatorProduction.id,
    versionId: promoted.id,
  });

  return { devices: Object.fromEntries(Object.entries(placed).map(([k, d]) => [k, d.id])) };
}
