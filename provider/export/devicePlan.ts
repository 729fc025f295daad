/**
 * Names and order of the tags, devices and channel versions in the generated program. Called by `planProgram`
 * once groups and channels have their variables, so every name is unique across the program; pure.
 */
import type { ModelChannelVersion, ModelPlacedDevice, ModelTag } from "./deviceRead";
import { channelKey, type OrgModel } from "./model";
import { assignUnique, identifierFrom, slugify } from "./names";

export interface PlannedTag {
  tag: ModelTag;
  resourceName: string;
  variable: string;
}

export interface PlannedPlacedDevice {
  device: ModelPlacedDevice;
  resourceName: string;
  /** The variable of its group; null: ungrouped. */
  groupVariable: string | null;
  /** Per tag: the variable of the declared Tag (its `.name`), or undefined when tags are not declared. */
  tagVariables: (string | undefined)[];
}

export interface PlannedChannelVersion {
  channelVersion: ModelChannelVersion;
  resourceName: string;
  channelVariable: string;
  versionVariable: string;
  /** The first channel delivering this version: the lookup is written before it. */
  firstWithVersion: boolean;
}

export interface DevicePlan {
  tags: PlannedTag[];
  devices: PlannedPlacedDevice[];
  channelVersions: PlannedChannelVersion[];
}

export const EMPTY_DEVICE_PLAN: DevicePlan = { tags: [], devices: [], channelVersions: [] };

export interface DevicePlanContext {
  groupVariable: Map<string, string>;
  channelVariable: Map<string, string>;
  resourceNames: Set<string>;
  variables: Set<string>;
}

export function planDevices(model: OrgModel, ctx: DevicePlanContext): DevicePlan {
  const tags = model.tags ?? [];
  const devices = model.placedDevices ?? [];
  const versions = model.channelVersions ?? [];

  const tagNames = assignUnique(
    tags.map((t) => {
      const slug = slugify(t.name) || "tag";
      return { candidates: [`${slug}-tag`, `${slug}-tag-${t.id.slice(0, 8)}`] };
    }),
    ctx.resourceNames,
  );
  const tagVariables = assignUnique(
    tags.map((t) => {
      const base = identifierFrom(slugify(t.name), "tag");
      return { candidates: [`${base}Tag`, `${base}Tag2`] };
    }),
    ctx.variables,
  );
  const tagVariable = new Map(tags.map((t, i) => [t.name.toLowerCase(), tagVariables[i]]));

  const deviceNames = assignUnique(
    devices.map((d) => ({
      candidates: [
        `${slugify(d.name) || "device"}-placement`,
        `${slugify(d.name) || "device"}-${slugify(d.serialNumber)}-placement`,
      ],
    })),
    ctx.resourceNames,
  );

  const versionNames = assignUnique(
    versions.map((v) => ({
      candidates: [`${slugify(v.appName) || "app"}-${slugify(v.channelName) || "channel"}-version`],
    })),
    ctx.resourceNames,
  );
  // One lookup per app version, however many channels deliver it.
  const versionKey = (v: ModelChannelVersion) => `${v.appName}\u0000${v.version}`;
  const firsts = new Map<string, ModelChannelVersion>();
  for (const v of versions) if (!firsts.has(versionKey(v))) firsts.set(versionKey(v), v);
  const lookedUp = [...firsts.values()];
  const lookupVariables = assignUnique(
    lookedUp.map((v) => {
      const base = identifierFrom(slugify(`${v.appName} ${v.version}`), "version");
      return { candidates: [`${base}Version`, `${base}Version2`] };
    }),
    ctx.variables,
  );
  const versionVariable = new Map(lookedUp.map((v, i) => [versionKey(v), lookupVariables[i]]));

  return {
    tags: tags.map((tag, i) => ({ tag, resourceName: tagNames[i], variable: tagVariables[i] })),
    devices: devices.map((device, i) => ({
      device,
      resourceName: deviceNames[i],
      groupVariable: device.groupId === null ? null : ctx.groupVariable.get(device.groupId)!,
      tagVariables: device.tags.map((t) => tagVariable.get(t.toLowerCase())),
    })),
    channelVersions: versions.map((channelVersion, i) => ({
      channelVersion,
      resourceName: versionNames[i],
      channelVariable: ctx.channelVariable.get(
        channelKey({ appName: channelVersion.appName, channelName: channelVersion.channelName }),
      )!,
      versionVariable: versionVariable.get(versionKey(channelVersion))!,
      firstWithVersion: lookedUp.includes(channelVersion),
    })),
  };
}
