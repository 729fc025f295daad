/**
 * Review-time rules for an organization declared with pulumi-devicemgmt, as @pulumi/policy policies. Copy this
 * folder, set the config in your policy pack config file (see README.md), and run with
 * `pulumi preview --policy-pack <folder> --policy-pack-config <file>`.
 *
 * Resources arrive by type token (`pulumi-nodejs:dynamic/devicemgmt:<Kind>`) with their props as the program
 * registered them. Roles, groups and channels are ids, so the rules take ids in their config (find them with
 * `getRole` / `getReleaseChannel`, or in the portal). A value unknown during a preview (the id of a group not
 * created yet) is skipped rather than guessed.
 */
import type { PolicyResource, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";

export const TYPE = (kind: string) => `pulumi-nodejs:dynamic/devicemgmt:${kind}`;
const ofKind = (resources: PolicyResource[], kind: string) => resources.filter((r) => r.type === TYPE(kind));
const known = (value: unknown): value is string => typeof value === "string" && value.length > 0;

export const adminDomains: ResourceValidationPolicy = {
  name: "devicemgmt-admin-domains",
  description: "Organization Admin (defaultRoleId = adminRoleId) only for e-mails of the allowed domains.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      adminRoleId: { type: "string" },
      allowedDomains: { type: "array", items: { type: "string" } },
    },
    required: ["adminRoleId", "allowedDomains"],
  },
  validateResource: (args, reportViolation) => {
    if (args.type !== TYPE("User")) return;
    const { adminRoleId, allowedDomains } = args.getConfig<{
      adminRoleId: string;
      allowedDomains: string[];
    }>();
    const { email, defaultRoleId } = args.props as { email?: unknown; defaultRoleId?: unknown };
    if (defaultRoleId !== adminRoleId || !known(email)) return;
    const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
    if (!allowedDomains.map((d) => d.toLowerCase()).includes(domain)) {
      reportViolation(
        `${email} would be an organization Admin, but Admins must have an address at ${allowedDomains.join(", ")}.`,
      );
    }
  },
};

export const maxAdmins: StackValidationPolicy = {
  name: "devicemgmt-max-admins",
  description: "At most maxAdmins users declared with the organization Admin role.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: { adminRoleId: { type: "string" }, maxAdmins: { type: "integer", minimum: 0 } },
    required: ["adminRoleId", "maxAdmins"],
  },
  validateStack: (args, reportViolation) => {
    const { adminRoleId, maxAdmins: max } = args.getConfig<{ adminRoleId: string; maxAdmins: number }>();
    const admins = ofKind(args.resources, "User").filter((u) => u.props.defaultRoleId === adminRoleId);
    if (admins.length > max) {
      reportViolation(
        `${admins.length} users are organization Admins (${admins.map((u) => u.props.email).join(", ")}); at most ${max} may be.`,
      );
    }
  },
};

export const folderChannel: StackValidationPolicy = {
  name: "devicemgmt-folder-channel",
  description:
    "Every configured group below the group named folderName carries the release channel channelId.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: { folderName: { type: "string" }, channelId: { type: "string" } },
    required: ["folderName", "channelId"],
  },
  validateStack: (args, reportViolation) => {
    const { folderName, channelId } = args.getConfig<{ folderName: string; channelId: string }>();
    // Groups point at their parent, attachments at their group, through the resources the program passed
    // (property dependencies): that works in a preview, before any of them has an id.
    const parentOf = (r: PolicyResource) =>
      r.propertyDependencies.parentId?.find((p) => p.type === TYPE("Group"));
    const below = (group: PolicyResource) => {
      for (let p = parentOf(group), hops = 0; p && hops < 100; p = parentOf(p), hops++) {
        if (p.props.name === folderName) return true;
      }
      return false;
    };
    const carrying = new Set(
      ofKind(args.resources, "GroupReleaseChannel")
        .filter((a) => a.props.releaseChannelId === channelId)
        .flatMap((a) => (a.propertyDependencies.groupId ?? []).map((g) => g.urn)),
    );
    for (const group of ofKind(args.resources, "Group")) {
      if (group.props.configured === true && below(group) && !carrying.has(group.urn)) {
        reportViolation(
          `Configured group "${group.props.name}" (${group.name}) lacks release channel ${channelId}.`,
          group.urn,
        );
      }
    }
  },
};

export const namePattern: ResourceValidationPolicy = {
  name: "devicemgmt-group-names",
  description: "Group names match the regular expression `pattern`.",
  enforcementLevel: "advisory",
  configSchema: { properties: { pattern: { type: "string" } }, required: ["pattern"] },
  validateResource: (args, reportViolation) => {
    if (args.type !== TYPE("Group") || !known(args.props.name)) return;
    const { pattern } = args.getConfig<{ pattern: string }>();
    if (!new RegExp(pattern, "u").test(args.props.name)) {
      reportViolation(`Group name "${args.props.name}" does not match ${pattern}.`);
    }
  },
};

export const migrationTargets: ResourceValidationPolicy = {
  name: "devicemgmt-migration-targets",
  description: "Devices migrate only to the organization slugs in allowedSlugs.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: { allowedSlugs: { type: "array", items: { type: "string" } } },
    required: ["allowedSlugs"],
  },
  validateResource: (args, reportViolation) => {
    if (args.type !== TYPE("DeviceMigration")) return;
    const { allowedSlugs } = args.getConfig<{ allowedSlugs: string[] }>();
    const slug = args.props.organizationSlug;
    if (known(slug) && !allowedSlugs.includes(slug)) {
      reportViolation(`Device migration to "${slug}" is not allowed; allowed: ${allowedSlugs.join(", ")}.`);
    }
  },
};

