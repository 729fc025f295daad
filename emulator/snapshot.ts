/** Plain-JSON view of one organization's mutable state, for test assertions (not an API shape). */
import type { OrgState } from "./store";
import type { OrgSnapshot } from "./types";
import { THEME_COLORS } from "./experienceModel";

export function snapshotOf(org: OrgState): OrgSnapshot {
  const groups = [...org.groups.list()].reverse();
  return {
    organization: { id: org.org.id, slug: org.org.slug, name: org.org.name },
    users: [...org.users.list()].reverse().map((user) => {
      const defaultRole = user.accessControls.find((c) => c.protectable.type === "organization");
      return {
        id: user.id,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        defaultRoleId: defaultRole?.roleId ?? null,
        groupRoles: user.accessControls
          .filter((c) => c.protectable.type === "group")
          .map((c) => ({ roleId: c.roleId, groupId: c.protectable.id })),
        accessControls: user.accessControls.map((c) => ({
          id: c.id,
          roleId: c.roleId,
          roleName: org.roles.get(c.roleId)?.name ?? "",
          protectable: { ...c.protectable },
        })),
      };
    }),
    groups: groups.map((group) => ({
      id: group.id,
      name: group.name,
      parentId: group.parentId,
      isConfigured: group.isConfigured,
      releaseChannelIds: group.releaseChannels.map((a) => a.id),
      fileIds: group.files.map((a) => a.id),
      videoIds: group.videos.map((a) => a.id),
      tags: [...(group.tags ?? [])],
    })),
    groupReleaseChannels: groups.flatMap((group) =>
      group.releaseChannels.map((a) => ({ groupId: group.id, releaseChannelId: a.id })),
    ),
    devices: [...org.devices.list()].reverse().map((device) => ({
      id: device.id,
      name: device.name,
      serialNumber: device.serialNumber,
      groupId: device.groupId,
      tags: [...device.tags],
      releaseChannelIds: device.releaseChannels.map((a) => a.id),
      fileIds: device.files.map((a) => a.id),
      videoIds: device.videos.map((a) => a.id),
      customFields: device.telemetry.customFields.map((f) => ({ ...f })),
    })),
    tags: [...org.tags.list()].reverse().map((t) => ({ id: t.id, name: t.name })),
    releaseChannels: [...org.releaseChannels.list()].reverse().map((c) => ({
      id: c.id,
      appId: c.appId,
      name: c.name,
      versionId: c.build.id,
      version: c.build.version,
      bundleId: c.bundleId,
      sharedWithOrgIds: [...c.sharedWithOrgIds],
    })),
    experiences: [...org.experiences.values()].map((e) => ({
      kind: e.kind,
      holder: { ...e.holder },
      mode: e.mode,
      settings: structuredClone(e.settings),
      joinedGroupAt: e.joinedGroupAt ?? null,
    })),
    themes: [...org.themes.list()]
      .reverse()
      .filter((t) => !t.isSystemOwned)
      .map((t) => ({
        id: t.id,
        name: t.name,
        colors: Object.fromEntries(THEME_COLORS.map((c) => [c, t[c]])),
      })),
    apps: [...org.apps.values()].map((a) => ({
      id: a.id,
      name: a.name,
      description: a.description ?? null,
      tags: [...a.tags],
      deviceModelIds: [...a.deviceModelIds],
    })),
    files: [...org.files.values()].map((f) => ({
      id: f.id,
      filename: f.filename,
      location: f.location,
      sha512: f.checksum.value.toLowerCase(),
    })),
    videos: [...org.videos.values()].map((v) => ({
      id: v.id,
      name: v.name,
      filename: v.filename,
      sha512: v.checksum.value.toLowerCase(),
    })),
    appBundles: [...org.appBundles.values()].map((b) => ({
      id: b.id,
      appId: b.appId,
      versionId: b.versionId,
      label: b.label,
      // As stored (under slowBundleProcessing a finalized bundle stays "processing" here; the API reads the clock).
      status: b.status ?? "available",
      files: (b.files ?? []).map((f) => ({ ...f })),
    })),
    images: [...org.images.values()]
      .filter((i) => !i.isSystemOwned)
      .map((i) => ({
        id: i.id,
        originalFileName: i.originalFileName,
        type: i.type,
        status: i.status,
        sizeBytes: i.sizeBytes,
      })),
    custom3DEnvironments: [...org.custom3DEnvironments.values()].map((e) => ({
      id: e.id,
      objectName: e.objectName,
      status: e.status,
      sizeBytes: e.sizeBytes,
    })),
  };
}
