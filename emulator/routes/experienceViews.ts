/**
 * JSON representations of experiences, themes, images and custom 3D environments in the OpenAPI's shapes. An
 * experience reads back under its `mode` (not the path it was configured through) with every field of that
 * mode, including the defaults the request did not take.
 */
import type { StrictOptions } from "../types";
import type { Custom3DEnvironment, ExperienceKind, ExperienceRecord, Image, Theme } from "../experienceModel";
import { DEFAULT_META_HMS_SETTINGS } from "./experienceRules";

export function themeView(theme: Theme) {
  return {
    id: theme.id,
    name: theme.name,
    isSystemOwned: theme.isSystemOwned,
    background1: theme.background1,
    background2: theme.background2,
    text: theme.text,
    accent1: theme.accent1,
    accent2: theme.accent2,
    accent3: theme.accent3,
    createdAt: theme.createdAt,
    updatedAt: theme.updatedAt,
  };
}

/**
 * Where a download URL points: a signed GET on the storage endpoint of the bytes an upload left (their OpenAPI
 * schemas answer `downloadUrl`, so no switch), null for an image or environment without bytes here (seeded,
 * loaded from `--state`, or still being processed).
 */
interface Links {
  signedDownloadUrl(objectKey: string | undefined): string | null;
}

export function imageView(image: Image, links: Links) {
  return {
    id: image.id,
    isSystemOwned: image.isSystemOwned,
    objectName: image.objectName,
    originalFileName: image.originalFileName,
    mimeType: image.mimeType,
    sizeBytes: image.sizeBytes,
    type: image.type,
    status: image.status,
    downloadUrl: image.status === "available" ? links.signedDownloadUrl(image.objectKey) : null,
    createdAt: image.createdAt,
    updatedAt: image.updatedAt,
  };
}

export function custom3DEnvironmentView(environment: Custom3DEnvironment, links: Links) {
  return {
    id: environment.id,
    objectName: environment.objectName,
    sizeBytes: environment.sizeBytes,
    status: environment.status,
    downloadUrl: environment.status === "available" ? links.signedDownloadUrl(environment.objectKey) : null,
    createdAt: environment.createdAt,
    updatedAt: environment.updatedAt,
  };
}

type Switches = Required<StrictOptions>;
type Content = { id: string; type: string };

const byTypeThenId = (a: Content, b: Content) =>
  a.type !== b.type ? (a.type < b.type ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** The lists of an experience, in the order sent or sorted (`sortExperienceLists`). */
function lists(settings: Record<string, unknown>, switches: Switches): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const sort = switches.sortExperienceLists;
  if (Array.isArray(settings.visibleContents)) {
    const items = (settings.visibleContents as Content[]).map((c) => ({ type: c.type, id: c.id }));
    out.visibleContents = sort ? items.sort(byTypeThenId) : items;
  }
  for (const field of ["shortcuts", "categorizationTags"])
    if (Array.isArray(settings[field])) {
      const items = [...(settings[field] as string[])];
      out[field] = sort ? items.sort() : items;
    }
  return out;
}

/** The GET body of a configured experience. */
export function experienceView(record: ExperienceRecord, switches: Switches) {
  const { settings } = record;
  const body: Record<string, unknown> = { id: record.id, mode: record.mode, ...settings };
  Object.assign(body, lists(settings, switches));
  if ("kioskContent" in settings) body.kioskContent = { ...(settings.kioskContent as Content) };
  if ("launcherContent" in settings) body.launcherContent = { ...(settings.launcherContent as Content) };
  if ("adminPin" in settings && switches.withholdAdminPin) body.adminPin = null;
  body.createdAt = record.createdAt;
  body.updatedAt = record.updatedAt;
  return body;
}

/** The GET body of a group or device nobody configured: the device's default home, never saved (no id). */
export function unsetExperienceView(kind: ExperienceKind) {
  return kind === "headset"
    ? {
        id: null,
        mode: "device-default",
        metaHmsSettings: { ...DEFAULT_META_HMS_SETTINGS },
        createdAt: null,
        updatedAt: null,
      }
    : { id: null, mode: "device-default", createdAt: null, updatedAt: null };
}
