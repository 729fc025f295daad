/**
 * The AppVersion kind's properties, declared once (framework/properties.ts). The build's identity is its
 * SHA-256 (`sha256`, computed by check from `source`, compared with the checksum the API answers): the diff
 * compares the hash, never the local path. The API changes nothing of a build after its upload (there is no
 * operation that would), so every declared property but the local path replaces.
 */
import { z } from "zod";
import type { AppBuild } from "../../client";
import {
  uuid,
  carried,
  type PropertySpecs,
  type StateOf,
  defineIdentity,
  byProperties,
} from "../../framework";

export const appVersionProperties = {
  appId: {
    schema: uuid("appId"),
    // A build belongs to one app for good.
    change: "replace",
  },
  source: {
    schema: z
      .string({
        error: "source is required: the path of the .apk to upload (relative to the program's folder)",
      })
      .trim()
      .min(1, { error: "source must not be empty: give the path of the .apk to upload" }),
    // Read only by create, never compared: where the bytes are on this machine says nothing about the build.
    change: "createOnly",
  },
  versionName: {
    schema: z
      .string({
        error: 'versionName is required: the build\'s version as channels and devices show it, e.g. "2.4.0"',
      })
      .trim()
      .min(1, { error: 'versionName must not be empty: the build\'s version, e.g. "2.4.0"' })
      .max(255, { error: "versionName must be at most 255 characters" }),
    // Given with the upload only: the API renames no build.
    change: "replace",
    fromLive: (live: AppBuild) => live.version ?? null,
  },
  releaseNotes: {
    schema: z
      .string({ error: "releaseNotes must be a string (or left out)" })
      .max(65_535, { error: "releaseNotes must be at most 65535 characters" })
      .optional(),
    // Given with the upload only, and read back by nothing the API answers: never compared with the live build.
    // A change is an update that sends nothing (handler.ts says so): replacing would find the same build by its
    // hash, take it over unchanged and then "forget" it as the old resource, which reads as a lost build.
    change: "update",
  },
  sha256: {
    // Computed by check from source. Declared, it pins the build: a source with another hash fails check.
    schema: z
      .string({ error: "sha256 must be a string: the SHA-256 (64 hex digits) the source must have" })
      .trim()
      .regex(/^[0-9a-fA-F]{64}$/, { error: "sha256 must be 64 hex digits (a SHA-256), or left out" })
      .transform((v) => v.toLowerCase())
      .optional(),
    change: "replace",
    fromLive: (live: AppBuild) => live.checksum?.value.toLowerCase() ?? null,
    equal: (a: unknown, b: unknown) =>
      typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b,
  },
  ...carried,
} satisfies PropertySpecs<AppBuild>;

export type AppVersionProperties = typeof appVersionProperties;
export type AppVersionState = StateOf<AppVersionProperties>;

/**
 * Who the AppVersion kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const appVersionIdentity = defineIdentity({
  kind: "appVersion",
  type: "AppVersion",
  // Builds of one hash are taken over, not made twice; nothing is deleted, so no delete-first replacement.
  naturalKey: false,
  properties: appVersionProperties,
  // A build of an app by its content: one resource per build (another would take over the same one).
  claim: {
    property: "sha256",
    keys: byProperties(["appId", "sha256"]),
    describe: (p) => `the build of app ${String(p.appId)} with SHA-256 ${String(p.sha256)}`,
  },
});
