/**
 * App bundles (OpenAPI tag "App Bundles"): a build of an app plus data files with their device folders, made
 * pending, filled, then finalized. `POST /app-bundles` (`appBuildId`, optional `files: [{fileId, path}]`) makes a
 * pending bundle; `POST /files` with `appBundleId` uploads a data file into it (routes/uploads.ts hands the
 * complete here: `completeBundleFile`); `POST /app-bundles/{id}/files` adds files already uploaded for the app;
 * `POST /app-bundles/{id}/finalize` closes it; `PATCH /app-bundles/{id}` sets or removes its `label`;
 * `GET /app-bundles/{id}` and `…/files` read it; `GET /apps/{appId}/files?sha512[]=` finds the app's bundle files
 * by checksum (so a client reuses what it uploaded before). The app's bundle list is in routes/releases.ts.
 *
 * The emulator's reading where the documents are silent:
 * - An upload with `appBundleId` puts the file into the bundle at its path (switch `uploadsLeaveBundle`: it only
 *   makes the app's file, which `POST /app-bundles/{id}/files` then adds).
 * - A bundle file is not one of the organization's files (`GET /files` does not list it, GroupFile cannot attach
 *   it): "bundled files for an app" are listed per app. Its id is the upload's, as a file's is.
 * - A file's `path` in a bundle is a folder, as `POST /files`'s `path` is (the OpenAPI's example
 *   "/sdcard/custom"); absent, the file's own folder. `bundlePaths` are folder + "/" + the file's name.
 * - Auto labels count the bundles of the same build: the first has none, the second gets "Original", the third
 *   "Copy 1", and so on. A label is 1..60 characters after trimming; "" removes it (Laravel reads "" as null);
 *   labels need not be unique.
 * - A finalized bundle (any status but pending) takes no more files, by either route (422). Finalize refuses a
 *   bundle with a data file still uploading (its upload initiated, not completed); it answers `processing`, and
 *   the emulator's processing takes no time (the next read says `available`; switch `slowBundleProcessing`: a
 *   minute of the emulator clock).
 * - Writes need `RELEASE_CHANNEL__MANAGE` organization-wide (the permission the emulator's app writes take;
 *   the catalogue has no bundle permission), reads `APP__VIEW`. A bundle or app of another organization is 404.
 * - `releaseChannelId` / `newReleaseChannelTitle` (attach the new bundle to a channel) are not modelled: 422
 *   naming the field (the release channel's own PUT takes a `bundleId`).
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { BUNDLE_PROCESSING_MS, type AppBundle, type AppFile } from "../catalogModel";
import { created, ok, type RequestContext, type RouteDefinition } from "../context";
import { FieldErrorCollector, invalid, notFound, parseOrThrow } from "../errors";
import type { PendingUpload } from "../uploads";
import { bundleView, findApp } from "./releases";

const fileEntry = z.object({ fileId: z.guid(), path: z.string().trim().min(1).max(1024).optional() });

const createBody = z.object({
  appBuildId: z.guid(),
  files: z.array(fileEntry).optional(),
  releaseChannelId: z.guid().optional(),
  newReleaseChannelTitle: z.string().optional(),
});

const addFilesBody = z.object({ files: z.array(fileEntry).min(1) });

const updateBody = z.object({
  label: z
    .string()
    .trim()
    .max(60)
    .nullable()
    .transform((v) => (v === "" ? null : v)),
});

/** `sha512[]`: 1..10 checksums (a PHP-style array parameter). */
const filesQuery = z.object({
  sha512: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(z.array(z.string().min(1)).min(1).max(10))
    .optional(),
});

function findBundle(ctx: RequestContext): AppBundle {
  const bundle = ctx.org.appBundles.get(ctx.params.appBundleId.toLowerCase());
  if (!bundle) throw notFound();
  return bundle;
}

/** A device folder without its trailing slash ("/" stays). */
const folder = (path: string) => path.replace(/(.)\/+$/, "$1");

/** GetAppFiles' item: a bundle file as the app's list shows it (no tags, reaches no device by itself). */
export function appFileView(file: AppFile) {
  return {
    id: file.id,
    filename: file.filename,
    location: file.location,
    sizeBytes: file.sizeBytes,
    checksum: file.checksum,
    tags: [],
    deviceStatuses: [],
    createdAt: file.createdAt,
    updatedAt: file.updatedAt,
  };
}

/** GetAppBundleFiles' item: the file, and where this bundle puts it. */
function bundleFileView(file: AppFile, folders: string[]) {
  return {
    id: file.id,
    name: file.filename,
    location: file.location,
    bundlePaths: folders.map((f) => `${f === "/" ? "" : f}/${file.filename}`),
    sizeBytes: file.sizeBytes,
    checksum: file.checksum,
    createdAt: file.createdAt,
    updatedAt: file.updatedAt,
  };
}

