/**
 * What the headsets show, read for the export: the organization's custom themes, and the headset and device
 * experiences of configured groups and ungrouped devices, in the resources' declared form
 * (kinds/experience/fields.ts) with every id they refer to named, so the program can look it up by name in
 * another organization.
 *
 * Decisions:
 * - An experience nobody configured (the GET answers `id: null`: the device's default home) is not exported:
 *   there is nothing to declare, and declaring it would make a staging copy write what it already shows.
 * - System themes and images are the service's: looked up by name, never declared. Custom themes are the
 *   organization's own: declared (`new dm.Theme`, adopted by id) when themes are exported, else looked up.
 * - The admin PIN is never read into the model: only whether the API showed one ("shown"), answered none
 *   ("unknown": some APIs withhold PINs, so none may still mean one), or the mode takes none ("none").
 * - An experience referring to something no lookup can single out (an unmanaged app, a WebXR link, a name two
 *   objects share, an object the token cannot see) is left out with a sentence saying why, never exported wrong.
 */
import type { DeviceMgmtClient, ImageType, Theme, ThemeBody } from "../client";
import { liveStateOf } from "../framework";
import {
  DEVICE_FIELDS,
  HEADSET_FIELDS,
  declaredFormOf,
  fieldsOfMode,
  type ModeFields,
} from "../kinds/experience/fields";
import { themeProperties } from "../kinds/theme/properties";
import { contentKey } from "./content";
import { compareBy } from "./order";

export type ExperienceRef =
  | { kind: "app"; name: string }
  /** `videoId`: the program refers to the declared Video where the export declares it (content.ts). */
  | { kind: "video"; name: string; videoId: string }
  | { kind: "image"; name: string; type: ImageType }
  /** `environmentId`: the program refers to the declared Custom3DEnvironment where the export declares it. */
  | { kind: "environment"; name: string; environmentId: string }
  /** `themeId` set for a custom theme (declared when themes are exported); system themes by name only. */
  | { kind: "theme"; name: string; systemOwned: boolean; themeId: string };

export interface ModelTheme {
  id: string;
  colors: ThemeBody;
}

export type ExperienceKindName = "headset" | "device";

export interface ModelExperience {
  kind: ExperienceKindName;
  owner: { groupId: string } | { deviceId: string; deviceName: string };
  /** The declared form: `mode` and that mode's fields, ids lowercased; never the PIN. */
  fields: Record<string, unknown>;
  pin: "shown" | "unknown" | "none";
  /** Every id the fields refer to (lowercased) → what it is, by name. */
  refs: Record<string, ExperienceRef>;
}

/** Where an experience field refers to an image, the image's type. */
const IMAGE_FIELDS: Record<string, ImageType> = {
  menuIconImageId: "headset-xp-menu-icon",
  bannerImageId: "headset-xp-banner",
  skyboxImageId: "headset-xp-skybox",
  threeSixtyImageId: "three-sixty-background",
};

/** The type the API gives an uploaded image (kinds/image: the upload takes none). */
const UPLOADED: ImageType = "unknown";

/** Names per id of everything an experience can refer to, with how many objects share each name. */
interface Catalog {
  resolve(field: string, value: unknown): ExperienceRef | string;
}

