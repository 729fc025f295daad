/**
 * The fields of headset and device experiences, declared once: their schemas (what `check` accepts), which
 * modes take them, and how what `GET …-experience` returns is brought to the declared form (mode names, order of
 * sets, id case, defaults, fields a mode does not take) so that a read never shows a change that is not there.
 */
import { z } from "zod";
import type { ExperienceContent, HeadsetExperience } from "../../client";
import { deepEqual, uuid, type Props } from "../../framework";
import { withoutControlCharacters } from "../tag/properties";

/** Every content type an experience names; which a mode's field takes is in the mode tables below. */
export const CONTENT_TYPES = ["app", "unmanaged-app", "video", "web-xr-link"] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

// ---- Modes ---------------------------------------------------------------------------------------------------

/** What programs declare: the configure operations' path segments. */
export const HEADSET_MODES = ["arborxr-home", "arborxr-kiosk", "default-home", "in-house-launcher"] as const;
export const DEVICE_MODES = ["lock-task", "default-home", "in-house-launcher"] as const;
export type HeadsetMode = (typeof HEADSET_MODES)[number];
export type DeviceMode = (typeof DEVICE_MODES)[number];

/** The GET names two modes differently from their paths. */
const MODE_OF_READ: Record<string, string> = {
  "device-default": "default-home",
  "custom-launcher": "in-house-launcher",
};
export const declaredMode = (readMode: string): string => MODE_OF_READ[readMode] ?? readMode;

/** Per mode: the fields it requires and the ones it may take. */
export interface ModeFields {
  required: readonly FieldName[];
  optional: readonly FieldName[];
  /** The content types each content field of the mode takes (the enums of the OpenAPI's configure bodies). */
  contentTypes: Partial<Record<ContentField, readonly ContentType[]>>;
}

/** The fields that hold content items `{ type, id }`. */
export const CONTENT_FIELDS = ["visibleContents", "kioskContent", "launcherContent"] as const;
export type ContentField = (typeof CONTENT_FIELDS)[number];

const MENU = ["language", "menuIconImageId", "removePoweredByArborXrBranding", "themeId"] as const;

export const HEADSET_FIELDS: Record<HeadsetMode, ModeFields> = {
  "arborxr-home": {
    required: ["visibleContents", ...MENU, "menuTitle", "shortcuts", "categorizationTags", "background"],
    optional: ["adminPin", "sharedModeSettings"],
    contentTypes: { visibleContents: CONTENT_TYPES },
  },
  "arborxr-kiosk": {
    required: ["kioskContent", "isMenuEnabled"],
    optional: [...MENU, "shortcuts", "adminPin", "background", "sharedModeSettings"],
    contentTypes: { kioskContent: CONTENT_TYPES },
  },
  "default-home": { required: [], optional: ["metaHmsSettings"], contentTypes: {} },
  "in-house-launcher": {
    required: ["launcherContent", "visibleContents", "returnToLauncherViaHomeButton"],
    optional: ["sharedModeSettings"],
    contentTypes: { launcherContent: ["app"], visibleContents: ["app"] },
  },
};

export const DEVICE_FIELDS: Record<DeviceMode, ModeFields> = {
  "lock-task": {
    required: ["visibleContents"],
    optional: [],
    contentTypes: { visibleContents: ["app", "unmanaged-app"] },
  },
  "default-home": { required: [], optional: [], contentTypes: {} },
  "in-house-launcher": {
    required: ["launcherContent", "visibleContents"],
    optional: [],
    contentTypes: { launcherContent: ["app"], visibleContents: ["app", "unmanaged-app"] },
  },
};

/** Kiosk fields that exist only with the menu on. */
export const KIOSK_MENU_FIELDS = [...MENU, "shortcuts", "adminPin"] as const;
export const KIOSK_MENU_REQUIRED = MENU;

/** Fields a group must send (the API requires them for groups and for "Meta HMS devices"). */
export const GROUP_REQUIRED: Partial<Record<string, FieldName>> = {
  "arborxr-home": "sharedModeSettings",
  "arborxr-kiosk": "sharedModeSettings",
  "in-house-launcher": "sharedModeSettings",
  "default-home": "metaHmsSettings",
};

// ---- Normal forms --------------------------------------------------------------------------------------------

const byTypeThenId = (a: ExperienceContent, b: ExperienceContent) =>
  a.type !== b.type ? (a.type < b.type ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Content lists are sets: kept sorted, ids lowercased, nothing but `type` and `id`. */
export const normalContents = (items: readonly ExperienceContent[]) =>
  items.map((c) => ({ type: c.type, id: c.id.toLowerCase() })).sort(byTypeThenId);
export const normalContent = (c: ExperienceContent) => ({ type: c.type, id: c.id.toLowerCase() });
const normalStrings = (items: readonly string[]) => [...items].sort();

/** Drops null and undefined members (the API fills absent optional fields with null). */
function withoutNulls<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;
}