/** The entries as the bundle keeps them: each a bundle file of `appId` (422 naming the entry otherwise). */
function resolveEntries(
  ctx: RequestContext,
  appId: string,
  entries: readonly { fileId: string; path?: string }[],
): { fileId: string; path: string }[] {
  const errors = new FieldErrorCollector();
  const resolved = entries.map((entry, i) => {
    const file = ctx.org.appFiles.get(entry.fileId.toLowerCase());
    if (!file || file.appId !== appId) errors.add(`files.${i}.fileId`, "The selected file id is invalid.");
    return { fileId: entry.fileId.toLowerCase(), path: folder(entry.path ?? file?.location ?? "/") };
  });
  errors.throwIfAny();
  return resolved;
}

/** A finalized bundle takes no more files (the field named is the one the caller sent the bundle in). */
export function requirePending(bundle: AppBundle, field: string): void {
  if ((bundle.status ?? "available") !== "pending")
    throw invalid(field, "The app bundle is already finalized: it takes no more files.");
}

/** Adds entries to the bundle; an entry for a file and folder it already has changes nothing. */
function addEntries(bundle: AppBundle, entries: readonly { fileId: string; path: string }[]): void {
  const files = (bundle.files ??= []);
  for (const entry of entries)
    if (!files.some((f) => f.fileId === entry.fileId && f.path === entry.path)) files.push(entry);
}

/**
 * The complete of `POST /files` with `appBundleId` (routes/uploads.ts): the bytes become a data file of the
 * bundle's app, in the bundle at the folder the upload named.
 */
