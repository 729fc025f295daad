/**
 * Names and order of the tags, devices and channel versions in the generated program. Called by `planProgram`
 * once groups and channels have their variables, so every name is unique across the program; pure.
 */
import type {
  ModelChannelVersion,
  ModelDeviceContent,
  ModelPlacedDevice,
  ModelTag,
  ModelTagSet,
} from "./deviceRead";
import { contentKey } from "./content";
import { channelKey, type OrgModel } from "./model";
import { assignIdentifiers, assignUnique, identifierFrom, lookupSuffix, slugify } from "./names";

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
  /** The version is a build the program declares (an AppVersion uploaded from content/), not a lookup. */
  declaredBuild: boolean;
}

/** A lookup of an app, file or video by name (`dm.getAppOutput`, `dm.getFileOutput`, `dm.getVideoOutput`). */
export interface PlannedContentLookup {
  type: "app" | "file" | "video";
  name: string;
  variable: string;
}

export interface PlannedTagSet {
  tagSet: ModelTagSet;
  resourceName: string;
  ownerVariable: string;
  tagVariables: (string | undefined)[];
}

export interface PlannedDeviceContent {
  content: ModelDeviceContent;
  resourceName: string;
  deviceVariable: string;
  contentVariable: string;
}

export interface DevicePlan {
  tags: PlannedTag[];
  contentLookups: PlannedContentLookup[];
  tagSets: PlannedTagSet[];
  deviceContent: PlannedDeviceContent[];
  devices: PlannedPlacedDevice[];
  channelVersions: PlannedChannelVersion[];
}

export const EMPTY_DEVICE_PLAN: DevicePlan = {
  tags: [],
  contentLookups: [],
  tagSets: [],
  deviceContent: [],
  devices: [],
  channelVersions: [],
};

export interface DevicePlanContext {
  groupVariable: Map<string, string>;
  channelVariable: Map<string, string>;
  deviceVariable: Map<string, string>;
  /** Declared content (content.ts) by `contentKey(type, id)`: referred to by its variable, not looked up. */
  contentVariable: Map<string, string>;
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
  const tagVariables = assignIdentifiers(
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
  // A build the program declares (content.ts) is referred to by its resource, not looked up.
  const declaredVersion = (v: ModelChannelVersion) =>
    v.versionId === undefined ? undefined : ctx.contentVariable.get(contentKey("appVersion", v.versionId));
  for (const v of versions)
    if (!declaredVersion(v) && !firsts.has(versionKey(v))) firsts.set(versionKey(v), v);
  const lookedUp = [...firsts.values()];
  const lookupVariables = assignIdentifiers(
    lookedUp.map((v) => {
      const base = identifierFrom(slugify(`${v.appName} ${v.version}`), "version");
      return { candidates: [`${base}Version`, `${base}Version2`] };
    }),
    ctx.variables,
  );
  const versionVariable = new Map(lookedUp.map((v, i) => [versionKey(v), lookupVariables[i]]));

  // Content lookups: the owners of tag sets and what sits on devices, one per type and name.
  const tagSets = model.tagSets ?? [];
  const deviceContent = model.deviceContent ?? [];
  const lookupKey = (type: string, name: string) => `${type}\u0000${name}`;
  const wanted = new Map<string, { type: "app" | "file" | "video"; name: string }>();
  const declared = (type: string, id: string) => ctx.contentVariable.get(contentKey(type, id));
  for (const t of tagSets)
    if (!declared(t.ownerType, t.ownerId))
      wanted.set(lookupKey(t.ownerType, t.ownerName), { type: t.ownerType, name: t.ownerName });
  for (const c of deviceContent)
    if (!declared(c.type, c.contentId))
      wanted.set(lookupKey(c.type, c.contentName), { type: c.type, name: c.contentName });
  const lookups = [...wanted.values()];
  const contentLookupVariables = assignIdentifiers(
    lookups.map((l) => {
      const base = identifierFrom(slugify(l.name.replace(/\.[A-Za-z0-9]+$/, "")), l.type);
      return { candidates: [`${base}${lookupSuffix(l.type)}`, `${base}${lookupSuffix(l.type)}2`] };
    }),
    ctx.variables,
  );
  const lookupVariable = new Map(
    lookups.map((l, i) => [lookupKey(l.type, l.name), contentLookupVariables[i]]),
  );
  const tagSetNames = assignUnique(
    tagSets.map((t) => ({ candidates: [`${slugify(t.ownerName) || t.ownerType}-${t.ownerType}-tags`] })),
    ctx.resourceNames,
  );
  const contentNames = assignUnique(
    deviceContent.map((c) => ({
      candidates: [`${slugify(c.deviceName) || "device"}-${slugify(c.contentName) || c.type}-${c.type}`],
    })),
    ctx.resourceNames,
  );

  return {
    contentLookups: lookups.map((l, i) => ({ ...l, variable: contentLookupVariables[i] })),
    tagSets: tagSets.map((tagSet, i) => ({
      tagSet,
      resourceName: tagSetNames[i],
      ownerVariable:
        declared(tagSet.ownerType, tagSet.ownerId) ??
        lookupVariable.get(lookupKey(tagSet.ownerType, tagSet.ownerName))!,
      tagVariables: tagSet.tags.map((t) => tagVariable.get(t.toLowerCase())),
    })),
    deviceContent: deviceContent.map((content, i) => ({
      content,
      resourceName: contentNames[i],
      deviceVariable: ctx.deviceVariable.get(content.deviceId)!,
      contentVariable:
        declared(content.type, content.contentId) ??
        lookupVariable.get(lookupKey(content.type, content.contentName))!,
    })),
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
      versionVariable: declaredVersion(channelVersion) ?? versionVariable.get(versionKey(channelVersion))!,
      firstWithVersion: lookedUp.includes(channelVersion),
      declaredBuild: declaredVersion(channelVersion) !== undefined,
    })),
  };
}
