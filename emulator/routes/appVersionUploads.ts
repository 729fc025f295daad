/**
 * Uploading app builds (OpenAPI tag "Apps"; the upload protocol of ./uploads.ts): `POST /apps/{appId}/versions`
 * (InitiateAppVersionUpload: `filename`) answers `{key, uploadId, versionId}`; `POST …/{versionId}/pre-sign`
 * answers a URL per part (as `presignedUrl`, the OpenAPI's example and what files answer, or as `url`, its schema,
 * under the `presignAnswersUrl` switch); `POST …/{versionId}/complete` (parts, and the nullable `versionName` and
 * `releaseNotes`) makes the build from the parts received and answers it with the size and SHA-256 of those
 * bytes, in status `uploaded`; it is then processed on the emulator clock to `available`, or to `error` (fault
 * `failAppBuilds`; `statusReason` says why under the `buildStatusReasons` switch): ../appBuilds.ts. The list,
 * with its `sha256[]` filter, is `GET /apps/{appId}/versions` (./releases.ts). All three need `RELEASE_CHANNEL__MANAGE`
 * organization-wide, as making and changing apps do.
 *
 * The emulator's reading where the documents are silent: the file must be an `.apk` (an `.obb` belongs to a
 * bundle); `releaseChannelId`, `newReleaseChannelTitle` and `appBuildType` are not emulated (ignored: promotion
 * is `PUT …/release-channels/{id}`); the emulator does not parse the APK, so the build's version is the
 * `versionName` given (else the file's name without `.apk`), its code one more than the app's highest, and the
 * release notes are kept by nothing it answers; a build may have the same checksum as another (the API does not
 * say it refuses one: a client looks for it by hash first, as the vendor's CLI does); each build gets a bundle of
 * its own (label null), which is what a release channel delivers in this model; a build cannot be deleted.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { BUILD_STEP_MS, FAULT_REASON, buildStatus } from "../appBuilds";
import type { AppBundle, AppVersion } from "../catalogModel";
import { ok, type RequestContext, type RouteDefinition } from "../context";
import { invalid, notFound, parseOrThrow } from "../errors";
import type { App } from "../model";
import { checkParts, completeBody, pendingUpload, presignBody } from "./multipartUpload";

const initiateBody = z.object({ filename: z.string().trim().min(1).max(255) });

const completeVersionBody = completeBody.extend({
  versionName: z.string().trim().min(1).max(255).nullable().optional(),
  releaseNotes: z.string().max(65_535).nullable().optional(),
});

/** A build as `GET /apps/{appId}/versions` lists it (and the complete answers it), its status on the clock. */
export function buildView(ctx: RequestContext, version: AppVersion) {
  const { status, reason } = buildStatus(version, ctx.store.rollouts.nowMs());
  return {
    id: version.id,
    version: version.version,
    code: version.code,
    sizeBytes: version.sizeBytes,
    checksum: version.checksum,
    status,
    ...(status === "error" && ctx.services.strict.buildStatusReasons ? { statusReason: reason } : {}),
    // The OpenAPI's build schema answers one: a signed GET of the bytes uploaded here, null for a seeded build.
    downloadUrl: ctx.services.uploads.signedDownloadUrl(version.objectKey),
    createdAt: version.createdAt,
    updatedAt: version.updatedAt,
  };
}

function findApp(ctx: RequestContext): App {
  const app = ctx.org.apps.get(ctx.params.appId.toLowerCase());
  if (!app) throw notFound();
  return app;
}

/** The pending upload of this app that the path names. */
function pendingBuild(ctx: RequestContext, app: App, body: { key: string; uploadId: string }) {
  const upload = pendingUpload(ctx, "app-versions", "versionId", body);
  if (upload.details.appId !== app.id) throw notFound();
  return upload;
}

export const appVersionUploadRoutes: RouteDefinition[] = [
  {
    method: "POST",
    path: "/apps/:appId/versions",
    auth: "user",
    answerMayBeLost: "initiate",
    handler: (ctx) => {
      const app = findApp(ctx);
      ctx.access.require("RELEASE_CHANNEL__MANAGE");
      const body = parseOrThrow(initiateBody, ctx.body);
      if (!body.filename.toLowerCase().endsWith(".apk"))
        throw invalid("filename", "The filename must end with .apk.");
      const upload = ctx.services.uploads.initiate(
        "app-versions",
        ctx.org.org.id,
        encodeURIComponent(body.filename),
        { appId: app.id, filename: body.filename },
      );
      return ok({ key: upload.key, uploadId: upload.uploadId, versionId: upload.id });
    },
  },
  {
    method: "POST",
    path: "/apps/:appId/versions/:versionId/pre-sign",
    auth: "user",
    handler: (ctx) => {
      const app = findApp(ctx);
      ctx.access.require("RELEASE_CHANNEL__MANAGE");
      const body = parseOrThrow(presignBody, ctx.body);
      const upload = pendingBuild(ctx, app, body);
      const field = ctx.services.strict.presignAnswersUrl ? "url" : "presignedUrl";
      return ok(
        body.partNumbers.map((n) => ({ partNumber: n, [field]: ctx.services.uploads.presign(upload, n) })),
      );
    },
  },
  {
    method: "POST",
    path: "/apps/:appId/versions/:versionId/complete",
    auth: "user",
    answerMayBeLost: "complete",
    handler: (ctx) => {
      const app = findApp(ctx);
      ctx.access.require("RELEASE_CHANNEL__MANAGE");
      const body = parseOrThrow(completeVersionBody, ctx.body);
      const upload = pendingBuild(ctx, app, body);
      checkParts(ctx, upload, body.parts);
      const received = ctx.services.uploads.finish(
        upload,
        body.parts.map((p) => p.partNumber),
      );
      const own = ctx.org.appVersions.list().filter((v) => v.appId === app.id);
      const filename = upload.details.filename as string;
      const version: AppVersion = {
        id: upload.id,
        appId: app.id,
        version: body.versionName ?? filename.replace(/\.apk$/i, ""),
        code: Math.max(0, ...own.map((v) => v.code)) + 1,
        ...received,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        processing: {
          completedAtMs: ctx.store.rollouts.nowMs(),
          failure: ctx.services.uploads.failAppBuild() ? FAULT_REASON : null,
        },
      };
      const bundle: AppBundle = {
        id: randomUUID(),
        appId: app.id,
        versionId: version.id,
        label: null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      ctx.org.appVersions.insert(version);
      ctx.org.appBundles.insert(bundle);
      ctx.audit({
        type: "created",
        action: "create-app-version",
        resourceType: "app-version",
        resourceId: version.id,
        resourceName: `${app.name} ${version.version}`,
        description: `Uploaded version '${version.version}' of app '${app.name}'.`,
      });
      return ok(buildView(ctx, version));
    },
  },
];

/** How long a build takes from its complete to `available` (tests wait this long on the emulator clock). */
export const BUILD_PROCESSING_MS = 9 * BUILD_STEP_MS;
