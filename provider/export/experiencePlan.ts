/**
 * Names and order of the themes, experiences and the content lookups they need, in the generated program.
 * Called by `planProgram` once groups and devices have their variables, so every name is unique across the
 * whole program; pure like the rest of the plan.
 */
import type { ExperienceRef, ModelExperience, ModelTheme } from "./experienceRead";
import type { OrgModel } from "./model";
import { contentKey } from "./content";
import { compareBy } from "./order";
import { assignIdentifiers, assignUnique, identifierFrom, lookupSuffix, slugify } from "./names";

export interface PlannedTheme {
  theme: ModelTheme;
  resourceName: string;
  variable: string;
}

export interface PlannedLookup {
  ref: ExperienceRef;
  variable: string;
}

export interface PlannedExperience {
  experience: ModelExperience;
  resourceName: string;
  /** `groupId` or `deviceId`, and the variable of that group or device. */
  ownerProperty: "groupId" | "deviceId";
  ownerVariable: string;
  /** How a person names the owner: a group's path, a device's name. */
  ownerLabel: string;
  /** Stack config key of the admin PIN (a secret the user sets), when the mode takes one. */
  pinKey?: string;
  /** Referenced id → the variable whose `.id` the program writes instead. */
  refVariables: Record<string, string>;
}

export interface ExperiencePlan {
  themes: PlannedTheme[];
  lookups: PlannedLookup[];
  experiences: PlannedExperience[];
}

export const EMPTY_EXPERIENCE_PLAN: ExperiencePlan = { themes: [], lookups: [], experiences: [] };

/** One key per thing a lookup finds. */
export const refKey = (ref: ExperienceRef) =>
  [
    ref.kind,
    ref.name,
    ref.kind === "image" ? ref.type : "",
    ref.kind === "theme" ? ref.systemOwned : "",
  ].join("\u0000");

export interface ExperiencePlanContext {
  groupName: Map<string, string>;
  groupPath: Map<string, string>;
  groupVariable: Map<string, string>;
  deviceVariable: Map<string, string>;
  treeIndex: Map<string, number>;
  /** Declared content (content.ts) by `contentKey(type, id)`: referred to by its variable, not looked up. */
  contentVariable: Map<string, string>;
  resourceNames: Set<string>;
  variables: Set<string>;
}

export function planExperiences(model: OrgModel, ctx: ExperiencePlanContext): ExperiencePlan {
  const themes = model.themes ?? [];
  const declaredThemes = new Set(themes.map((t) => t.id.toLowerCase()));
  const ownerSlug = (x: ModelExperience) =>
    "groupId" in x.owner ? ctx.groupName.get(x.owner.groupId)! : slugify(x.owner.deviceName) || "device";
  // Groups in tree order first, then devices by name; headset before device experience.
  const ownerOrder = (x: ModelExperience) =>
    "groupId" in x.owner
      ? `0${String(ctx.treeIndex.get(x.owner.groupId)).padStart(9, "0")}`
      : `1${x.owner.deviceName}\u0000${x.owner.deviceId}`;
  const experiences = [...(model.experiences ?? [])].sort(compareBy(ownerOrder, (x) => x.kind));

  const themeNames = assignUnique(
    themes.map((t) => {
      const slug = slugify(t.colors.name) || "theme";
      return {
        candidates: [slug.endsWith("theme") ? slug : `${slug}-theme`, `${slug}-theme-${t.id.slice(0, 8)}`],
      };
    }),
    ctx.resourceNames,
  );
  const experienceNames = assignUnique(
    experiences.map((x) => ({ candidates: [`${ownerSlug(x)}-${x.kind}-experience`] })),
    ctx.resourceNames,
  );

  const declaredContent = (ref: ExperienceRef) =>
    ref.kind === "video"
      ? ctx.contentVariable.get(contentKey("video", ref.videoId))
      : ref.kind === "environment"
        ? ctx.contentVariable.get(contentKey("custom3DEnvironment", ref.environmentId))
        : undefined;
  // Lookups: everything referred to, except custom themes, videos and environments this program declares.
  const lookupRefs = new Map<string, ExperienceRef>();
  for (const x of experiences) {
    for (const ref of Object.values(x.refs)) {
      if (ref.kind === "theme" && declaredThemes.has(ref.themeId.toLowerCase())) continue;
      if (declaredContent(ref)) continue;
      lookupRefs.set(refKey(ref), ref);
    }
  }
  const lookups = [...lookupRefs.values()].sort(
    compareBy(
      (r) => r.kind,
      (r) => r.name,
      (r) => (r.kind === "image" ? r.type : ""),
    ),
  );
  const themeVariables = assignIdentifiers(
    themes.map((t) => {
      const base = identifierFrom(slugify(t.colors.name), "theme");
      return { candidates: [base.endsWith("Theme") ? base : `${base}Theme`, `${base}CustomTheme`] };
    }),
    ctx.variables,
  );
  const lookupVariables = assignIdentifiers(
    lookups.map((r) => {
      const base = identifierFrom(slugify(r.name.replace(/\.[A-Za-z0-9]+$/, "")), r.kind);
      const suffix = lookupSuffix(r.kind);
      return {
        candidates: [
          base.endsWith(suffix) ? base : `${base}${suffix}`,
          r.kind === "image" ? identifierFrom(slugify(`${r.name} ${r.type}`), "image") : `${base}${suffix}2`,
        ],
      };
    }),
    ctx.variables,
  );
  const pinKeys = assignUnique(
    experiences.map((x) => ({
      candidates: x.pin === "none" ? [] : [`${identifierFrom(ownerSlug(x), "site")}AdminPin`],
      numberBase: `${identifierFrom(ownerSlug(x), "site")}AdminPin`,
    })),
    new Set<string>(),
  );

  const themeVariable = new Map(themes.map((t, i) => [t.id.toLowerCase(), themeVariables[i]]));
  const lookupVariable = new Map(lookups.map((r, i) => [refKey(r), lookupVariables[i]]));

  return {
    themes: themes.map((theme, i) => ({ theme, resourceName: themeNames[i], variable: themeVariables[i] })),
    lookups: lookups.map((ref, i) => ({ ref, variable: lookupVariables[i] })),
    experiences: experiences.map((experience, i) => {
      const owner = experience.owner;
      const refVariables = Object.fromEntries(
        Object.entries(experience.refs).map(([id, ref]) => [
          id,
          ref.kind === "theme" && themeVariable.has(ref.themeId.toLowerCase())
            ? themeVariable.get(ref.themeId.toLowerCase())!
            : (declaredContent(ref) ?? lookupVariable.get(refKey(ref))!),
        ]),
      );
      return {
        experience,
        resourceName: experienceNames[i],
        ownerProperty: "groupId" in owner ? "groupId" : "deviceId",
        ownerVariable:
          "groupId" in owner
            ? ctx.groupVariable.get(owner.groupId)!
            : ctx.deviceVariable.get(owner.deviceId)!,
        ownerLabel:
          "groupId" in owner ? `group "${ctx.groupPath.get(owner.groupId)}"` : `device "${owner.deviceName}"`,
        ...(experience.pin === "none" ? {} : { pinKey: pinKeys[i] }),
        refVariables,
      };
    }),
  };
}
