/**
 * The organization as the API reports it after the demo: the group tree with what each site's headsets show,
 * the people with their roles, the release channels on groups and on ungrouped devices, each site's headsets
 * with their tags, the version each channel ships, and the content the program uploaded with the checksums the API
 * computed from the bytes it received (the API lists no group's files or videos, so which site shows them is not
 * printed; it answers no checksum for images and 3D environments, and names no bundle on a channel). It is read through the provider's typed client (what a
 * user's own script would use), never from the emulator's memory, so the printout is evidence that the API
 * holds what the program declared. `readOrganization` does the requests; `formatOrganization` is pure.
 */
import { posix } from "node:path";
import type { AppBuild, DeviceMgmtClient, HeadsetExperience } from "../../provider/client";
import type { GroupHierarchyNode, ReleaseChannel } from "../../provider/client/schemas";

export interface GroupView {
  name: string;
  configured: boolean;
  /** "App / Channel" of each release channel attached to the group. */
  channels: string[];
  /** What the headsets of a configured group show, in words (absent: never configured). Never the PIN. */
  experience?: string;
  /** The headsets in the group, each with its tags: "Headset 02 (site-berlin)". */
  headsets?: string[];
  children: GroupView[];
}

export interface UserView {
  name: string;
  email: string;
  /** "Role@org" for the default role, "Role@Group name" for group roles (the notation of the tests). */
  roles: string[];
}

export interface DeviceChannelsView {
  device: string;
  channels: string[];
}

export interface OrganizationView {
  name: string;
  slug: string;
  groups: GroupView[];
  users: UserView[];
  /** Ungrouped devices with channels of their own (a grouped device gets its group's channels). */
  devices: DeviceChannelsView[];
  /** "App / Channel: version" of every release channel (what each channel ships). */
  channelVersions?: string[];
  /** The uploaded content, each with the checksum the API answers for it (images and environments: none). */
  uploaded?: string[];
}

/** What the program uploaded: the ids of examples/org's stack output `uploaded`. */
export interface UploadedIds {
  build?: string;
  video?: string;
  file?: string;
  image?: string;
  environment?: string;
  bundle?: string;
}

const channelName = (channel: ReleaseChannel) => `${channel.app.name} / ${channel.name}`;
const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);

/**
 * Reads the organization the client's token is scoped to; with `uploaded`, also those objects as the API answers
 * them now (an id the API no longer knows is said so, not skipped).
 */
export async function readOrganization(
  client: DeviceMgmtClient,
  uploaded?: UploadedIds,
): Promise<OrganizationView> {
  const [organization, hierarchy, users, devices] = await Promise.all([
    client.currentOrganization(),
    client.groups.hierarchy(),
    client.users.all(),
    client.devices.all(),
  ]);

  const groupNames = new Map<string, string>();
  const describe = await experienceDescriber(client);
  const toView = async (node: GroupHierarchyNode): Promise<GroupView> => {
    groupNames.set(node.id, node.name);
    const [channels, children, experience] = await Promise.all([
      client.groups.releaseChannels(node.id).all(),
      Promise.all((node.children ?? []).map(toView)),
      node.isConfigured ? client.headsetExperiences.get({ groupId: node.id }) : undefined,
    ]);
    const described = experience && (await describe(experience));
    const headsets = devices
      .filter((d) => d.group?.id === node.id)
      .map((d) => `${d.name}${d.tags.length ? ` (${[...d.tags].sort().join(", ")})` : ""}`)
      .sort();
    return {
      name: node.name,
      configured: node.isConfigured,
      ...(described ? { experience: described } : {}),
      ...(headsets.length ? { headsets } : {}),
      channels: channels.map(channelName).sort(),
      children: children.sort(byName),
    };
  };
  const groups = (await Promise.all(hierarchy.map(toView))).sort(byName);

  const ungrouped = devices.filter((d) => !d.group);
  const deviceChannels = await Promise.all(
    ungrouped.map(async (d) => ({
      device: d.name,
      channels: (await client.devices.releaseChannels(d.id).all()).map(channelName).sort(),
    })),
  );

  const channelVersions: string[] = [];
  const apps = await client.apps.all();
  for (const app of apps) {
    for (const channel of await client.apps.releaseChannels(app.id).all())
      channelVersions.push(`${channelName(channel)}: ${channel.version.version ?? channel.version.id}`);
  }

  return {
    name: organization.name,
    slug: organization.slug,
    groups,
    channelVersions: channelVersions.sort(),
    users: users
      .map((u) => ({
        name: `${u.firstName} ${u.lastName}`,
        email: u.email,
        roles: u.accessControls
          .map((ac) => {
            const target = ac.protectable.type === "organization" ? "org" : groupNames.get(ac.protectable.id);
            return `${ac.role.name}@${target ?? `${ac.protectable.type} ${ac.protectable.id}`}`;
          })
          .sort(),
      }))
      .sort((a, b) => a.email.localeCompare(b.email)),
    devices: deviceChannels
      .filter((d) => d.channels.length > 0)
      .sort((a, b) => a.device.localeCompare(b.device)),
    ...(uploaded ? { uploaded: await uploadedLines(client, apps, uploaded) } : {}),
  };
}

