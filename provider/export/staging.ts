/**
 * Staging against an organization that already holds some of the objects: reads the TARGET organization and
 * decides, for every resource the exported program declares, whether the staging stack adopts an object that
 * exists there (and keeps it on `destroy`) or creates a new one (and deletes it on `destroy`).
 *
 * Matching is by what the target organization cannot hold twice, or what the program would collide with:
 * - users by e-mail (case-insensitive): the API refuses a second user with the same address;
 * - groups by their name path from the root (a same-named group under the same parent);
 * - files by name and folder, adopted only with the same SHA-512 (content.ts downloads their bytes);
 * - videos by file name and SHA-512 (another video of that name is another video: a new one is uploaded);
 * - app builds by app name and SHA-256 (what an AppVersion's create takes over);
 * - custom 3D environments by file name (the API answers no checksum for them);
 * - release-channel attachments by owner and channel: a matched group (or a device of the same name) that
 *   already has the channel of that app and name attached, as `<ownerId>/<releaseChannelId>`.
 * Nothing is adopted silently: the ids go to the staging stack's config file, where a reviewer sees them, and
 * each adopted object is listed (stdout and the generated README) with what `destroy` then does.
 */
import type { DeviceMgmtClient } from "../client";
import { KINDS, type KindType } from "../kinds";
import { groupTree, type ChannelRef } from "./model";
import { compareText } from "./order";
import type { ProgramPlan } from "./naming";
import type { PlannedContentLookup } from "./devicePlan";

export type StagingOutcome = "adopt" | "create";

export interface StagingObject {
  resourceName: string;
  kind: KindType;
  /** How a person names it: a group's path, a user's e-mail, "channel on owner". */
  label: string;
  outcome: StagingOutcome;
  /** The id adopted in the target (adopt only). */
  targetId?: string;
  /** What adopting changes on the existing object, or why it matters (e.g. the staging token's own user). */
  notes: string[];
}

export interface StagingMatch {
  /** The stack whose config file gets the adoption ids (default "staging"). */
  stack: string;
  baseUrl: string;
  organization: { id: string; name: string; slug: string };
  objects: StagingObject[];
  /** What the program looks up by name that the target lacks (or holds twice): `up` fails on each. */
  lacks: string[];
  /** Resource names of declared devices whose serial number the target has not enrolled: not placed there. */
  absentDevices: string[];
}

const pathKey = (path: string[]) => path.join("\u0000");
const channelLabel = (c: ChannelRef) => `"${c.appName} / ${c.channelName}"`;