const BACKGROUND_KEYS: Record<string, readonly string[]> = {
  "3d-model": ["bannerImageId", "skyboxImageId"],
  "360-background": ["threeSixtyImageId"],
  "custom-3d-environment": ["custom3DEnvironmentId"],
  "mixed-reality-mode": [],
};

/** A background with only the keys its type takes, ids lowercased. */
export function normalBackground(value: Record<string, unknown>): Record<string, unknown> {
  const type = String(value.type);
  const out: Record<string, unknown> = { type };
  for (const key of BACKGROUND_KEYS[type] ?? []) {
    if (typeof value[key] === "string") out[key] = (value[key] as string).toLowerCase();
  }
  return out;
}

// ---- Schemas -------------------------------------------------------------------------------------------------

const contentSchema = (name: string) =>
  z
    .object(
      {
        type: z.enum(CONTENT_TYPES, { error: `${name}.type must be one of ${CONTENT_TYPES.join(", ")}` }),
        id: uuid(`${name}.id`),
      },
      { error: `${name} must be { type, id }` },
    )
    .strict();

/**
 * A list that is a set: an item given twice is refused, since the documents do not say whether the API keeps
 * both, keeps one or refuses the body, and a read that shows one would then differ from the declaration forever.
 */
const noRepeats =
  <T>(name: string, keyOf: (item: T) => string, how: string) =>
  (items: readonly T[], ctx: z.RefinementCtx) => {
    const first = new Map<string, number>();
    items.forEach((item, i) => {
      const earlier = first.get(keyOf(item));
      if (earlier === undefined) first.set(keyOf(item), i);
      else
        ctx.addIssue({
          code: "custom",
          path: [i],
          message: `repeats ${name}[${earlier}]${how}: each is listed once, remove one`,
        });
    });
  };

const contentsSchema = (name: string) =>
  z
    .array(contentSchema(name), { error: `${name} must be a list of { type, id }` })
    .superRefine(noRepeats(name, (c: ExperienceContent) => `${c.type}\0${c.id}`, ""))
    .transform(normalContents);

export const LANGUAGES = ["zh-TW", "en", "nl", "fr", "de", "hi", "it", "ja", "ko", "pt", "es", "ro"] as const;
export const SHORTCUTS = [
  "boundary",
  "screencast",
  "screen-capture",
  "eye-calibration",
  "wifi-settings",
  "bluetooth",
  "pico-controller-settings",
  "pico-idp-adjustment",
] as const;
export const ADMIN_PIN = /^[0-9]{4,10}$/;
/** Never names the value: the PIN is a secret. */
export const ADMIN_PIN_RULE =
  'adminPin must be 4 to 10 digits (a string such as "0000"; the value is not shown)';

const flag = (name: string) => z.boolean({ error: `${name} must be true or false` });

const sharedModeSettingsSchema = z
  .object({
    enableOfflineMode: flag("sharedModeSettings.enableOfflineMode"),
    requireManagedMetaLogin: flag("sharedModeSettings.requireManagedMetaLogin"),
    requiredPasswordComplexity: z.enum(["NONE", "LOW", "MEDIUM", "HIGH"]).nullable().optional(),
    enableControllerFree: flag("sharedModeSettings.enableControllerFree"),
    wakeControllers: flag("sharedModeSettings.wakeControllers").optional(),
    adjustDeviceFit: flag("sharedModeSettings.adjustDeviceFit"),
    defaultToStationaryBoundary: flag("sharedModeSettings.defaultToStationaryBoundary"),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (!value.enableControllerFree && value.wakeControllers === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["wakeControllers"],
        message: "is required when enableControllerFree is false: declare true or false",
      });
  })
  .transform(withoutNulls);

const backgroundSchema = z
  .object({
    type: z.enum(["3d-model", "360-background", "mixed-reality-mode", "custom-3d-environment"], {
      error: "background.type must be 3d-model, 360-background, mixed-reality-mode or custom-3d-environment",
    }),
    bannerImageId: uuid("background.bannerImageId").optional(),
    skyboxImageId: uuid("background.skyboxImageId").optional(),
    threeSixtyImageId: uuid("background.threeSixtyImageId").optional(),
    custom3DEnvironmentId: uuid("background.custom3DEnvironmentId").optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    const wanted = BACKGROUND_KEYS[value.type];
    for (const key of [
      "bannerImageId",
      "skyboxImageId",
      "threeSixtyImageId",
      "custom3DEnvironmentId",
    ] as const) {
      const given = value[key] !== undefined;
      if (wanted.includes(key) && !given)
        ctx.addIssue({ code: "custom", path: [key], message: `is required when type is ${value.type}` });
      if (!wanted.includes(key) && given)
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `is not taken when type is ${value.type}: remove it`,
        });
    }
  });

