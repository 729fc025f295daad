/**
 * The steps every upload shares after its initiate (files, videos, app versions, images, 3D environments): the
 * pre-sign route, the complete's body, finding the pending upload the path names, and checking the parts the
 * complete lists against those storage received. The protocol and the emulator's readings of it are described in
 * routes/uploads.ts; the storage side is ../uploads.ts. Kept out of routes/uploads.ts, which imports the bundle
 * routes (a file uploaded into a bundle), so that the app-version and bundle routes do not import it back.
 */
import { z } from "zod";
import { ok, type RequestContext, type RouteDefinition } from "../context";
import { FieldErrorCollector, notFound, parseOrThrow } from "../errors";
import { MAX_PART_NUMBER, MIN_PART_BYTES, type PendingUpload, type UploadKind } from "../uploads";

const partNumber = z.number().int().min(1).max(MAX_PART_NUMBER);

export const presignBody = z.object({
  key: z.string().min(1),
  uploadId: z.string().min(1),
  partNumbers: z.array(partNumber).min(1).max(4),
});

export const completeBody = z.object({
  key: z.string().min(1),
  uploadId: z.string().min(1),
  parts: z.array(z.object({ partNumber, eTag: z.string().min(1) })).min(1),
});

/** The pending upload the path names (`idParam`), its key and upload id as the body repeats them. */
export function pendingUpload(
  ctx: RequestContext,
  kind: UploadKind,
  idParam: string,
  body: { key: string; uploadId: string },
): PendingUpload {
  const upload = ctx.services.uploads.find(kind, ctx.org.org.id, ctx.params[idParam]);
  if (!upload) throw notFound();
  const errors = new FieldErrorCollector();
  if (body.key !== upload.key) errors.add("key", "The selected key is invalid.");
  if (body.uploadId !== upload.uploadId) errors.add("uploadId", "The selected upload id is invalid.");
  errors.throwIfAny();
  return upload;
}

/** ETags as storage answers them are quoted; clients often send them bare. Both name the same part. */
const bareETag = (eTag: string) => eTag.replace(/^"(.*)"$/, "$1");

/** Every part named once, ascending, received with that ETag; under `s3PartSizes`, all but the last ≥ 5 MiB. */
export function checkParts(
  ctx: RequestContext,
  upload: PendingUpload,
  parts: { partNumber: number; eTag: string }[],
) {
  const errors = new FieldErrorCollector();
  parts.forEach((part, i) => {
    if (i > 0 && part.partNumber <= parts[i - 1].partNumber)
      errors.add(
        `parts.${i}.partNumber`,
        "The parts must be listed once each, in ascending order of partNumber.",
      );
    const received = upload.parts.get(part.partNumber);
    if (!received) errors.add(`parts.${i}.partNumber`, `Part ${part.partNumber} was not uploaded.`);
    else if (bareETag(received.eTag) !== bareETag(part.eTag))
      errors.add(`parts.${i}.eTag`, `The eTag does not match part ${part.partNumber} as uploaded.`);
    else if (ctx.services.strict.s3PartSizes && i < parts.length - 1 && received.sizeBytes < MIN_PART_BYTES)
      errors.add(
        `parts.${i}`,
        "Your proposed upload is smaller than the minimum allowed size (5 MiB per part but the last).",
      );
  });
  errors.throwIfAny();
}

/** `POST /{kind}/{id}/pre-sign`: a URL on the storage endpoint per part asked for. */
export function presignRoute(kind: UploadKind, idParam: string): RouteDefinition {
  return {
    method: "POST",
    path: `/${kind}/:${idParam}/pre-sign`,
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("CONTENT__MANAGE");
      const body = parseOrThrow(presignBody, ctx.body);
      const upload = pendingUpload(ctx, kind, idParam, body);
      return ok(
        body.partNumbers.map((n) => ({
          partNumber: n,
          presignedUrl: ctx.services.uploads.presign(upload, n),
        })),
      );
    },
  };
}
