/**
 * A faithful local emulator of the device-management REST API v3 — test backend, demo target and sandbox.
 * See emulator/README.md for the seeded organizations, tokens, roles, limits and fault injection.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { controlRoutes } from "./control";
import { FaultInjector } from "./faults";
import { DEFAULT_MAX_PER_PAGE, pageQuerySchema } from "./pagination";
import { readStateFile, StateFile } from "./persistence";
import { DEFAULT_RATE_LIMIT, FixedWindowRateLimiter } from "./rateLimit";
import { appBundleRoutes } from "./routes/appBundles";
import { appRoutes } from "./routes/apps";
import { auditRoutes } from "./routes/audit";
import { catalogRoutes } from "./routes/catalog";
import { deviceContentRoutes, groupContentListRoutes } from "./routes/deviceContent";
import { deviceRoutes } from "./routes/devices";
import { experienceRoutes } from "./routes/experience";
import { groupRoutes } from "./routes/groups";
import { metaRoutes } from "./routes/meta";
import { releaseRoutes } from "./routes/releases";
import { sharingRoutes } from "./routes/sharing";
import { tagRoutes } from "./routes/tags";
import { themeRoutes } from "./routes/themes";
import { imageUploadRoutes } from "./routes/imageUploads";
import { uploadRoutes } from "./routes/uploads";
import { videoRoutes } from "./routes/videos";
import { appVersionUploadRoutes } from "./routes/appVersionUploads";
import { userRoutes } from "./routes/users";
import { SEED_ORGS, SEED_TOKEN_RECORDS, SEED_TOKENS, seedState } from "./seed";
import { API_V3_PREFIX, buildServer } from "./server";
import { snapshotOf } from "./snapshot";
import { StatsCollector } from "./stats";
import { Store } from "./store";
import type { EmulatorOptions, PendingInvitation, RunningEmulator } from "./types";
import { DEFAULT_URL_LIFETIME_SECONDS, Uploads } from "./uploads";

export type * from "./types";
export { PERMISSIONS, SYSTEM_ROLES, type Permission } from "./permissions";

/** Every /api operation the emulator serves. */
export const API_ROUTES = [
  ...metaRoutes,
  ...userRoutes,
  ...groupRoutes,
  ...deviceRoutes,
  ...deviceContentRoutes,
  ...catalogRoutes,
  ...uploadRoutes,
  ...videoRoutes,
  ...appVersionUploadRoutes,
  ...imageUploadRoutes,
  ...appRoutes,
  ...sharingRoutes,
  ...tagRoutes,
  ...releaseRoutes,
  ...appBundleRoutes,
  ...auditRoutes,
  ...experienceRoutes,
  ...themeRoutes,
];

/** A one-line description per seeded token, for the start-up banner. */
const TOKEN_DESCRIPTIONS: Record<keyof typeof SEED_TOKENS, string> = {
  admin: "Ada Admin - Admin in acme",
  readOnly: "Rory Reader - Read Only in acme",
  noMigrate: "Dana Manager - Device Manager (no DEVICE__MIGRATE) in acme",
  multiOrgAdmin: "Morgan Multi - Admin in acme (also Admin in acme-staging)",
  multiOrgAdminSecondary: "Morgan Multi - Admin in acme-staging",
  v2: "legacy v2 organization token for acme (refused by v3)",
};