/** The schema of each experience field (all optional here: which mode requires which is checked per mode). */
export const FIELD_SCHEMAS = {
  visibleContents: contentsSchema("visibleContents"),
  language: z.enum(LANGUAGES, { error: `language must be one of ${LANGUAGES.join(", ")}` }),
  menuTitle: z
    .string({ error: "menuTitle must be a string" })
    .trim()
    .min(1, { error: "menuTitle must not be empty" })
    .max(255, { error: "menuTitle must be at most 255 characters" }),
  menuIconImageId: uuid("menuIconImageId"),
  removePoweredByArborXrBranding: flag("removePoweredByArborXrBranding"),
  shortcuts: z
    .array(z.enum(SHORTCUTS), { error: `shortcuts must be a list of: ${SHORTCUTS.join(", ")}` })
    .transform(normalStrings),
  adminPin: z.string({ error: ADMIN_PIN_RULE }).regex(ADMIN_PIN, { error: ADMIN_PIN_RULE }).nullable(),
  categorizationTags: z
    .array(
      z
        .string({ error: "categorizationTags must be strings" })
        .max(60, { error: "each categorization tag must be at most 60 characters" })
        .superRefine(withoutControlCharacters("a categorization tag")),
      { error: "categorizationTags must be a list of strings" },
    )
    .superRefine(
      noRepeats("categorizationTags", (tag: string) => tag.toLowerCase(), " (compared without case)"),
    )
    .transform(normalStrings),
  background: backgroundSchema.transform(normalBackground),
  themeId: uuid("themeId"),
  sharedModeSettings: sharedModeSettingsSchema,
  kioskContent: contentSchema("kioskContent").transform(normalContent),
  isMenuEnabled: flag("isMenuEnabled"),
  metaHmsSettings: z
    .object({
      isStoreEnabled: flag("metaHmsSettings.isStoreEnabled"),
      isSocialEnabled: flag("metaHmsSettings.isSocialEnabled"),
      isAddAccountsEnabled: flag("metaHmsSettings.isAddAccountsEnabled"),
    })
    .strict(),
  launcherContent: contentSchema("launcherContent").transform(normalContent),
  returnToLauncherViaHomeButton: flag("returnToLauncherViaHomeButton"),
} as const;
export type FieldName = keyof typeof FIELD_SCHEMAS;

// ---- Reading back --------------------------------------------------------------------------------------------

/** A field as the declared form would hold it, from what the GET shows (null: the API shows none). */
export function normalField(field: string, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  switch (field) {
    case "visibleContents":
      return normalContents(value as ExperienceContent[]);
    case "kioskContent":
    case "launcherContent":
      return normalContent(value as ExperienceContent);
    case "shortcuts":
    case "categorizationTags":
      return normalStrings(value as string[]);
    case "background":
      return normalBackground(value as Record<string, unknown>);
    case "sharedModeSettings":
      return withoutNulls(value as object);
    case "menuIconImageId":
    case "themeId":
      return (value as string).toLowerCase();
    default:
      return value;
  }
}

/** The fields a mode takes (with the kiosk menu rule applied to `live`), from the mode table. */
export function fieldsOfMode(
  table: Record<string, ModeFields>,
  mode: string,
  menuEnabled?: unknown,
): FieldName[] {
  const fields = table[mode];
  if (!fields) return [];
  const all = [...fields.required, ...fields.optional];
  if (mode === "arborxr-kiosk" && menuEnabled === false)
    return all.filter((f) => !(KIOSK_MENU_FIELDS as readonly string[]).includes(f));
  return all;
}

/** The declared form of a GET: the mode by its path name, and each field of that mode, normalised; no PIN. */
export function declaredFormOf(table: Record<string, ModeFields>, live: HeadsetExperience | Props): Props {
  const record = live as Props;
  const mode = declaredMode(String(record.mode));
  const out: Props = { mode };
  for (const field of fieldsOfMode(table, mode, record.isMenuEnabled)) {
    if (field === "adminPin") continue; // never read into state: see the resource's adminPin handling
    const value = normalField(field, record[field]);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/**
 * Equality of an optional experience field: a field the program does not declare is not managed (the API's
 * value, or the one recorded, is kept), so it never shows a change; a declared one compares in normal form.
 */
export function sameOrUndeclared(recorded: unknown, declared: unknown): boolean {
  return declared === undefined || deepEqual(recorded, declared);
}