/** The group a resource's `groupId` came from (a property dependency: known in a preview too). */
const groupOf = (r: PolicyResource) => r.propertyDependencies.groupId?.find((g) => g.type === TYPE("Group"));
/** How a person names where an experience applies: its group's name, else the resource's name. */
const siteOf = (r: PolicyResource) => {
  const group = groupOf(r);
  return known(group?.props.name) ? `"${group.props.name}"` : r.name;
};

export const kioskPin: StackValidationPolicy = {
  name: "devicemgmt-kiosk-pin",
  description:
    "A kiosk headset experience with its menu on carries an admin PIN (without one, anyone at the site can " +
    "leave the kiosk app through the menu).",
  enforcementLevel: "mandatory",
  validateStack: (args, reportViolation) => {
    for (const x of ofKind(args.resources, "HeadsetExperience")) {
      if (x.props.mode !== "arborxr-kiosk" || x.props.isMenuEnabled !== true) continue;
      // The PIN is a secret: only whether it is there matters, never its value. Absent or null is no PIN.
      const pin = x.props.adminPin;
      if (pin === undefined || pin === null || pin === "") {
        reportViolation(
          `The kiosk at ${siteOf(x)} (${x.name}) has its menu on but no adminPin: set one from a config ` +
            `secret, e.g. adminPin: config.requireSecret("kioskPin").`,
          x.urn,
        );
      }
    }
  },
};

export const vendorBranding: StackValidationPolicy = {
  name: "devicemgmt-vendor-branding",
  description:
    'No headset experience removes the "Powered by ArborXR" branding (removePoweredByArborXrBranding), ' +
    "except at the sites in allowedSites (group names, or the experience's resource name for a device).",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: { allowedSites: { type: "array", items: { type: "string" } } },
  },
  validateStack: (args, reportViolation) => {
    const { allowedSites = [] } = args.getConfig<{ allowedSites?: string[] }>();
    for (const x of ofKind(args.resources, "HeadsetExperience")) {
      if (x.props.removePoweredByArborXrBranding !== true) continue;
      const groupName = groupOf(x)?.props.name;
      if (allowedSites.includes(x.name) || (known(groupName) && allowedSites.includes(groupName))) continue;
      reportViolation(
        `The headset experience at ${siteOf(x)} (${x.name}) removes the "Powered by ArborXR" branding; ` +
          `keep it (removePoweredByArborXrBranding: false) or add the site to allowedSites.`,
        x.urn,
      );
    }
  },
};

export const siteDeviceTags: StackValidationPolicy = {
  name: "devicemgmt-site-device-tags",
  description:
    "Every device placed in a site carries that site's tag (siteTags: group name → tag name), so a headset " +
    "moved to the wrong site shows in review.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: { siteTags: { type: "object", additionalProperties: { type: "string" } } },
    required: ["siteTags"],
  },
  validateStack: (args, reportViolation) => {
    const { siteTags } = args.getConfig<{ siteTags: Record<string, string> }>();
    for (const device of ofKind(args.resources, "Device")) {
      const site = groupOf(device)?.props.name;
      if (!known(site) || siteTags[site] === undefined) continue;
      const tags = device.props.tags;
      // A tag set the program does not manage (absent), or one not known during a preview, is not judged.
      if (!Array.isArray(tags) || !tags.every(known)) continue;
      const wanted = siteTags[site];
      if (!tags.some((t: string) => t.toLowerCase() === wanted.toLowerCase())) {
        reportViolation(
          `Device ${device.name} is placed in "${site}" but does not carry the site's tag "${wanted}" ` +
            `(tags: ${tags.join(", ") || "none"}).`,
          device.urn,
        );
      }
    }
  },
};

export const productionFromBeta: StackValidationPolicy = {
  name: "devicemgmt-production-from-beta",
  description:
    "A Production channel (productionChannelIds) moves only to a version already on Beta: one of " +
    "betaVersionIds (what the Beta channels ship now: getReleaseChannel's version, or the portal) or one the " +
    "program itself puts on a channel of betaChannelIds.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      productionChannelIds: { type: "array", items: { type: "string" } },
      betaChannelIds: { type: "array", items: { type: "string" } },
      betaVersionIds: { type: "array", items: { type: "string" } },
    },
    required: ["productionChannelIds"],
  },
  validateStack: (args, reportViolation) => {
    const {
      productionChannelIds,
      betaChannelIds = [],
      betaVersionIds = [],
    } = args.getConfig<{
      productionChannelIds: string[];
      betaChannelIds?: string[];
      betaVersionIds?: string[];
    }>();
    const versions = ofKind(args.resources, "ReleaseChannelVersion");
    const target = (v: PolicyResource): unknown => v.props.versionId ?? v.props.bundleId;
    const onBeta = new Set<unknown>([
      ...betaVersionIds,
      ...versions.filter((v) => betaChannelIds.includes(v.props.releaseChannelId)).map(target),
    ]);
    for (const v of versions) {
      if (!productionChannelIds.includes(v.props.releaseChannelId)) continue;
      const moveTo = target(v);
      if (!known(moveTo) || onBeta.has(moveTo)) continue;
      reportViolation(
        `${v.name} moves a Production channel to ${v.props.versionId ? "version" : "bundle"} ${moveTo}, which is ` +
          "not on Beta: put it on Beta first (or list it in betaVersionIds once Beta ships it).",
        v.urn,
      );
    }
  },
};

export const policies = [
  adminDomains,
  maxAdmins,
  folderChannel,
  namePattern,
  migrationTargets,
  kioskPin,
  vendorBranding,
  siteDeviceTags,
  productionFromBeta,
];
