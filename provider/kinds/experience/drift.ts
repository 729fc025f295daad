/**
 * The drift report's facet of HeadsetExperience and DeviceExperience. The API lists no experiences: each is read
 * with one GET per owner, and only for the owners a stack manages (every configured group and ungrouped device
 * always has one of each kind, so none is "unmanaged", and reading all of them would cost a request per owner for
 * nothing). A read's fields are the kind's declared live mapping (the read's declared form), and only the fields
 * the program declares are compared, as the resources compare them. The admin PIN is never read into the report,
 * compared or printed: the properties read no PIN from the API, and the state's PIN is a secret.
 */
import type { ExperienceHolder, HeadsetExperience as ApiExperience } from "../../client";
import {
  groupPaths,
  referencesUnder,
  str,
  type DriftFacet,
  type KeySource,
  type LiveObject,
} from "../../drift/driftKind";
import type { ManagedResource } from "../../framework";
import { liveStateOf, type PropertySpecs } from "../../framework";

/** The owner a resource's experience belongs to (its id is the owner's id, too). */
function holderOf(resource: ManagedResource): ExperienceHolder {
  return typeof resource.outputs.groupId === "string"
    ? { groupId: resource.outputs.groupId }
    : { deviceId: typeof resource.outputs.deviceId === "string" ? resource.outputs.deviceId : resource.id };
}

const holderId = (holder: ExperienceHolder) => ("groupId" in holder ? holder.groupId : holder.deviceId);

/**
 * Where the ids of an experience's fields are named: content by its type (an unmanaged app or a WebXR link has no
 * list in the API), each image field from the images of the type it takes, the environment and the theme.
 */
const FIELD_SOURCES: Record<string, KeySource> = {
  id: (content) =>
    content.type === "app" ? { list: "apps" } : content.type === "video" ? { list: "videos" } : undefined,
  menuIconImageId: { list: "images", type: "headset-xp-menu-icon" },
  bannerImageId: { list: "images", type: "headset-xp-banner" },
  skyboxImageId: { list: "images", type: "headset-xp-skybox" },
  threeSixtyImageId: { list: "images", type: "three-sixty-background" },
  custom3DEnvironmentId: { list: "custom3DEnvironments" },
  themeId: { list: "themes" },
};

export function experienceDrift(
  kind: "headset" | "device",
  properties: PropertySpecs<ApiExperience>,
): DriftFacet {
  const mentions = new RegExp(`${kind}.?experience`, "i");
  return {
    title: kind === "headset" ? "Headset experiences" : "Device experiences",
    key: (r) => holderId(holderOf(r)),
    declaredOnly: true,
    reportsUnmanaged: false,
    stateLabel: (r) => {
      const holder = holderOf(r);
      return `${kind} experience of ${"groupId" in holder ? "group" : "device"} ${holderId(holder)}`;
    },
    references: (field, value) => referencesUnder(field, value, FIELD_SOURCES),
    labelReferences: (r) => {
      const holder = holderOf(r);
      return [{ id: holderId(holder), from: { list: "groupId" in holder ? "groups" : "devices" } }];
    },
    // Records name the group or device; of those, the ones about this kind of experience.
    concerns: (record) => mentions.test(`${record.action} ${record.description}`),
    read: async (org, managed) => {
      if (!managed.length) return [];
      const holders = managed.map(holderOf);
      const [groups, devices, experiences] = await Promise.all([
        org.groups(),
        org.devices(),
        kind === "headset" ? org.headsetExperiences(holders) : org.deviceExperiences(holders),
      ]);
      const paths = groupPaths(groups);
      const deviceById = new Map(devices.map((d) => [d.id, d]));
      const objects: LiveObject[] = [];
      for (const holder of holders) {
        const id = holderId(holder);
        if (!experiences.has(id)) continue; // a device now in a group: it shows its group's experience
        const device = deviceById.get(id);
        const owner =
          "groupId" in holder
            ? paths.has(id) && `group "${paths.get(id)}"`
            : device && `device "${device.name}" (${device.serialNumber})`;
        if (!owner) continue; // the group or device is gone
        // A 404 for an owner that exists: the API answers so until an experience is set (as the resource reads it).
        const live = experiences.get(id) ?? {
          id: null,
          mode: "device-default",
          createdAt: null,
          updatedAt: null,
        };
        const fields: Record<string, unknown> = liveStateOf(properties, live);
        objects.push({
          key: id,
          label: `${kind} experience of ${owner}: ${str(fields.mode)}`,
          fields,
          auditIds: [id],
          names: [owner],
        });
      }
      return objects;
    },
  };
}
