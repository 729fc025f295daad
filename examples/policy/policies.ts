/**
 * Review-time rules for an organization declared with pulumi-devicemgmt, as @pulumi/policy policies. Copy this
 * folder, set the config in your policy pack config file (see README.md), and run with
 * `pulumi preview --policy-pack <folder> --policy-pack-config <file>`.
 *
 * Resources arrive by type token with their props as the program registered them: `pulumi-nodejs:dynamic/devicemgmt:<Kind>`
 * from the TypeScript classes, `devicemgmt:index:<Kind>` from the provider plugin (YAML, Python, Go, C#), whose
 * properties have the same names. Roles, groups and channels are ids, so the rules take ids in their config (find them with
 * `getRole` / `getReleaseChannel`, or in the portal). A value unknown during a preview (the id of a group not
 * created yet) is skipped rather than guessed.
 */
import { UnknownValueError } from "@pulumi/policy";
import type { PolicyResource, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";

/** The type tokens of a kind: the TypeScript class's (a dynamic resource) and the provider plugin's. */
export const TYPES = (kind: string) => [
  `pulumi-nodejs:dynamic/devicemgmt:${kind}`,
  `devicemgmt:index:${kind}`,
];
/** Whether a resource's type token is one of `kind`'s, whichever way the program declared it. */
export const isKind = (type: string, kind: string) => TYPES(kind).includes(type);
const ofKind = (resources: PolicyResource[], kind: string) => resources.filter((r) => isKind(r.type, kind));
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
    if (!isKind(args.type, "User")) return;
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
      r.propertyDependencies.parentId?.find((p) => isKind(p.type, "Group"));
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
    if (!isKind(args.type, "Group") || !known(args.props.name)) return;
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
    if (!isKind(args.type, "DeviceMigration")) return;
    const { allowedSlugs } = args.getConfig<{ allowedSlugs: string[] }>();
    const slug = args.props.organizationSlug;
    if (known(slug) && !allowedSlugs.includes(slug)) {
      reportViolation(`Device migration to "${slug}" is not allowed; allowed: ${allowedSlugs.join(", ")}.`);
    }
  },
};

/** The group a resource's `groupId` came from (a property dependency: known in a preview too). */
const groupOf = (r: PolicyResource) => r.propertyDependencies.groupId?.find((g) => isKind(g.type, "Group"));
/** How a person names where an experience applies: its group's name, else the resource's name. */
const siteOf = (r: PolicyResource) => {
  const group = groupOf(r);
  return known(group?.props.name) ? `"${group.props.name}"` : r.name;
};

/**
 * Judged per experience, before its step (a resource policy): a stack policy runs after the steps of an `up`
 * without a preview, and would leave a kiosk without its PIN configured until the run failed. What it knows is
 * the experience's own inputs, so the message names the resource and where it applies by id.
 */
