import * as dm from "pulumi-devicemgmt";
import type * as pulumi from "@pulumi/pulumi";
import { declareContent } from "./content";
import { declareExperiences } from "./experiences";
import { declareSites, NO_SITE_DEVICES, type SiteDevices } from "./sites";

/**
 * A realistic organization: a three-level group tree whose leaves are configured sites, people with default
 * and group roles looked up by name, release channels reaching groups and one ungrouped device, what the
 * headsets show at two sites (a kiosk guarded by an admin PIN, a home menu in the company's theme), content
 * uploaded from the repository (a build bundled with its data file on Beta, a video and a file on sites, an
 * icon and a 3D environment for a home menu), each site's headsets with the
 * site's tag and content, the build Production ships, and a device handed over to the staging organization.
 */
export interface OrganizationSettings {
  /** The device to hand over to `stagingSlug` (an id: once migrated, the device is no longer visible here). */
  loanerDeviceId: string;
  /** The organization that receives the loaner device. */
  stagingSlug: string;
  /** An ungrouped device of this organization that gets the beta channel directly. */
  demoDeviceName: string;
  /** Where people's addresses live. */
  emailDomain: string;
  /** The root group's name (default "Acme Training"). */
  companyName?: string;
  /**
   * The admin PIN of the London Warehouse kiosk (4 to 10 digits): a config secret, `config.requireSecret`.
   * Absent: the kiosk has no PIN (the policy pack refuses that; see examples/policy).
   */
  kioskPin?: pulumi.Input<string>;
  /**
   * The headsets of each site, by name (index.ts: the `siteDevices` config, else DEFAULT_SITE_DEVICES). Absent:
   * no headset is placed; the sites' tags, content and the Production version are declared all the same.
   */
  siteDevices?: SiteDevices;
}

export function declareOrganization(settings: OrganizationSettings) {
  // Roles and release channels come from the organization's catalogue, by name, so the same program runs
  // against production and a staging copy.
  const admin = dm.getRoleOutput({ name: "Admin", type: "organization" });
  const readOnly = dm.getRoleOutput({ name: "Read Only", type: "organization" });
  const groupAdmin = dm.getRoleOutput({ name: "Group Admin", type: "group" });
  const groupViewer = dm.getRoleOutput({ name: "Group Viewer", type: "group" });

  const simulatorProduction = dm.getReleaseChannelOutput({
    appName: "Training Simulator",
    channelName: "Production",
  });
  const simulatorBeta = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Beta" });
  const safetyStable = dm.getReleaseChannelOutput({ appName: "Safety Briefing", channelName: "Stable" });
  const pickerProduction = dm.getReleaseChannelOutput({
    appName: "Warehouse Picker",
    channelName: "Production",
  });

  // The tree: company -> regions -> sites. Only sites are configured: they hold devices and content.
  const company = new dm.Group("company", { name: settings.companyName ?? "Acme Training" });
  const emea = new dm.Group("emea", { name: "EMEA", parentId: company.id });
  const americas = new dm.Group("americas", { name: "Americas", parentId: company.id });
  const site = (key: string, name: string, region: dm.Group) =>
    new dm.Group(key, { name, parentId: region.id, configured: true });
  const berlin = site("berlin", "Berlin Lab", emea);
  const london = site("london", "London Warehouse", emea);
  const austin = site("austin", "Austin Lab", americas);

  const attach = (key: string, group: dm.Group, channel: pulumi.Output<dm.ReleaseChannelResult>) =>
    new dm.GroupReleaseChannel(key, { groupId: group.id, releaseChannelId: channel.id });
  attach("berlin-simulator", berlin, simulatorProduction);
  attach("berlin-safety", berlin, safetyStable);
  attach("london-picker", london, pickerProduction);
  attach("london-safety", london, safetyStable);
  attach("austin-simulator-beta", austin, simulatorBeta);
  attach("austin-safety", austin, safetyStable);

  // A demo headset outside any group tries the beta build directly.
  const demoDevice = dm.getDeviceOutput({ name: settings.demoDeviceName });
  new dm.DeviceReleaseChannel("demo-device-beta", {
    deviceId: demoDevice.id,
    releaseChannelId: simulatorBeta.id,
  });

  // Declared before the sites, so that a Production delivery (sites.ts) made to follow Beta's (`versionId:
  // <beta>.versionId`, which also orders the two for the policy pack) finds Beta's declared.
  const content = declareContent({ berlin, austin });
  declareExperiences(london, austin, settings.kioskPin, {
    icon: content.austinIcon,
    hall: content.austinHall,
  });
  const placement = declareSites({ berlin, london, austin }, settings.siteDevices ?? NO_SITE_DEVICES);

  const person = (firstName: string, lastName: string) =>
    `${firstName}.${lastName}@${settings.emailDomain}`.toLowerCase();
  const ops = new dm.User("ops-lead", {
    firstName: "Olivia",
    lastName: "Ops",
    email: person("Olivia", "Ops"),
    defaultRoleId: admin.id,
  });
  const emeaLead = new dm.User("emea-lead", {
    firstName: "Emil",
    lastName: "Lindqvist",
    email: person("Emil", "Lindqvist"),
    defaultRoleId: readOnly.id,
    groupRoles: [
      { roleId: groupAdmin.id, groupId: berlin.id },
      { roleId: groupAdmin.id, groupId: london.id },
    ],
  });
  const trainer = new dm.User("austin-trainer", {
    firstName: "Tess",
    lastName: "Trainer",
    email: person("Tess", "Trainer"),
    defaultRoleId: readOnly.id,
    groupRoles: [{ roleId: groupViewer.id, groupId: austin.id }],
  });

  const loaner = new dm.DeviceMigration("loaner-to-staging", {
    deviceId: settings.loanerDeviceId,
    organizationSlug: settings.stagingSlug,
  });

  return {
    groups: {
      company: company.id,
      emea: emea.id,
      americas: americas.id,
      berlin: berlin.id,
      london: london.id,
      austin: austin.id,
    },
    users: { ops: ops.id, emeaLead: emeaLead.id, trainer: trainer.id },
    migratedDevice: loaner.id,
    devices: placement.devices,
    uploaded: content.ids,
  };
}