/** Reads the target organization and matches the plan's declared resources against it. */
export async function matchTarget(
  plan: ProgramPlan,
  target: DeviceMgmtClient,
  options: { stack: string; baseUrl: string },
): Promise<StagingMatch> {
  const [organization, caller] = await Promise.all([target.currentOrganization(), target.currentUser()]);
  const objects: StagingObject[] = [];

  // Groups by path. Same-named siblings in the target make a path ambiguous: those are not adopted (the
  // create then fails and says so, rather than taking one of them at random).
  const targetGroups = (await target.groups.all()).map((g) => ({
    id: g.id,
    name: g.name,
    parentId: g.parent?.id ?? null,
    configured: g.isConfigured,
  }));
  const targetTree = groupTree(targetGroups);
  const byPath = new Map<string, (typeof targetTree)[number][]>();
  for (const g of targetTree) byPath.set(pathKey(g.path), [...(byPath.get(pathKey(g.path)) ?? []), g]);
  const targetGroupOf = new Map<string, string>(); // source group id → target group id
  if (plan.declaresGroups) {
    for (const planned of plan.groups) {
      const matches = byPath.get(pathKey(planned.group.path)) ?? [];
      const label = planned.group.path.join(" > ");
      const notes: string[] = [];
      // A program that numbers same-named siblings (sameNameOrdinal) adopts the target's one group of that path
      // as copy 1 only; the other copies are created beside it, never adopted twice.
      const laterCopy = (planned.sameNameOrdinal ?? 1) > 1;
      if (matches.length === 1 && !laterCopy) {
        const match = matches[0];
        targetGroupOf.set(planned.group.id, match.id);
        if (planned.group.configured && !match.configured) {
          notes.push(
            "it is not configured there: the first `up` configures it, and configuring is irreversible",
          );
        }
        if (!planned.group.configured && match.configured) {
          notes.push(
            "it is configured there but not in the program: the Group resource will refuse the change",
          );
        }
        objects.push({
          resourceName: planned.resourceName!,
          kind: "Group",
          label,
          outcome: "adopt",
          targetId: match.id,
          notes,
        });
      } else {
        if (matches.length > 1) {
          notes.push(
            `${matches.length} groups have this path there: none is adopted, so the create will fail`,
          );
        } else if (matches.length === 1) {
          notes.push(
            `copy ${planned.sameNameOrdinal} of this name: the one group of this path there is adopted as copy 1`,
          );
        }
        objects.push({ resourceName: planned.resourceName!, kind: "Group", label, outcome: "create", notes });
      }
    }
  } else {
    // Looked-up groups are found by name in the target; attachments on them can still be matched.
    for (const planned of plan.groups) {
      const matches = byPath.get(pathKey(planned.group.path)) ?? [];
      if (matches.length === 1) targetGroupOf.set(planned.group.id, matches[0].id);
    }
  }

  if (plan.users.length) {
    const targetUsers = await target.users.all();
    const byEmail = new Map(targetUsers.map((u) => [u.email.toLowerCase(), u]));
    for (const planned of plan.users) {
      const match = byEmail.get(planned.user.email.toLowerCase());
      const notes: string[] = [];
      if (match) {
        if (match.id === caller.id) {
          notes.push(
            "the staging token's own user: the program sets its roles, so keep them enough for the token to work",
          );
        }
        const orgRole = match.accessControls.find((ac) => ac.protectable.type === "organization")?.role.name;
        if (orgRole && orgRole !== planned.user.defaultRole.name) {
          notes.push(`its default role changes from "${orgRole}" to "${planned.user.defaultRole.name}"`);
        }
        if (match.firstName !== planned.user.firstName || match.lastName !== planned.user.lastName) {
          notes.push(
            `its name changes from "${match.firstName} ${match.lastName}" to "${planned.user.firstName} ${planned.user.lastName}"`,
          );
        }
        notes.push(
          "its group roles become the program's, and stay so after `destroy` (minus deleted groups)",
        );
      }
      objects.push({
        resourceName: planned.resourceName,
        kind: "User",
        label: planned.user.email,
        outcome: match ? "adopt" : "create",
        ...(match ? { targetId: match.id } : {}),
        notes,
      });
    }
  }

  const attachedTo = async (list: AsyncIterable<{ id: string; name: string; app: { name: string } }>) => {
    const found: { id: string; ref: ChannelRef }[] = [];
    for await (const rc of list)
      found.push({ id: rc.id, ref: { appName: rc.app.name, channelName: rc.name } });
    return found;
  };
  const sameChannel = (a: ChannelRef, b: ChannelRef) =>
    a.appName === b.appName && a.channelName === b.channelName;
  const sourceGroup = new Map(plan.groups.map((g) => [g.group.id, g.group]));

  const groupChannelsOf = new Map<string, Promise<{ id: string; ref: ChannelRef }[]>>();
  for (const a of plan.groupChannels) {
    const group = sourceGroup.get(a.groupId)!;
    const label = `${channelLabel(a.channel)} on group ${group.path.join(" > ")}`;
    const targetGroupId = targetGroupOf.get(a.groupId);
    let match: { id: string } | undefined;
    if (targetGroupId) {
      if (!groupChannelsOf.has(targetGroupId)) {
        groupChannelsOf.set(targetGroupId, attachedTo(target.groups.releaseChannels(targetGroupId)));
      }
      match = (await groupChannelsOf.get(targetGroupId)!).find((c) => sameChannel(c.ref, a.channel));
    }
    objects.push({
      resourceName: a.resourceName,
      kind: "GroupReleaseChannel",
      label,
      outcome: match ? "adopt" : "create",
      ...(match ? { targetId: `${targetGroupId}/${match.id}` } : {}),
      notes: [],
    });
  }

  if (plan.devices.some((d) => d.channels.length)) {
    const devices = await target.devices.all();
    for (const d of plan.devices) {
      const named = devices.filter((device) => device.name === d.deviceName);
      const device = named.length === 1 ? named[0] : undefined;
      const attached = device ? await attachedTo(target.devices.releaseChannels(device.id)) : [];
      for (const a of d.channels) {
        const match = attached.find((c) => sameChannel(c.ref, a.channel));
        objects.push({
          resourceName: a.resourceName,
          kind: "DeviceReleaseChannel",
          label: `${channelLabel(a.channel)} on device "${d.deviceName}"`,
          outcome: match ? "adopt" : "create",
          ...(match && device ? { targetId: `${device.id}/${match.id}` } : {}),
          notes: [],
        });
      }
    }
  }

  const lacks: string[] = [];
  // Files by name and folder (the File kind's natural key): one with the same SHA-512 is adopted; one with
  // other bytes cannot be (adoptId takes over only the declared content), so the create fails and says so.
  if (plan.uploaded.some((c) => c.content.type === "file")) {
    const files = await target.files.all();
    for (const c of plan.uploaded.filter((u) => u.content.type === "file")) {
      const there = files.filter(
        (f) => f.filename === c.content.name && (f.location ?? null) === c.content.path,
      );
      const same = there.filter(
        (f) => f.checksum.value.toLowerCase() === c.content.checksum?.value.toLowerCase(),
      );
      objects.push({
        resourceName: c.resourceName,
        kind: "File",
        label: `file "${c.content.name}" in ${c.content.path ?? "(no folder)"}`,
        outcome: same.length === 1 ? "adopt" : "create",
        ...(same.length === 1 ? { targetId: same[0].id } : {}),
        notes:
          same.length === 1
            ? ["it holds the same bytes (SHA-512)"]
            : there.length
              ? ["a file of this name with other bytes is there, so up refuses to create this one beside it"]
              : [],
      });
    }
  }
  // Videos by file name and SHA-512 (what the Video kind adopts by): one with other bytes is another video, so
  // the staging stack uploads its own beside it.
  if (plan.uploaded.some((c) => c.content.type === "video")) {
    const videos = await target.videos.all();
    for (const c of plan.uploaded.filter((u) => u.content.type === "video")) {
      const same = videos.filter(
        (v) =>
          v.filename === c.content.name &&
          v.checksum.value.toLowerCase() === c.content.checksum?.value.toLowerCase(),
      );
      objects.push({
        resourceName: c.resourceName,
        kind: "Video",
        label: `video "${c.content.name}"`,
        outcome: same.length === 1 ? "adopt" : "create",
        ...(same.length === 1 ? { targetId: same[0].id } : {}),
        notes:
          same.length === 1
            ? ["it holds the same bytes (SHA-512); up sets its name, description and rendering as declared"]
            : [],
      });
    }
  }
  // Builds by app name and SHA-256 (what an AppVersion's create takes over); the API cannot delete a build, so
  // destroy forgets one either way.
  if (plan.uploaded.some((c) => c.content.type === "appVersion")) {
    const apps = await target.apps.all();
    for (const c of plan.uploaded.filter((u) => u.content.type === "appVersion")) {
      const appName = String(c.content.properties?.appName);
      const app = apps.filter((a) => a.name === appName);
      const same =
        app.length === 1 && c.content.checksum
          ? await target.releases.versions(app[0].id, [c.content.checksum.value]).all()
          : [];
      objects.push({
        resourceName: c.resourceName,
        kind: "AppVersion",
        label: `build "${String(c.content.properties?.versionName)}" of app "${appName}"`,
        outcome: same.length === 1 ? "adopt" : "create",
        ...(same.length === 1 ? { targetId: same[0].id } : {}),
        notes: [
          ...(same.length === 1 ? ["it holds the same bytes (SHA-256)"] : []),
          "the API cannot delete builds: destroy forgets it",
        ],
      });
    }
  }
  // Environments by file name (what Custom3DEnvironment's adoptId takes: the API answers no checksum to compare).
  if (plan.uploaded.some((c) => c.content.type === "custom3DEnvironment")) {
    const environments = await target.custom3DEnvironments.all();
    for (const c of plan.uploaded.filter((u) => u.content.type === "custom3DEnvironment")) {
      const same = environments.filter((e) => e.objectName === c.content.name);
      objects.push({
        resourceName: c.resourceName,
        kind: "Custom3DEnvironment",
        label: `custom 3D environment "${c.content.name}"`,
        outcome: same.length === 1 ? "adopt" : "create",
        ...(same.length === 1 ? { targetId: same[0].id } : {}),
        notes: [
          ...(same.length === 1
            ? ["same file name (the API answers no checksum to compare the content)"]
            : []),
          "the API cannot delete environments: destroy forgets it",
        ],
      });
    }
  }
  const content = plan.content;
  if (content.themes.length || content.experiences.length) {
    const themes = await target.themes.all();
    for (const t of content.themes) {
      const named = themes.filter((theme) => !theme.isSystemOwned && theme.name === t.theme.colors.name);
      objects.push({
        resourceName: t.resourceName,
        kind: "Theme",
        label: `theme "${t.theme.colors.name}"`,
        outcome: named.length === 1 ? "adopt" : "create",
        ...(named.length === 1 ? { targetId: named[0].id } : {}),
        notes: named.length === 1 ? ["its colours become the program's"] : [],
      });
    }
    lacks.push(...(await lookupsLacking(plan, target, themes)));
    for (const x of content.experiences) {
      objects.push({
        resourceName: x.resourceName,
        kind: x.experience.kind === "headset" ? "HeadsetExperience" : "DeviceExperience",
        label: `${x.experience.kind} experience of ${x.ownerLabel}`,
        outcome: "create",
        notes: [
          "replaces the experience it has there; `destroy` leaves the program's in place (the API has no delete)",
        ],
      });
    }
  }

  const placement = plan.placement;
  if (placement.tags.length) {
    const byName = new Map((await target.tags.all()).map((t) => [t.name.toLowerCase(), t]));
    for (const t of placement.tags) {
      const match = byName.get(t.tag.name.toLowerCase());
      objects.push({
        resourceName: t.resourceName,
        kind: "Tag",
        label: `tag "${t.tag.name}"`,
        outcome: match ? "adopt" : "create",
        ...(match ? { targetId: match.id } : {}),
        notes:
          match && match.name !== t.tag.name
            ? [`it is spelt "${match.name}" there: adopting renames it`]
            : [],
      });
    }
  }
  // Devices are never migrated by the export: a device is placed only where its serial number is enrolled.
  const absentDevices: string[] = [];
  if (placement.devices.length) {
    const serials = new Set((await target.devices.all()).map((d) => d.serialNumber.toLowerCase()));
    for (const d of placement.devices) {
      if (serials.has(d.device.serialNumber.toLowerCase())) {
        objects.push({
          resourceName: d.resourceName,
          kind: "Device",
          label: `device ${d.device.serialNumber} ("${d.device.name}")`,
          outcome: "adopt",
          notes: [
            "the same serial number is enrolled there: its name, group, tags and custom fields become the program's",
          ],
        });
      } else {
        absentDevices.push(d.resourceName);
      }
    }
  }
  if (placement.contentLookups.length) {
    // Each kind's own lookup names (its definition's `namesLookedUp`), read once per kind looked up.
    const types = [...new Set(placement.contentLookups.map((l) => l.type))];
    const names = new Map(
      await Promise.all(types.map(async (type) => [type, await namesLookedUp(type, target)] as const)),
    );
    for (const l of placement.contentLookups) {
      const count = (names.get(l.type) ?? []).filter((n) => n === l.name).length;
      if (count !== 1) lacks.push(`the ${l.type} "${l.name}"${count ? ` (${count} of that name)` : ""}`);
    }
  }
  for (const t of placement.tagSets) {
    objects.push({
      resourceName: t.resourceName,
      kind: "TagSet",
      label: `the tags of ${t.tagSet.ownerType} "${t.tagSet.ownerName}"`,
      outcome: "create",
      notes: ["attaches the declared tags; `destroy` removes them from it"],
    });
  }
  for (const c of placement.deviceContent) {
    objects.push({
      resourceName: c.resourceName,
      kind: c.content.type === "file" ? "DeviceFile" : "DeviceVideo",
      label: `${c.content.type} "${c.content.contentName}" on device "${c.content.deviceName}"`,
      outcome: "create",
      notes: [],
    });
  }
  if (placement.channelVersions.length) {
    const apps = await target.apps.all();
    for (const v of placement.channelVersions) {
      if (v.declaredBuild) continue; // the program uploads it: nothing to find in the target
      const what = `the version "${v.channelVersion.version}" of app "${v.channelVersion.appName}" (getAppVersion)`;
      const app = apps.filter((a) => a.name === v.channelVersion.appName);
      if (app.length !== 1) continue; // the channel lookup of this app is listed as lacking already
      const versions = await target.releases.versions(app[0].id).all();
      if (versions.filter((x) => x.version === v.channelVersion.version).length !== 1) lacks.push(what);
    }
  }

  return {
    lacks,
    absentDevices,
    stack: options.stack,
    baseUrl: options.baseUrl,
    organization: { id: organization.id, name: organization.name, slug: organization.slug },
    objects: objects.sort((a, b) => compareText(a.outcome, b.outcome) || 0),
  };
}

