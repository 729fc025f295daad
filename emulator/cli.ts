#!/usr/bin/env node
/** `devicemgmt-emulator` / `npm run emulator`: run the v3 emulator in the foreground. */
import { parseArgs } from "node:util";
import { IMAGE_TYPES } from "./experienceModel";
import { startEmulator } from "./index";
import type { EmulatorOptions, StrictOptions } from "./types";

/** The on/off switches (`uploadedImageType` names a type: `--uploaded-image-type`). */
type OnOffSwitch = Exclude<keyof StrictOptions, "uploadedImageType">;

/** `--strict-experience NAME` values and the switch each turns on (emulator/README.md, Strictness switches). */
const EXPERIENCE_SWITCHES: Record<string, OnOffSwitch> = {
  "unset-not-found": "unsetExperienceNotFound",
  "drop-on-group-join": "dropDeviceExperienceOnGroupJoin",
  "withhold-admin-pin": "withholdAdminPin",
  "reject-unused-fields": "rejectUnusedExperienceFields",
  "sort-lists": "sortExperienceLists",
  "reject-deleting-used-theme": "rejectDeletingUsedTheme",
  "unique-theme-names": "uniqueThemeNames",
  "lowercase-theme-colors": "lowercaseThemeColors",
  "no-meta-hms-devices": "noMetaHmsDevices",
};

/** `--strict-catalog NAME` values: tags, content attachments, sharing, apps (emulator/README.md, Strictness switches). */
const CATALOG_SWITCHES: Record<string, OnOffSwitch> = {
  "merge-device-tags-on-put": "mergeDeviceTagsOnPut",
  "reject-unknown-tags": "rejectUnknownTags",
  "reject-repeated-tag-attach": "rejectRepeatedTagAttach",
  "ignore-repeated-content-attach": "ignoreRepeatedContentAttach",
  "repeat-share-is-no-op": "repeatShareIsNoOp",
  "list-group-content": "listGroupContent",
  "audit-attachments-by-item": "auditAttachmentsByItem",
  "unique-app-names": "uniqueAppNames",
  "default-app-models-to-supported": "defaultAppModelsToSupported",
  "merge-app-tags-on-put": "mergeAppTagsOnPut",
  "merge-video-tags-on-put": "mergeVideoTagsOnPut",
  "keep-empty-app-description": "keepEmptyAppDescription",
  "replace-keeps-file-id": "replaceKeepsFileId",
  "uploads-leave-bundle": "uploadsLeaveBundle",
  "slow-bundle-processing": "slowBundleProcessing",
  "require-conflict-strategy": "requireConflictStrategy",
  "s3-part-sizes": "s3PartSizes",
  "file-download-urls": "fileDownloadUrls",
  "presign-answers-url": "presignAnswersUrl",
  "build-status-reasons": "buildStatusReasons",
};

function catalogSwitches(names: string[] | undefined, all: boolean | undefined): StrictOptions {
  const chosen: StrictOptions = {};
  for (const name of all ? Object.keys(CATALOG_SWITCHES) : (names ?? [])) {
    const key = CATALOG_SWITCHES[name];
    if (!key) throw new Error(`--strict-catalog: unknown switch "${name}"`);
    chosen[key] = true;
  }
  return chosen;
}

function experienceSwitches(names: string[] | undefined, all: boolean | undefined): StrictOptions {
  const chosen: StrictOptions = {};
  for (const name of names ?? []) {
    const key = EXPERIENCE_SWITCHES[name];
    if (!key) throw new Error(`--strict-experience: unknown switch "${name}"`);
    chosen[key] = true;
  }
  if (all) for (const key of Object.values(EXPERIENCE_SWITCHES)) chosen[key] = true;
  return chosen;
}

const USAGE = `usage: devicemgmt-emulator [options]
  --host HOST                 address to bind (default 127.0.0.1)
  --port PORT                 port (default 4010; 0 = any free port)
  --state FILE                persist state in FILE (survives restarts); no disk I/O without it
  --admin-token TOKEN         token for the /_emulator control endpoints (default: random, printed)
  --rate-limit N              requests per window per organization (default 2000)
  --rate-window-ms MS         rate-limit window (default 60000)
  --max-per-page N            largest accepted per_page (default 100)
  --seed-devices N            devices seeded per organization (default 8; ignored with an existing --state)
  --latency-ms MS             fault: added latency per /api request
  --error-rate R              fault: share (0..1) of /api requests answered 500/502/503
  --rate-limit-burst E:L      fault: of every E requests, the last L get 429
  --drop-before-write-rate R  fault: share of writes whose connection is dropped before applying
  --drop-after-write-rate R   fault: share of writes whose connection is dropped after applying
  --fault-seed N              seed of the fault dice (default 1)
  --strict-invitations        invitations stay pending until POST /_emulator/invitations/accept
  --strict-role-attach        re-attaching a group role the user has answers 422 (default: no-op 200)
  --strict-experience NAME    an experience switch (repeatable), one of: unset-not-found,
                              drop-on-group-join, withhold-admin-pin, reject-unused-fields, sort-lists,
                              reject-deleting-used-theme, unique-theme-names, lowercase-theme-colors,
                              no-meta-hms-devices
  --strict-catalog NAME       a tag, content, sharing or app switch (repeatable), one of:
                              merge-device-tags-on-put, reject-unknown-tags, reject-repeated-tag-attach,
                              ignore-repeated-content-attach, repeat-share-is-no-op, list-group-content,
                              audit-attachments-by-item, unique-app-names,
                              default-app-models-to-supported, merge-app-tags-on-put,
                              keep-empty-app-description, replace-keeps-file-id,
                              require-conflict-strategy, s3-part-sizes, merge-video-tags-on-put
  --strict-no-retry-after     a rate-limit 429 carries no Retry-After or X-RateLimit-Reset
  --rollout-duration-ms MS    simulated rollouts: devices install within MS of a version change (default 60000)
  --upload-url-lifetime S     pre-signed upload URLs expire S seconds after pre-sign (default 3600)
  --uploaded-image-type TYPE  the type an uploaded image gets (default unknown, which every image slot takes)
  --strict                    all of the above, and --max-per-page 25 unless given
  --help                      show this help`;