async function readCatalog(
  client: DeviceMgmtClient,
  themes: Theme[],
  declared: ReadonlySet<string>,
): Promise<Catalog> {
  const [apps, videos, environments, ...imageLists] = await Promise.all([
    client.apps.all(),
    client.videos.all(),
    client.custom3DEnvironments.all(),
    ...[...Object.values(IMAGE_FIELDS), UPLOADED].map((type) => client.images.all(type)),
  ]);
  const images = imageLists.flat();
  const count = <T>(items: T[], key: (item: T) => string | null | undefined) => {
    const counts = new Map<string, number>();
    for (const item of items) {
      const k = key(item);
      if (k) counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    return counts;
  };
  const appNames = count(apps, (a) => a.name);
  const videoNames = count(videos, (v) => v.name);
  const environmentNames = count(environments, (e) => e.objectName);
  const imageNames = count(images, (i) =>
    i.originalFileName ? `${i.type}\u0000${i.originalFileName}` : null,
  );
  const themeNames = count(themes, (t) => `${t.isSystemOwned}\u0000${t.name}`);
  const byId = <T extends { id: string }>(items: T[]) => new Map(items.map((i) => [i.id.toLowerCase(), i]));
  const [appById, videoById, environmentById, imageById, themeById] = [
    byId(apps),
    byId(videos),
    byId(environments),
    byId(images),
    byId(themes),
  ];
  const unique = (what: string, name: string, counts: Map<string, number>, key = name) =>
    counts.get(key) === 1 ? undefined : `${counts.get(key)} ${what} are named "${name}"`;

  return {
    resolve(field, value) {
      const id = String(value).toLowerCase();
      if (field === "content") {
        const content = value as { type: string; id: string };
        const contentId = content.id.toLowerCase();
        if (content.type === "app") {
          const app = appById.get(contentId);
          if (!app) return `app ${contentId} is not among the organization's apps`;
          return unique("apps", app.name, appNames) ?? { kind: "app", name: app.name };
        }
        if (content.type === "video") {
          const video = videoById.get(contentId);
          if (!video) return `video ${contentId} is not among the organization's videos`;
          const ref = { kind: "video" as const, name: video.name, videoId: video.id };
          // A declared video is referred to by its resource: a name other videos share does not matter then.
          if (declared.has(contentKey("video", video.id))) return ref;
          return unique("videos", video.name, videoNames) ?? ref;
        }
        return `it shows ${content.type} ${contentId}, which has no lookup by name`;
      }
      if (field in IMAGE_FIELDS) {
        const image = imageById.get(id);
        // An uploaded image is `unknown` (the upload takes no type) and a slot may show it (as the experience's
        // check reads it: the API decides): it is looked up under its own type.
        const type = image?.type === UPLOADED ? UPLOADED : IMAGE_FIELDS[field];
        if (!image || image.type !== type || !image.originalFileName) {
          return `${field} ${id} is no named image of type ${type}`;
        }
        const name = image.originalFileName;
        return (
          unique(`images of type ${type}`, name, imageNames, `${type}\u0000${name}`) ?? {
            kind: "image",
            name,
            type,
          }
        );
      }
      if (field === "custom3DEnvironmentId") {
        const environment = environmentById.get(id);
        if (!environment) return `custom 3D environment ${id} is not among the organization's`;
        const ref = {
          kind: "environment" as const,
          name: environment.objectName,
          environmentId: environment.id,
        };
        if (declared.has(contentKey("custom3DEnvironment", environment.id))) return ref;
        return unique("custom 3D environments", environment.objectName, environmentNames) ?? ref;
      }
      if (field === "themeId") {
        const theme = themeById.get(id);
        if (!theme) return `theme ${id} is not among the organization's themes`;
        return (
          unique(
            theme.isSystemOwned ? "system themes" : "custom themes",
            theme.name,
            themeNames,
            `${theme.isSystemOwned}\u0000${theme.name}`,
          ) ?? { kind: "theme", name: theme.name, systemOwned: theme.isSystemOwned, themeId: theme.id }
        );
      }
      return `${field} has no lookup by name`;
    },
  };
}

/** The ids in a declared form, with the field that says what each is. */
function referencesOf(fields: Record<string, unknown>): { field: string; value: unknown; id: string }[] {
  const found: { field: string; value: unknown; id: string }[] = [];
  const content = (c: unknown) => {
    const item = c as { type: string; id: string };
    found.push({ field: "content", value: item, id: item.id.toLowerCase() });
  };
  for (const [field, value] of Object.entries(fields)) {
    if (field === "visibleContents") (value as unknown[]).forEach(content);
    else if (field === "kioskContent" || field === "launcherContent") content(value);
    else if (field === "menuIconImageId" || field === "themeId")
      found.push({ field, value, id: String(value) });
    else if (field === "background") {
      for (const [key, id] of Object.entries(value as Record<string, unknown>)) {
        if (key !== "type") found.push({ field: key, value: id, id: String(id) });
      }
    }
  }
  return found;
}

export interface ExperienceReadInput {
  configuredGroups: { id: string; path: string }[];
  ungroupedDevices: { id: string; name: string; serialNumber: string; sameName: number }[];
  /** Whether custom themes are declared (else looked up by name). */
  withThemes: boolean;
  withExperiences: boolean;
  /** Content the program declares (`contentKey(type, id)`, content.ts). */
  declared?: ReadonlySet<string>;
  mapConcurrently: <T, R>(items: T[], fn: (item: T) => Promise<R>) => Promise<R[]>;
}

export async function readExperiences(
  client: DeviceMgmtClient,
  input: ExperienceReadInput,
): Promise<{ themes: ModelTheme[]; experiences: ModelExperience[]; leftOut: string[] }> {
  const leftOut: string[] = [];
  const allThemes = await client.themes.all();
  const themes: ModelTheme[] = input.withThemes
    ? allThemes
        .filter((t) => !t.isSystemOwned)
        .map((t) => ({ id: t.id, colors: liveStateOf(themeProperties, t) }))
        .sort(
          compareBy(
            (t) => t.colors.name,
            (t) => t.id,
          ),
        )
    : [];
  if (!input.withExperiences) return { themes, experiences: [], leftOut };

  const catalog = await readCatalog(client, allThemes, input.declared ?? new Set());
  type Owner = {
    holder: { groupId: string } | { deviceId: string };
    model: ModelExperience["owner"];
    label: string;
  };
  const owners: Owner[] = [
    ...input.configuredGroups.map((g) => ({
      holder: { groupId: g.id },
      model: { groupId: g.id },
      label: `group "${g.path}"`,
    })),
    ...input.ungroupedDevices.flatMap((d) => {
      const label = `device "${d.name}" (${d.serialNumber})`;
      if (d.sameName > 1) {
        leftOut.push(
          `The experiences of ${label}: ${d.sameName} devices are named "${d.name}", so it cannot be looked up by name.`,
        );
        return [];
      }
      return [{ holder: { deviceId: d.id }, model: { deviceId: d.id, deviceName: d.name }, label }];
    }),
  ];
  const read = await input.mapConcurrently(owners, async (owner) => {
    const [headset, device] = await Promise.all([
      client.headsetExperiences.get(owner.holder),
      client.deviceExperiences.get(owner.holder),
    ]);
    return { owner, headset, device };
  });

  const experiences: ModelExperience[] = [];
  const consider = (
    owner: Owner,
    kind: ExperienceKindName,
    table: Record<string, ModeFields>,
    live: Record<string, unknown>,
  ) => {
    if (live.id === null || live.id === undefined) return; // never configured: the device's default home
    // The kinds' live mapping itself (their properties' `fromLive` is this form), in the mode's field order,
    // which is the order the generated program declares them in.
    const fields = declaredFormOf(table, live);
    const refs: Record<string, ExperienceRef> = {};
    for (const reference of referencesOf(fields)) {
      const resolved = catalog.resolve(reference.field, reference.value);
      if (typeof resolved === "string") {
        leftOut.push(`The ${kind} experience of ${owner.label}: ${resolved}; declare it by hand.`);
        return;
      }
      refs[reference.id] = resolved;
    }
    const takesPin = fieldsOfMode(table, String(fields.mode), live.isMenuEnabled).includes("adminPin");
    const pin = !takesPin ? "none" : typeof live.adminPin === "string" ? "shown" : "unknown";
    experiences.push({ kind, owner: owner.model, fields, pin, refs });
  };
  for (const { owner, headset, device } of read) {
    consider(owner, "headset", HEADSET_FIELDS, headset as unknown as Record<string, unknown>);
    consider(owner, "device", DEVICE_FIELDS, device as unknown as Record<string, unknown>);
  }
  return { themes, experiences, leftOut };
}