function banner(baseUrl: string, adminToken: string): string {
  const width = Math.max(...Object.keys(SEED_TOKENS).map((k) => k.length));
  const lines = [`listening on ${baseUrl}`, "seeded tokens (Authorization: Bearer <token>):"];
  for (const [key, token] of Object.entries(SEED_TOKENS)) {
    lines.push(`  ${key.padEnd(width)}  ${token}  ${TOKEN_DESCRIPTIONS[key as keyof typeof SEED_TOKENS]}`);
  }
  lines.push(`control endpoint /_emulator admin token: ${adminToken}`);
  return lines.join("\n");
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  const adminToken = options.adminToken ?? randomBytes(20).toString("hex");
  const maxPerPage = options.maxPerPage ?? DEFAULT_MAX_PER_PAGE;
  if (!Number.isInteger(maxPerPage) || maxPerPage < 1)
    throw new Error("maxPerPage must be a positive integer");
  const rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  if (!(rateLimit.limit >= 1) || !(rateLimit.windowMs >= 1))
    throw new Error("rateLimit needs limit >= 1 and windowMs >= 1");

  const saved = options.statePath ? await readStateFile(options.statePath) : undefined;
  const store = new Store(saved ?? seedState(options.seed));
  const stateFile = options.statePath ? new StateFile(options.statePath, () => store.toStored()) : undefined;
  if (stateFile && !saved) await stateFile.commit();
  store.rollouts.update(options.rollouts ?? {});

  const strict = {
    pendingInvitations: options.strict?.pendingInvitations ?? false,
    rejectRepeatedRoleAttach: options.strict?.rejectRepeatedRoleAttach ?? false,
    unsetExperienceNotFound: options.strict?.unsetExperienceNotFound ?? false,
    dropDeviceExperienceOnGroupJoin: options.strict?.dropDeviceExperienceOnGroupJoin ?? false,
    withholdAdminPin: options.strict?.withholdAdminPin ?? false,
    rejectUnusedExperienceFields: options.strict?.rejectUnusedExperienceFields ?? false,
    sortExperienceLists: options.strict?.sortExperienceLists ?? false,
    rejectDeletingUsedTheme: options.strict?.rejectDeletingUsedTheme ?? false,
    uniqueThemeNames: options.strict?.uniqueThemeNames ?? false,
    lowercaseThemeColors: options.strict?.lowercaseThemeColors ?? false,
    noMetaHmsDevices: options.strict?.noMetaHmsDevices ?? false,
    mergeDeviceTagsOnPut: options.strict?.mergeDeviceTagsOnPut ?? false,
    rejectUnknownTags: options.strict?.rejectUnknownTags ?? false,
    rejectRepeatedTagAttach: options.strict?.rejectRepeatedTagAttach ?? false,
    ignoreRepeatedContentAttach: options.strict?.ignoreRepeatedContentAttach ?? false,
    repeatShareIsNoOp: options.strict?.repeatShareIsNoOp ?? false,
    listGroupContent: options.strict?.listGroupContent ?? false,
    auditAttachmentsByItem: options.strict?.auditAttachmentsByItem ?? false,
    uniqueAppNames: options.strict?.uniqueAppNames ?? false,
    defaultAppModelsToSupported: options.strict?.defaultAppModelsToSupported ?? false,
    mergeAppTagsOnPut: options.strict?.mergeAppTagsOnPut ?? false,
    mergeVideoTagsOnPut: options.strict?.mergeVideoTagsOnPut ?? false,
    keepEmptyAppDescription: options.strict?.keepEmptyAppDescription ?? false,
    replaceKeepsFileId: options.strict?.replaceKeepsFileId ?? false,
    uploadsLeaveBundle: options.strict?.uploadsLeaveBundle ?? false,
    slowBundleProcessing: options.strict?.slowBundleProcessing ?? false,
    requireConflictStrategy: options.strict?.requireConflictStrategy ?? false,
    s3PartSizes: options.strict?.s3PartSizes ?? false,
    fileDownloadUrls: options.strict?.fileDownloadUrls ?? false,
    presignAnswersUrl: options.strict?.presignAnswersUrl ?? false,
    buildStatusReasons: options.strict?.buildStatusReasons ?? false,
    noRetryAfter: options.strict?.noRetryAfter ?? false,
    uploadedImageType: options.strict?.uploadedImageType ?? "unknown",
  };
  const invitations = new Map<string, PendingInvitation[]>();
  const limiter = new FixedWindowRateLimiter(rateLimit, options.now ?? Date.now, {
    retryAfter: !strict.noRetryAfter,
  });
  const faults = new FaultInjector(options.faults);
  const stats = new StatsCollector(options.recordRequests ?? false);
  const urlLifetimeSeconds = options.uploadUrlLifetimeSeconds ?? DEFAULT_URL_LIFETIME_SECONDS;
  if (!Number.isInteger(urlLifetimeSeconds) || urlLifetimeSeconds < 1)
    throw new Error("uploadUrlLifetimeSeconds must be a positive integer");
  const uploads = new Uploads({
    host,
    faults,
    clock: store.rollouts,
    urlLifetimeSeconds,
    s3PartSizes: strict.s3PartSizes,
    fileDownloadUrls: strict.fileDownloadUrls,
  });
  const storageUrl = await uploads.start();
  const app = buildServer({
    services: {
      store,
      pageQuery: pageQuerySchema(maxPerPage),
      describeRateLimit: () => limiter.describe(),
      strict,
      invitations,
      uploads,
    },
    tokens: SEED_TOKEN_RECORDS,
    limiter,
    faults,
    stats,
    stateFile,
    // GET /groups/{id}/files and /videos are not operations of the OpenAPI document: only behind their switch.
    routes: strict.listGroupContent ? [...API_ROUTES, ...groupContentListRoutes] : API_ROUTES,
    registerControl: controlRoutes({
      adminToken,
      store,
      primaryOrgId: SEED_ORGS.primary.id,
      faults,
      stats,
      invitations,
    }),
  });

  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (error) {
    await uploads.close();
    throw error;
  }
  const { port } = app.server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const baseUrl = url + API_V3_PREFIX;
  if (options.quiet === false) console.log(banner(baseUrl, adminToken));

  return {
    url,
    baseUrl,
    storageUrl,
    storageRequests: () => uploads.requests(),
    requests: () => stats.recorded(),
    adminToken,
    tokens: { ...SEED_TOKENS },
    orgs: { primary: { ...SEED_ORGS.primary }, secondary: { ...SEED_ORGS.secondary } },
    setFaults: (patch) => void faults.update(patch),
    advanceClock: (ms) => store.rollouts.advance(ms),
    setRollouts: (patch) => store.rollouts.update(patch),
    stats: () => stats.snapshot(faults.stats),
    resetStats: () => {
      stats.reset();
      faults.resetStats();
    },
    snapshot: (orgId) => {
      const key = orgId ?? SEED_ORGS.primary.id;
      const org = store.orgById(key) ?? store.orgBySlug(key);
      if (!org) throw new Error(`no organization ${key} in the emulator`);
      return snapshotOf(org);
    },
    close: async () => {
      await app.close();
      await uploads.close();
      await stateFile?.settle();
    },
  };
}