/** The staging stack's adoption map, in program order. */
export function stagingAdopt(match: StagingMatch): [string, string][] {
  // A Device is adopted by its serial number, which the program holds: it has no id in the adopt map.
  return match.objects.flatMap((o) =>
    o.outcome === "adopt" && o.targetId !== undefined ? [[o.resourceName, o.targetId]] : [],
  );
}

/** One line per lookup of the program's content that would fail in the target: none or several of that name. */
async function lookupsLacking(
  plan: ProgramPlan,
  target: DeviceMgmtClient,
  themes: { name: string; isSystemOwned: boolean }[],
): Promise<string[]> {
  const refs = plan.content.lookups.map((l) => l.ref);
  if (!refs.length) return [];
  const kinds = new Set(refs.map((r) => r.kind));
  const [apps, videos, environments] = await Promise.all([
    kinds.has("app") ? target.apps.all() : [],
    kinds.has("video") ? target.videos.all() : [],
    kinds.has("environment") ? target.custom3DEnvironments.all() : [],
  ]);
  const imagesOfType = new Map<string, Promise<{ originalFileName: string | null }[]>>();
  const lines: string[] = [];
  for (const ref of refs) {
    let found: number;
    let what: string;
    if (ref.kind === "app") {
      found = apps.filter((a) => a.name === ref.name).length;
      what = `app "${ref.name}" (getApp)`;
    } else if (ref.kind === "video") {
      found = videos.filter((v) => v.name === ref.name).length;
      what = `video "${ref.name}" (getVideo)`;
    } else if (ref.kind === "environment") {
      found = environments.filter((e) => e.objectName === ref.name).length;
      what = `custom 3D environment "${ref.name}" (getCustom3DEnvironment)`;
    } else if (ref.kind === "theme") {
      found = themes.filter((t) => t.name === ref.name && t.isSystemOwned === ref.systemOwned).length;
      what = `${ref.systemOwned ? "system" : "custom"} theme "${ref.name}" (getTheme)`;
    } else {
      if (!imagesOfType.has(ref.type)) imagesOfType.set(ref.type, target.images.all(ref.type));
      found = (await imagesOfType.get(ref.type)!).filter((i) => i.originalFileName === ref.name).length;
      what = `image "${ref.name}" of type ${ref.type} (getImage)`;
    }
    if (found !== 1) lines.push(found ? `${found} objects are named as the ${what}` : `the ${what}`);
  }
  return lines;
}

/** The names a generated program's lookup of `type` by name finds objects by in `client`'s organization. */
function namesLookedUp(type: PlannedContentLookup["type"], client: DeviceMgmtClient): Promise<string[]> {
  const lookUp = KINDS[type].namesLookedUp;
  if (lookUp === undefined) throw new Error(`${KINDS[type].type} declares no names its lookup finds by`);
  return lookUp(client);
}
