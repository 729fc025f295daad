/**
 * Uploading images and custom 3D environments (OpenAPI tags "Images" and "Custom 3D Environments"), on the
 * protocol files and videos use (./uploads.ts: pre-sign, parts on the storage endpoint, complete). `POST /images`
 * and `POST /custom-3d-environments` take only `filename` (InitiateImageUpload_request) and answer `{key,
 * uploadId, imageId}` (200) or `{key, uploadId, custom3DEnvironmentId}` (201, as the OpenAPI says). The
 * complete answers the record, `pending`; it becomes `available` after `PROCESSING_MS` on the emulator clock
 * (`advanceClock` moves it), settled when it is read. Neither answers a checksum (the OpenAPI's schemas have
 * none): a client cannot tell which bytes an image holds. Both need `CONTENT__MANAGE`.
 *
 * The emulator's readings where the documents are silent: an environment's file must end in `.glb` (its
 * `objectName` "must be .glb format"); an image's in .png, .jpg or .jpeg (the OpenAPI names no formats; its
 * examples are `image/jpeg`); an uploaded environment's `objectName` is the uploaded file's name (the
 * OpenAPI's examples), an image's is `<id>.<extension>` with `originalFileName` the uploaded name. Which type an
 * uploaded image gets: switch `uploadedImageType` (absent: `unknown`, which every image slot of an experience
 * takes; experienceRules.ts).
 */
import { z } from "zod";
import { created, ok, type RequestContext, type RouteDefinition } from "../context";
import { invalid, parseOrThrow } from "../errors";
import type { Custom3DEnvironment, Image } from "../experienceModel";
import type { UploadKind } from "../uploads";
import { custom3DEnvironmentView, imageView } from "./experienceViews";
import { checkParts, completeBody, pendingUpload, presignRoute } from "./multipartUpload";

/** How long an uploaded image or environment stays `pending` (emulator clock). */
export const PROCESSING_MS = 2_000;

const initiateBody = z.object({ filename: z.string().trim().min(1).max(255) });

const IMAGE_MIME: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg" };

/** What a completed upload of an image or environment starts as: pending, its processing due on the clock. */
function processing(ctx: RequestContext, objectKey: string) {
  return {
    status: "pending" as const,
    availableAtMs: Date.parse(ctx.now) + PROCESSING_MS,
    objectKey,
    ...(ctx.services.uploads.failContentProcessing() ? { failsProcessing: true } : {}),
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
}

/**
 * A `pending` upload whose processing time has come is `available` from then on, or `failed` under the fault
 * `failContentProcessing` (called by every read).
 */
export function settleProcessing(record: Image | Custom3DEnvironment, nowMs: number): void {
  if (record.status !== "pending" || record.availableAtMs === undefined || nowMs < record.availableAtMs)
    return;
  record.status = record.failsProcessing ? "failed" : "available";
  record.updatedAt = new Date(record.availableAtMs).toISOString();
  delete record.availableAtMs;
  delete record.failsProcessing;
}

function initiateRoute(kind: UploadKind, idField: string, accepts: RegExp, rule: string): RouteDefinition {
  return {
    method: "POST",
    path: `/${kind}`,
    auth: "user",
    answerMayBeLost: "initiate",
    handler: (ctx) => {
      ctx.access.require("CONTENT__MANAGE");
      const body = parseOrThrow(initiateBody, ctx.body);
      if (!accepts.test(body.filename)) throw invalid("filename", rule);
      const upload = ctx.services.uploads.initiate(kind, ctx.org.org.id, encodeURIComponent(body.filename), {
        filename: body.filename,
      });
      const answer = { key: upload.key, uploadId: upload.uploadId, [idField]: upload.id };
      return kind === "images" ? ok(answer) : created(answer);
    },
  };
}

/** The upload's bytes received (the checksum is computed but not answered: the API gives none for these kinds). */
function received(ctx: RequestContext, kind: UploadKind, idParam: string) {
  const body = parseOrThrow(completeBody, ctx.body);
  const upload = pendingUpload(ctx, kind, idParam, body);
  checkParts(ctx, upload, body.parts);
  const { sizeBytes, objectKey } = ctx.services.uploads.finish(
    upload,
    body.parts.map((p) => p.partNumber),
  );
  return { id: upload.id, filename: upload.details.filename as string, sizeBytes, objectKey };
}

export const imageUploadRoutes: RouteDefinition[] = [
  initiateRoute(
    "images",
    "imageId",
    /\.(png|jpe?g)$/i,
    "The filename must end with one of the following: .png, .jpg, .jpeg.",
  ),
  presignRoute("images", "imageId"),
  {
    method: "POST",
    path: "/images/:imageId/complete",
    auth: "user",
    answerMayBeLost: "complete",
    handler: (ctx) => {
      ctx.access.require("CONTENT__MANAGE");
      const { id, filename, sizeBytes, objectKey } = received(ctx, "images", "imageId");
      const extension = (filename.split(".").pop() as string).toLowerCase();
      const image: Image = {
        id,
        isSystemOwned: false,
        objectName: `${id}.${extension}`,
        originalFileName: filename,
        mimeType: IMAGE_MIME[extension] ?? null,
        sizeBytes,
        type: ctx.services.strict.uploadedImageType,
        ...processing(ctx, objectKey),
      };
      ctx.org.images.insert(image);
      ctx.audit({
        type: "created",
        action: "create-image",
        resourceType: "image",
        resourceId: image.id,
        resourceName: filename,
        description: `Uploaded image '${filename}'.`,
      });
      return ok(imageView(image, ctx.services.uploads));
    },
  },
  initiateRoute(
    "custom-3d-environments",
    "custom3DEnvironmentId",
    /\.glb$/i,
    "The filename must end with .glb.",
  ),
  presignRoute("custom-3d-environments", "custom3DEnvironmentId"),
  {
    method: "POST",
    path: "/custom-3d-environments/:custom3DEnvironmentId/complete",
    auth: "user",
    answerMayBeLost: "complete",
    handler: (ctx) => {
      ctx.access.require("CONTENT__MANAGE");
      const { id, filename, sizeBytes, objectKey } = received(
        ctx,
        "custom-3d-environments",
        "custom3DEnvironmentId",
      );
      const environment: Custom3DEnvironment = {
        id,
        objectName: filename,
        sizeBytes,
        ...processing(ctx, objectKey),
      };
      ctx.org.custom3DEnvironments.insert(environment);
      ctx.audit({
        type: "created",
        action: "create-custom-3d-environment",
        resourceType: "custom-3d-environment",
        resourceId: environment.id,
        resourceName: filename,
        description: `Uploaded custom 3D environment '${filename}'.`,
      });
      // GetCustom3DEnvironment_200_response (the complete's answer) wraps the record in `data`.
      return ok({ data: custom3DEnvironmentView(environment, ctx.services.uploads) });
    },
  },
];
