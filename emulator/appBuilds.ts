/**
 * The processing of an uploaded app build, on the emulator clock (`advanceClock` moves it): after its complete a
 * build passes through the OpenAPI's statuses, one every `BUILD_STEP_MS`, to `available`, or, when the
 * `failAppBuilds` fault took it, to `error` at `verifying-signature`. `pending` (initiated, not completed) is never
 * listed: the emulator's reading is that a build exists from its complete on, as a file does (documents silent).
 * Seeded builds have no processing record: they are available.
 */
import type { AppVersion } from "./catalogModel";

/** The OpenAPI's twelve statuses of a build, in order; `pending` is before the complete, `error` the end of a failure. */
export const BUILD_STATUSES = [
  "pending",
  "uploaded",
  "downloading-content",
  "parsing-content",
  "verifying-package-name",
  "verifying-version-code",
  "verifying-insights-sdk",
  "verifying-signature",
  "parsing-content-icon",
  "finalizing-build-processing",
  "available",
  "error",
] as const;
export type BuildStatus = (typeof BUILD_STATUSES)[number];

/** How long a build stays in each status after `uploaded` (emulator clock; documents silent). */
export const BUILD_STEP_MS = 200;

/** Where a failed build stops (the reason the fault gives is a signature's). */
const FAILS_AT = BUILD_STATUSES.indexOf("verifying-signature");
const AVAILABLE = BUILD_STATUSES.indexOf("available");

/** The reason a build the `failAppBuilds` fault took ends in `error` with. */
export const FAULT_REASON = "The APK signature could not be verified: the package is not signed.";

/** Where a build stands at `nowMs`, and why it failed (null unless `error`). */
export function buildStatus(
  version: AppVersion,
  nowMs: number,
): { status: BuildStatus; reason: string | null } {
  const processing = version.processing;
  if (processing === undefined) return { status: "available", reason: null };
  const step = 1 + Math.max(0, Math.floor((nowMs - processing.completedAtMs) / BUILD_STEP_MS));
  if (processing.failure !== null && step > FAILS_AT) return { status: "error", reason: processing.failure };
  return { status: BUILD_STATUSES[Math.min(step, AVAILABLE)], reason: null };
}