const checksum = (c: { algorithm: string; value: string } | undefined) =>
  c ? `${c.algorithm} ${c.value}` : "no checksum";

/**
 * The uploaded objects in words, with the checksum the API answers. A build is found among its app's versions
 * (the API has no single-version GET); files, videos, images, 3D environments and bundles are read by id (a
 * bundle with its data files, each with its checksum).
 */
async function uploadedLines(
  client: DeviceMgmtClient,
  apps: { id: string; name: string }[],
  ids: UploadedIds,
): Promise<string[]> {
  const lines: string[] = [];
  // Every build by id, with its app's name: the bundle's build is named by its app too.
  const builds = new Map<string, { app: string; build: AppBuild }>();
  if (ids.build || ids.bundle) {
    for (const app of apps)
      for (const build of await client.releases.versions(app.id).all())
        builds.set(build.id, { app: app.name, build });
  }
  if (ids.build) {
    const found = builds.get(ids.build);
    lines.push(
      found
        ? `build ${found.app} ${found.build.version ?? found.build.id} (${found.build.status ?? "status unknown"}): ${checksum(found.build.checksum)}`
        : `build ${ids.build}: not found in any app`,
    );
  }
  const missing = (error: unknown) => `not found (${error instanceof Error ? error.message : String(error)})`;
  if (ids.video) {
    const video = await client.videos.get(ids.video).catch((error: unknown) => missing(error));
    lines.push(
      typeof video === "string"
        ? `video ${ids.video}: ${video}`
        : `video "${video.name}" (${video.filename}, ${video.details?.videoType ?? "type unknown"}): ${checksum(video.checksum)}`,
    );
  }
  if (ids.file) {
    const file = await client.files.get(ids.file).catch((error: unknown) => missing(error));
    lines.push(
      typeof file === "string"
        ? `file ${ids.file}: ${file}`
        : `file ${posix.join(file.location ?? "", file.filename)}: ${checksum(file.checksum)}`,
    );
  }
  const size = (bytes: number | null | undefined) =>
    typeof bytes === "number" ? `${bytes} bytes` : "size unknown";
  if (ids.image) {
    const image = await client.images.get(ids.image).catch((error: unknown) => missing(error));
    lines.push(
      typeof image === "string"
        ? `image ${ids.image}: ${image}`
        : `image ${image.originalFileName ?? image.id} (type ${image.type}, ${image.mimeType ?? "type unknown"}, ` +
            `${size(image.sizeBytes)}, ${image.status ?? "status unknown"}): the API answers no checksum`,
    );
  }
  if (ids.environment) {
    const environment = await client.custom3DEnvironments
      .get(ids.environment)
      .catch((error: unknown) => missing(error));
    lines.push(
      typeof environment === "string"
        ? `3D environment ${ids.environment}: ${environment}`
        : `3D environment ${environment.objectName} (${size(environment.sizeBytes)}, ` +
            `${environment.status ?? "status unknown"}): the API answers no checksum`,
    );
  }
  if (ids.bundle) {
    const bundle = await client.appBundles.get(ids.bundle).catch((error: unknown) => missing(error));
    if (typeof bundle === "string") lines.push(`bundle ${ids.bundle}: ${bundle}`);
    else {
      const build = bundle.appBuild;
      const app = (build && builds.get(build.id)?.app) ?? "an app";
      lines.push(
        `bundle ${bundle.label === null || bundle.label === undefined ? "(no label)" : `"${bundle.label}"`} of ` +
          `${app} ${build?.version ?? build?.id ?? "(no build)"} (${bundle.status ?? "status unknown"}), with:`,
      );
      for (const file of await client.appBundles.files(bundle.id).all())
        for (const at of file.bundlePaths.length > 0
          ? file.bundlePaths
          : [posix.join(file.location, file.name)])
          lines.push(`  ${at}: ${checksum(file.checksum)}`);
    }
  }
  return lines;
}