/** The page-size maximum of `--strict`: small enough that paging adaptation is exercised. */
const STRICT_MAX_PER_PAGE = 25;

function number(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`--${name} needs a number, got "${value}"`);
  return n;
}

function parseBurst(value: string | undefined): { every: number; length: number } | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+):(\d+)$/.exec(value);
  if (!match) throw new Error(`--rate-limit-burst needs EVERY:LENGTH, got "${value}"`);
  return { every: Number(match[1]), length: Number(match[2]) };
}

function uploadedImageType(value: string | undefined): Pick<StrictOptions, "uploadedImageType"> {
  if (value === undefined) return {};
  const type = IMAGE_TYPES.find((t) => t === value);
  if (!type) throw new Error(`--uploaded-image-type: one of ${IMAGE_TYPES.join(", ")}, got "${value}"`);
  return { uploadedImageType: type };
}

export function optionsFromArgs(args: string[]): EmulatorOptions | "help" {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      state: { type: "string" },
      "admin-token": { type: "string" },
      "rate-limit": { type: "string" },
      "rate-window-ms": { type: "string" },
      "max-per-page": { type: "string" },
      "seed-devices": { type: "string" },
      "latency-ms": { type: "string" },
      "error-rate": { type: "string" },
      "rate-limit-burst": { type: "string" },
      "drop-before-write-rate": { type: "string" },
      "drop-after-write-rate": { type: "string" },
      "fault-seed": { type: "string" },
      "strict-invitations": { type: "boolean" },
      "strict-role-attach": { type: "boolean" },
      "strict-experience": { type: "string", multiple: true },
      "strict-catalog": { type: "string", multiple: true },
      "strict-no-retry-after": { type: "boolean" },
      "rollout-duration-ms": { type: "string" },
      "upload-url-lifetime": { type: "string" },
      "uploaded-image-type": { type: "string" },
      strict: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) return "help";
  const faults: EmulatorOptions["faults"] = {};
  const latencyMs = number("latency-ms", values["latency-ms"]);
  const errorRate = number("error-rate", values["error-rate"]);
  const burst = parseBurst(values["rate-limit-burst"]);
  const dropBefore = number("drop-before-write-rate", values["drop-before-write-rate"]);
  const dropAfter = number("drop-after-write-rate", values["drop-after-write-rate"]);
  const seed = number("fault-seed", values["fault-seed"]);
  if (latencyMs !== undefined) faults.latencyMs = latencyMs;
  if (errorRate !== undefined) faults.errorRate = errorRate;
  if (burst !== undefined) faults.rateLimitBurst = burst;
  if (dropBefore !== undefined) faults.dropBeforeWriteRate = dropBefore;
  if (dropAfter !== undefined) faults.dropAfterWriteRate = dropAfter;
  if (seed !== undefined) faults.seed = seed;

  const limit = number("rate-limit", values["rate-limit"]);
  const windowMs = number("rate-window-ms", values["rate-window-ms"]);
  const devices = number("seed-devices", values["seed-devices"]);
  const rolloutDurationMs = number("rollout-duration-ms", values["rollout-duration-ms"]);
  return {
    host: values.host ?? "127.0.0.1",
    port: number("port", values.port) ?? 4010,
    statePath: values.state,
    adminToken: values["admin-token"],
    rateLimit:
      limit !== undefined || windowMs !== undefined
        ? { limit: limit ?? 2000, windowMs: windowMs ?? 60_000 }
        : undefined,
    maxPerPage:
      number("max-per-page", values["max-per-page"]) ?? (values.strict ? STRICT_MAX_PER_PAGE : undefined),
    strict: {
      pendingInvitations: Boolean(values.strict || values["strict-invitations"]),
      rejectRepeatedRoleAttach: Boolean(values.strict || values["strict-role-attach"]),
      ...experienceSwitches(values["strict-experience"], values.strict),
      ...catalogSwitches(values["strict-catalog"], values.strict),
      noRetryAfter: Boolean(values.strict || values["strict-no-retry-after"]),
      ...uploadedImageType(values["uploaded-image-type"]),
    },
    uploadUrlLifetimeSeconds: number("upload-url-lifetime", values["upload-url-lifetime"]),
    rollouts: rolloutDurationMs !== undefined ? { durationMs: rolloutDurationMs } : undefined,
    seed: devices !== undefined ? { devices } : undefined,
    faults,
    quiet: false,
  };
}

async function main(): Promise<void> {
  let options: EmulatorOptions | "help";
  try {
    options = optionsFromArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options === "help") {
    console.log(USAGE);
    return;
  }
  const emulator = await startEmulator(options);
  const stop = () => {
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`emulator failed to start: ${(error as Error).message}`);
    process.exit(1);
  });
}