export function completeBundleFile(
  ctx: RequestContext,
  upload: PendingUpload,
  received: Pick<AppFile, "checksum" | "sizeBytes">,
): ReturnType<typeof appFileView> {
  const bundle = ctx.org.appBundles.get(String(upload.details.appBundleId));
  if (!bundle) throw invalid("appBundleId", "The selected app bundle id is invalid.");
  const file: AppFile = {
    id: upload.id,
    appId: bundle.appId,
    filename: upload.details.filename as string,
    location: upload.details.location as string,
    ...received,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  ctx.org.appFiles.insert(file);
  // Under `uploadsLeaveBundle` the file is only the app's until `POST /app-bundles/{id}/files` adds it.
  if (!ctx.services.strict.uploadsLeaveBundle)
    addEntries(bundle, [{ fileId: file.id, path: folder(file.location) }]);
  bundle.updatedAt = ctx.now;
  ctx.audit({
    type: "created",
    action: "create-app-bundle-file",
    resourceType: "app-bundle",
    resourceId: bundle.id,
    resourceName: bundle.label,
    description: `Uploaded file '${file.filename}' into an app bundle.`,
  });
  return appFileView(file);
}

/** Pending uploads of files into this bundle (initiated, not completed). */
function uploadsInto(ctx: RequestContext, bundle: AppBundle): PendingUpload[] {
  return ctx.services.uploads
    .pendingOf(ctx.org.org.id)
    .filter((u) => u.kind === "files" && u.details.appBundleId === bundle.id);
}

/** The auto label of a build's next bundle, from how many it has. */
function autoLabel(existing: number): string | null {
  return existing === 0 ? null : existing === 1 ? "Original" : `Copy ${existing - 1}`;
}

export const appBundleRoutes: RouteDefinition[] = [
  {
    method: "POST",
    path: "/app-bundles",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("RELEASE_CHANNEL__MANAGE");
      const body = parseOrThrow(createBody, ctx.body);
      const errors = new FieldErrorCollector();
      if (body.releaseChannelId !== undefined && body.newReleaseChannelTitle !== undefined)
        errors.add("releaseChannelId", "The release channel id field prohibits new release channel title.");
      for (const field of ["releaseChannelId", "newReleaseChannelTitle"] as const)
        if (body[field] !== undefined)
          errors.add(
            field,
            `The emulator does not model ${field}: set the channel's bundle with its own PUT.`,
          );
      const version = ctx.org.appVersions.get(body.appBuildId.toLowerCase());
      if (!version) errors.add("appBuildId", "The selected app build id is invalid.");
      errors.throwIfAny();
      const build = version as NonNullable<typeof version>;
      const entries = resolveEntries(ctx, build.appId, body.files ?? []);
      const siblings = ctx.org.appBundles.list().filter((b) => b.versionId === build.id).length;
      const bundle: AppBundle = {
        id: randomUUID(),
        appId: build.appId,
        versionId: build.id,
        label: autoLabel(siblings),
        status: "pending",
        files: [],
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      addEntries(bundle, entries);
      ctx.org.appBundles.insert(bundle);
      ctx.audit({
        type: "created",
        action: "create-app-bundle",
        resourceType: "app-bundle",
        resourceId: bundle.id,
        resourceName: bundle.label,
        description: `Created an app bundle of version '${build.version ?? build.id}'.`,
      });
      return created(bundleView(ctx, bundle));
    },
  },
  {
    method: "GET",
    path: "/app-bundles/:appBundleId",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("APP__VIEW");
      return ok(bundleView(ctx, findBundle(ctx)));
    },
  },
  {
    method: "PATCH",
    path: "/app-bundles/:appBundleId",
    auth: "user",
    handler: (ctx) => {
      const bundle = findBundle(ctx);
      ctx.access.require("RELEASE_CHANNEL__MANAGE");
      if (!("label" in ctx.body)) throw invalid("label", "The label field must be present.");
      const { label } = parseOrThrow(updateBody, ctx.body);
      if (label === bundle.label) return ok(bundleView(ctx, bundle));
      const before = bundle.label;
      bundle.label = label;
      bundle.updatedAt = ctx.now;
      ctx.audit({
        type: "updated",
        action: "update-app-bundle",
        resourceType: "app-bundle",
        resourceId: bundle.id,
        resourceName: label,
        description: `Changed an app bundle's label from '${before ?? ""}' to '${label ?? ""}'.`,
      });
      return ok(bundleView(ctx, bundle));
    },
  },
  {
    method: "GET",
    path: "/app-bundles/:appBundleId/files",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("APP__VIEW");
      const bundle = findBundle(ctx);
      const folders = new Map<string, string[]>();
      for (const entry of bundle.files ?? [])
        folders.set(entry.fileId, [...(folders.get(entry.fileId) ?? []), entry.path]);
      const files = [...folders.keys()]
        .map((id) => ctx.org.appFiles.get(id))
        .filter((f): f is AppFile => f !== undefined)
        .sort((a, b) =>
          a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? -1 : 1,
        );
      return ok(ctx.page(files, (f) => bundleFileView(f, folders.get(f.id) ?? [])));
    },
  },
  {
    method: "POST",
    path: "/app-bundles/:appBundleId/files",
    auth: "user",
    handler: (ctx) => {
      const bundle = findBundle(ctx);
      ctx.access.require("RELEASE_CHANNEL__MANAGE");
      const body = parseOrThrow(addFilesBody, ctx.body);
      requirePending(bundle, "files");
      addEntries(bundle, resolveEntries(ctx, bundle.appId, body.files));
      bundle.updatedAt = ctx.now;
      ctx.audit({
        type: "updated",
        action: "update-app-bundle",
        resourceType: "app-bundle",
        resourceId: bundle.id,
        resourceName: bundle.label,
        description: `Added ${body.files.length} file(s) to an app bundle.`,
      });
      return created(bundleView(ctx, bundle));
    },
  },
  {
    method: "POST",
    path: "/app-bundles/:appBundleId/finalize",
    auth: "user",
    handler: (ctx) => {
      const bundle = findBundle(ctx);
      ctx.access.require("RELEASE_CHANNEL__MANAGE");
      requirePending(bundle, "status");
      if (uploadsInto(ctx, bundle).length > 0)
        throw invalid("files", "The app bundle has files that are still being uploaded.");
      // Processing takes no time, or a minute of the emulator clock under `slowBundleProcessing`; it ends in
      // `failed` under the fault `failBundleProcessing`.
      const fails = ctx.services.uploads.failBundleProcessing();
      if (ctx.services.strict.slowBundleProcessing) {
        bundle.status = "processing";
        bundle.availableAt = new Date(Date.parse(ctx.now) + BUNDLE_PROCESSING_MS).toISOString();
        if (fails) bundle.failsProcessing = true;
      } else bundle.status = fails ? "failed" : "available";
      bundle.updatedAt = ctx.now;
      ctx.audit({
        type: "updated",
        action: "finalize-app-bundle",
        resourceType: "app-bundle",
        resourceId: bundle.id,
        resourceName: bundle.label,
        description: "Finalized an app bundle.",
      });
      // What the finalize answers: processing (which the emulator does at once: the next read is available).
      return ok({ ...bundleView(ctx, bundle), status: "processing" });
    },
  },
  {
    method: "GET",
    path: "/apps/:appId/files",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("APP__VIEW");
      const app = findApp(ctx);
      const { sha512 } = parseOrThrow(filesQuery, { sha512: ctx.query["sha512[]"] });
      const wanted = sha512 && new Set(sha512.map((s) => s.toLowerCase()));
      const files = ctx.org.appFiles
        .list()
        .filter((f) => f.appId === app.id && (!wanted || wanted.has(f.checksum.value.toLowerCase())));
      return ok(ctx.page(files, appFileView));
    },
  },
];