/** The tree indented two spaces a level; configured groups (sites) and their channels marked. */
export function groupTreeLines(groups: GroupView[], depth = 0): string[] {
  return groups.flatMap((g) => {
    const marks = [
      g.configured ? "configured" : "",
      ...g.channels.map((c) => `channel ${c}`),
      g.headsets?.length ? `headsets ${g.headsets.join(", ")}` : "",
      g.experience ?? "",
    ].filter(Boolean);
    const line = `${"  ".repeat(depth + 1)}${g.name}${marks.length > 0 ? `  [${marks.join("; ")}]` : ""}`;
    return [line, ...groupTreeLines(g.children, depth + 1)];
  });
}

export function formatOrganization(org: OrganizationView): string[] {
  const emailWidth = Math.max(0, ...org.users.map((u) => u.email.length));
  return [
    `Organization ${org.name} (${org.slug}), as the API now reports it:`,
    "Groups:",
    ...(org.groups.length > 0 ? groupTreeLines(org.groups) : ["  (none)"]),
    "Users and roles:",
    ...org.users.map(
      (u) => `  ${u.email.padEnd(emailWidth)}  ${u.name}: ${u.roles.join(", ") || "(no role)"}`,
    ),
    "Release channels on ungrouped devices:",
    ...(org.devices.length > 0
      ? org.devices.map((d) => `  ${d.device}: ${d.channels.join(", ")}`)
      : ["  (none)"]),
    ...(org.channelVersions
      ? ["What each release channel ships:", ...org.channelVersions.map((line) => `  ${line}`)]
      : []),
    ...(org.uploaded
      ? [
          "Content the program uploaded, with the checksums the API computed:",
          ...org.uploaded.map((line) => `  ${line}`),
        ]
      : []),
  ];
}

/**
 * A headset experience in a reader's words, its ids named: "kiosk Warehouse Picker (icon acme-menu-icon.png,
 * background 360° warehouse-floor-360.jpg), admin PIN set" or "home menu \"Austin Training\" (3 items, theme Acme
 * Brand, icon …, background 3D environment …)". Undefined when nobody configured it.
 */
async function experienceDescriber(client: DeviceMgmtClient) {
  const [apps, videos, themes, environments] = await Promise.all([
    client.apps.all(),
    client.videos.all(),
    client.themes.all(),
    client.custom3DEnvironments.all(),
  ]);
  const names = new Map<string, string>([
    ...apps.map((a) => [a.id, a.name] as [string, string]),
    ...videos.map((v) => [v.id, v.name] as [string, string]),
    ...themes.map((t) => [t.id, `theme ${t.name}`] as [string, string]),
    ...environments.map((e) => [e.id, `3D environment ${e.objectName}`] as [string, string]),
  ]);
  const named = (id: string | null | undefined) => (id ? (names.get(id) ?? id) : "nothing");
  // Images are listed one type at a time: each one shown is read by id instead.
  const image = async (id: string) =>
    (await client.images.get(id).catch(() => undefined))?.originalFileName ?? id;
  const looks = async (x: HeadsetExperience): Promise<string[]> => {
    const background = x.background;
    const backdrop =
      background?.type === "custom-3d-environment" && background.custom3DEnvironmentId
        ? `background ${named(background.custom3DEnvironmentId)}`
        : background?.type === "360-background" && background.threeSixtyImageId
          ? `background 360° ${await image(background.threeSixtyImageId)}`
          : background
            ? `background ${background.type}`
            : "";
    return [x.menuIconImageId ? `icon ${await image(x.menuIconImageId)}` : "", backdrop].filter(Boolean);
  };
  return async (x: HeadsetExperience): Promise<string | undefined> => {
    if (x.id === null) return undefined;
    const pin = typeof x.adminPin === "string" ? ", admin PIN set" : "";
    const shown = await looks(x);
    if (x.mode === "arborxr-kiosk")
      return `kiosk ${named(x.kioskContent?.id)}${shown.length ? ` (${shown.join(", ")})` : ""}${pin}`;
    if (x.mode === "arborxr-home") {
      const items = x.visibleContents?.length ?? 0;
      return `home menu "${x.menuTitle}" (${[`${items} items`, named(x.themeId), ...shown].join(", ")})${pin}`;
    }
    return `headset experience ${x.mode}`;
  };
}