export const kioskPin: ResourceValidationPolicy = {
  name: "devicemgmt-kiosk-pin",
  description:
    "A kiosk headset experience with its menu on carries an admin PIN (without one, anyone at the site can " +
    "leave the kiosk app through the menu).",
  enforcementLevel: "mandatory",
  validateResource: (args, reportViolation) => {
    if (!isKind(args.type, "HeadsetExperience")) return;
    if (args.props.mode !== "arborxr-kiosk" || args.props.isMenuEnabled !== true) return;
    // The PIN is a secret: only whether it is there matters, never its value. Absent or null is no PIN.
    const pin = args.props.adminPin;
    if (pin !== undefined && pin !== null && pin !== "") return;
    const { groupId, deviceId } = args.props;
    const where = known(groupId)
      ? `group ${groupId}`
      : known(deviceId)
        ? `device ${deviceId}`
        : "a group or device this program creates";
    reportViolation(
      `The kiosk ${args.name} (${where}) has its menu on but no adminPin: set one from a config secret, ` +
        `e.g. adminPin: config.requireSecret("kioskPin").`,
    );
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

/**
 * Reads a property that may be unknown during a preview (another resource's output not created yet). The pack's
 * props throw UnknownValueError on such a read, which would abandon the whole check; here it is UNKNOWN instead.
 */
const UNKNOWN = Symbol("unknown");
function read(props: Record<string, unknown>, name: string): unknown {
  try {
    return props[name];
  } catch (e) {
    if (e instanceof UnknownValueError) return UNKNOWN;
    throw e;
  }
}

interface ProductionFromBetaConfig {
  productionChannelIds: string[];
  betaChannelIds?: string[];
  betaVersionIds?: string[];
}

/** What a ReleaseChannelVersion delivers: a version, or one bundle of the app. */
function delivery(props: Record<string, unknown>) {
  const versionId = read(props, "versionId");
  const bundleId = read(props, "bundleId");
  return versionId === undefined || versionId === null
    ? { what: "bundle", id: bundleId, property: "bundleId" }
    : { what: "version", id: versionId, property: "versionId" };
}

/**
 * The rule's memory of one run. The engine starts the pack for each preview or update and asks it about every
 * resource as the program registers it, before that resource's step: a Beta delivery registered earlier in the
 * run is remembered so that a Production delivery registered after it may name the same build, and a Production
 * delivery judged there is not judged again by the stack check at the end of the run.
 */
const seen = { onBeta: new Set<string>(), judged: new Set<string>() };

function productionViolation(
  name: string,
  channelId: string,
  target: { what: string; id: unknown; property: string },
  { betaChannelIds = [] }: ProductionFromBetaConfig,
) {
  const build = known(target.id) ? `${target.what} ${target.id}` : `a ${target.what} this program creates`;
  return (
    `${name} moves a Production channel to ${build} (channel ${channelId}), which no Beta channel ` +
    `(${betaChannelIds.join(", ") || "none in betaChannelIds"}) delivers: put it on Beta first, with a ` +
    `ReleaseChannelVersion on a Beta channel that this one follows (${target.property}: <beta>.${target.property}), ` +
    "or list it in betaVersionIds once Beta ships it."
  );
}

/**
 * A Production channel gets only a build Beta had. A policy sees the program's resources, never the
 * organization: "Beta had it" is either declared in the stack (a ReleaseChannelVersion on a Beta channel) or
 * said in the config (betaVersionIds: what Beta ships or shipped, from getReleaseChannel or the portal).
 *
 * Two checks, because a stack policy runs only after every step of an update: an `up` without a preview
 * (`--skip-preview`, the Automation API) would move the channel first and fail afterwards. So each
 * ReleaseChannelVersion is judged as it registers, before its step; the stack check at the end judges only what
 * that could not (a build still unknown during a preview, e.g. an AppVersion created by the same program, matched
 * through the resource it comes from).
 */
export const productionFromBeta: ResourceValidationPolicy & Pick<StackValidationPolicy, "validateStack"> = {
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
  validateResource: (args, reportViolation) => {
    if (!isKind(args.type, "ReleaseChannelVersion")) return;
    const config = args.getConfig<ProductionFromBetaConfig>();
    const channelId = read(args.props, "releaseChannelId");
    const target = delivery(args.props);
    if (!known(channelId) || !known(target.id)) return; // unknown in a preview: the stack check judges it
    if (config.betaChannelIds?.includes(channelId)) seen.onBeta.add(target.id);
    if (!config.productionChannelIds.includes(channelId)) return;
    seen.judged.add(args.urn);
    if (config.betaVersionIds?.includes(target.id) || seen.onBeta.has(target.id)) return;
    reportViolation(productionViolation(args.name, channelId, target, config));
  },
  validateStack: (args, reportViolation) => {
    const config = args.getConfig<ProductionFromBetaConfig>();
    const { productionChannelIds, betaChannelIds = [], betaVersionIds = [] } = config;
    const deliveries = ofKind(args.resources, "ReleaseChannelVersion").map((r) => ({
      r,
      channelId: read(r.props, "releaseChannelId"),
      target: delivery(r.props),
    }));
    /** The resources a delivery's build comes from (an AppVersion, another channel's delivery), by URN. */
    const sources = ({ r, target }: (typeof deliveries)[number]) =>
      (r.propertyDependencies[target.property] ?? []).map((d) => d.urn);
    const beta = deliveries.filter((d) => known(d.channelId) && betaChannelIds.includes(d.channelId));
    const onBeta = new Set<unknown>([...betaVersionIds, ...beta.map((d) => d.target.id).filter(known)]);
    // A Beta delivery (and what it comes from) is a source only of the same property: once the ids are known,
    // validateResource counts a Beta bundle by its id, so a Production `versionId` that follows the bundle's
    // build (`<beta>.versionId`, `bundle.versionId`) is refused then, and so here.
    const betaSources = (property: string) =>
      new Set(beta.filter((d) => d.target.property === property).flatMap((d) => [d.r.urn, ...sources(d)]));
    for (const d of deliveries) {
      if (seen.judged.has(d.r.urn) || !known(d.channelId) || !productionChannelIds.includes(d.channelId))
        continue;
      if (d.target.id === undefined || d.target.id === null) continue; // neither given: the provider's check refuses it
      const fromBeta = betaSources(d.target.property);
      if (known(d.target.id) ? onBeta.has(d.target.id) : sources(d).some((urn) => fromBeta.has(urn)))
        continue;
      reportViolation(productionViolation(d.r.name, d.channelId, d.target, config), d.r.urn);
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
