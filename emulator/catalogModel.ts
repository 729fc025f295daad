/**
 * Stored records of tags, app versions, bundles and bundle files. What an organization starts with is seeded in
 * catalogSeed.ts.
 */
import type { AppBuild, Checksum, Timestamps } from "./model";

export interface Tag extends Timestamps {
  id: string;
  name: string;
}

/** One build of an app (GetAppVersions' items). */
export interface AppVersion extends AppBuild {
  appId: string;
  /** An uploaded build: when its complete was applied (emulator clock) and why it fails (appBuilds.ts). */
  processing?: { completedAtMs: number; failure: string | null };
  /** An uploaded build's stored bytes (emulator/uploads.ts), which its `downloadUrl` signs. */
  objectKey?: string;
}

/** An app bundle: the version a release channel delivers, with its install-time companions. */
export interface AppBundle extends Timestamps {
  id: string;
  appId: string;
  versionId: string;
  /** "First bundle has no label, subsequent bundles get 'Original' and 'Copy N' labels" (OpenAPI). */
  label: string | null;
  /** Absent in seeded bundles and older state files: available. A bundle made by POST /app-bundles is pending. */
  status?: AppBundleStatus;
  /** The bundle's data files and the folder each goes to on devices; absent: none. */
  files?: { fileId: string; path: string }[];
  /** When a processing bundle becomes available (emulator clock). */
  availableAt?: string;
  /** Its processing ends in `failed` at `availableAt` (fault `failBundleProcessing`). */
  failsProcessing?: boolean;
}

export type AppBundleStatus = "pending" | "processing" | "available" | "failed";

/** Processing time of a finalized bundle under the `slowBundleProcessing` switch (emulator clock). */
export const BUNDLE_PROCESSING_MS = 60_000;

/** A bundle's status at `now` (emulator clock): processing until its `availableAt`, then available (or failed). */
export function bundleStatus(bundle: AppBundle, now: string): AppBundleStatus {
  const status = bundle.status ?? "available";
  if (status !== "processing" || bundle.availableAt === undefined || now < bundle.availableAt) return status;
  return bundle.failsProcessing ? "failed" : "available";
}

/** A data file uploaded for an app's bundles (`POST /files` with `appBundleId`): not among the organization's files. */
export interface AppFile extends Timestamps {
  id: string;
  appId: string;
  filename: string;
  location: string;
  sizeBytes: number;
  checksum: Checksum;
}
