/**
 * Uploading files and videos (OpenAPI tags "Files" and "Videos"; the same protocol). A file: `POST /files` (InitiateFileUpload: `filename`, `path`, optional
 * `appBundleId`) answers `{key, uploadId, fileId}`; `POST /files/{fileId}/pre-sign` (`key`, `uploadId`,
 * `partNumbers`: 1..4) answers a pre-signed URL per part on the storage endpoint (../uploads.ts); the client
 * PUTs each part there; `POST /files/{fileId}/complete` (`key`, `uploadId`, `parts: [{partNumber, eTag}]`,
 * optional `conflictStrategy`) makes the file from the parts received and answers it, with the size and SHA-512
 * checksum of those bytes. All three need `CONTENT__MANAGE` organization-wide, as deleting a file does.
 *
 * The emulator's reading where the documents are silent: a file being uploaded is no file yet (the File schema
 * has no status: not listed, `GET /files/{fileId}` 404) and its id is single-use (a second complete, or a
 * pre-sign after the complete, is 404, as S3's NoSuchUpload); part numbers are 1..10000 (S3's range); a
 * complete names each part once, in ascending order, with the ETag storage answered for it. A "conflict" is a
 * file of the same filename at the same path. Switches (emulator/README.md): whether `replace` keeps the
 * replaced file's id (`replaceKeepsFileId`), whether a conflict without a strategy is refused
 * (`requireConflictStrategy`), S3's part sizes (`s3PartSizes`), the URL lifetime (`uploadUrlLifetimeSeconds`).
 *
 * A video: `POST /videos` (InitiateVideoUpload: `filename` ending .mp4, .mkv or .webm, `videoType`,
 * `audioEncoding`, and the rendering fields with the OpenAPI's rules between them: `videoMapping` and
 * `videoDisplay` required for ThreeSixty and OneEighty, prohibited for TwoDimensional; `videoPacking` required
 * when `videoDisplay` is Stereoscopic, prohibited otherwise) answers `{key, uploadId, videoId}`; pre-sign and
 * complete as for files, without `conflictStrategy` (videos have no path to conflict on). The emulator's reading:
 * an uploaded video is named after its filename, lives under `organizations/<slug>/videos/` as the seeded ones
 * do, and has `playtimeSeconds: null` (the emulator does not decode media).
 */
import { z } from "zod";
import { ok, type RequestContext, type RouteDefinition } from "../context";
import { FieldErrorCollector, invalid, parseOrThrow } from "../errors";
import type { FileItem, Video, VideoRendering } from "../model";
import { fileView, videoView } from "../views";
import { completeBundleFile, requirePending } from "./appBundles";
import { checkParts, completeBody, pendingUpload, presignRoute } from "./multipartUpload";

const initiateBody = z.object({
  filename: z.string().trim().min(1).max(255),
  path: z.string().trim().min(1).max(1024),
  appBundleId: z.guid().optional(),
});

const completeFileBody = completeBody.extend({
  conflictStrategy: z.enum(["replace", "keep-both"]).optional(),
});

export const AUDIO_ENCODINGS = [
  "UNKNOWN",
  "MONO",
  "STEREO",
  ...["TBE_8", "TBE_8_2", "TBE_6", "TBE_6_2", "TBE_4", "TBE_4_2"],
  ...["TBE_8_PAIR_0", "TBE_8_PAIR_1", "TBE_8_PAIR_2", "TBE_8_PAIR_3"],
  ...["TBE_CHANNEL_0", "TBE_CHANNEL_1", "TBE_CHANNEL_2", "TBE_CHANNEL_3"],
  ...["TBE_CHANNEL_4", "TBE_CHANNEL_5", "TBE_CHANNEL_6", "TBE_CHANNEL_7"],
  ...["HEADLOCKED_STEREO", "HEADLOCKED_CHANNEL_0", "HEADLOCKED_CHANNEL_1"],
  ...["AMBIX_4", "AMBIX_4_2", "AMBIX_9", "AMBIX_9_2", "AMBIX_16", "AMBIX_16_2"],
] as const;

const initiateVideoBody = z.object({
  filename: z.string().trim().min(1).max(255),
  videoType: z.enum(["ThreeSixty", "OneEighty", "TwoDimensional"]),
  videoMapping: z.enum(["EQUIRECTANGULAR", "CUBEMAP"]).nullable().optional(),
  videoDisplay: z.enum(["Stereoscopic", "Monoscopic"]).nullable().optional(),
  videoPacking: z.enum(["TOP_BOTTOM", "LEFT_RIGHT"]).nullable().optional(),
  audioEncoding: z.enum(AUDIO_ENCODINGS),
});

/**
 * The OpenAPI's rules between a video's rendering fields, as Laravel's required_if / prohibited_if read (the
 * upload's initiate and `PUT /videos/{videoId}` alike; only the initiate has a filename).
 */
export function videoRendering(
  body: Omit<z.output<typeof initiateVideoBody>, "filename"> & { filename?: string },
): VideoRendering {
  const errors = new FieldErrorCollector();
  if (body.filename !== undefined && !/\.(mp4|mkv|webm)$/i.test(body.filename))
    errors.add("filename", "The filename must end with one of the following: .mp4, .mkv, .webm.");
  const immersive = body.videoType !== "TwoDimensional";
  for (const [field, label] of [
    ["videoMapping", "video mapping"],
    ["videoDisplay", "video display"],
  ] as const) {
    const value = body[field] ?? null;
    if (immersive && value === null)
      errors.add(field, `The ${label} field is required when video type is ${body.videoType}.`);
    if (!immersive && value !== null)
      errors.add(field, `The ${label} field is prohibited when video type is TwoDimensional.`);
  }
  const stereo = body.videoDisplay === "Stereoscopic";
  const packing = body.videoPacking ?? null;
  if (stereo && packing === null)
    errors.add("videoPacking", "The video packing field is required when video display is Stereoscopic.");
  if (!stereo && packing !== null)
    errors.add("videoPacking", "The video packing field is prohibited unless video display is Stereoscopic.");
  errors.throwIfAny();
  return {
    videoMapping: body.videoMapping ?? null,
    videoDisplay: body.videoDisplay ?? null,
    videoPacking: packing,
    audioEncoding: body.audioEncoding,
  };
}

/** Moves what pointed at the replaced file (groups' and devices' files) to the file that replaces it. */
function repoint(ctx: RequestContext, fromId: string, toId: string): void {
  for (const holder of [...ctx.org.groups.values(), ...ctx.org.devices.values()])
    for (const attachment of holder.files) if (attachment.id === fromId) attachment.id = toId;
}

export const uploadRoutes: RouteDefinition[] = [
  {
    method: "POST",
    path: "/files",
    auth: "user",
    answerMayBeLost: "initiate",
    handler: (ctx) => {
      ctx.access.require("CONTENT__MANAGE");
      const body = parseOrThrow(initiateBody, ctx.body);
      const name = body.filename.toLowerCase();
      if (name.endsWith(".apk")) throw invalid("filename", "The filename must not end with .apk.");
      if (name.endsWith(".obb") && body.appBundleId === undefined)
        throw invalid("filename", "The filename must not end with .obb unless appBundleId is given.");
      const bundle = body.appBundleId && ctx.org.appBundles.get(body.appBundleId.toLowerCase());
      if (body.appBundleId !== undefined && !bundle)
        throw invalid("appBundleId", "The selected app bundle id is invalid.");
      if (bundle) requirePending(bundle, "appBundleId");
      const upload = ctx.services.uploads.initiate(
        "files",
        ctx.org.org.id,
        encodeURIComponent(body.filename),
        {
          filename: body.filename,
          location: body.path,
          ...(bundle ? { appBundleId: bundle.id } : {}),
        },
      );
      return ok({ key: upload.key, uploadId: upload.uploadId, fileId: upload.id });
    },
  },
  presignRoute("files", "fileId"),
  {
    method: "POST",
    path: "/files/:fileId/complete",
    auth: "user",
    answerMayBeLost: "complete",
    handler: (ctx) => {
      ctx.access.require("CONTENT__MANAGE");
      const body = parseOrThrow(completeFileBody, ctx.body);
      const upload = pendingUpload(ctx, "files", "fileId", body);
      checkParts(ctx, upload, body.parts);
      // A bundle's data file is the app's, not the organization's (routes/appBundles.ts).
      if (upload.details.appBundleId !== undefined)
        return ok(
          completeBundleFile(
            ctx,
            upload,
            ctx.services.uploads.finish(
              upload,
              body.parts.map((p) => p.partNumber),
            ),
          ),
        );
      const filename = upload.details.filename as string;
      const location = upload.details.location as string;
      const existing = [...ctx.org.files.values()].find(
        (f) => f.filename === filename && f.location === location,
      );
      const strategy = body.conflictStrategy ?? "keep-both";
      if (existing && body.conflictStrategy === undefined && ctx.services.strict.requireConflictStrategy)
        throw invalid(
          "conflictStrategy",
          `A file named ${filename} exists at ${location}: the conflict strategy field is required (replace or keep-both).`,
        );
      const received = ctx.services.uploads.finish(
        upload,
        body.parts.map((p) => p.partNumber),
      );
      let file: FileItem;
      if (existing && strategy === "replace" && ctx.services.strict.replaceKeepsFileId) {
        file = Object.assign(existing, received, { updatedAt: ctx.now });
      } else {
        file = {
          id: upload.id,
          filename,
          location,
          ...received,
          tags: [],
          createdAt: ctx.now,
          updatedAt: ctx.now,
        };
        if (existing && strategy === "replace") {
          file.tags = existing.tags;
          repoint(ctx, existing.id, file.id);
          ctx.org.files.delete(existing.id);
        }
        ctx.org.files.insert(file);
      }
      const replaced = existing !== undefined && strategy === "replace";
      ctx.audit({
        type: replaced ? "updated" : "created",
        action: replaced ? "update-file" : "create-file",
        resourceType: "file",
        resourceId: file.id,
        resourceName: file.filename,
        description: `${replaced ? "Replaced" : "Uploaded"} file '${file.filename}'.`,
      });
      return ok(fileView(ctx.org, file, ctx.services.uploads));
    },
  },
  {
    method: "POST",
    path: "/videos",
    auth: "user",
    answerMayBeLost: "initiate",
    handler: (ctx) => {
      ctx.access.require("CONTENT__MANAGE");
      const body = parseOrThrow(initiateVideoBody, ctx.body);
      const rendering = videoRendering(body);
      const upload = ctx.services.uploads.initiate(
        "videos",
        ctx.org.org.id,
        encodeURIComponent(body.filename),
        {
          filename: body.filename,
          videoType: body.videoType,
          rendering,
        },
      );
      return ok({ key: upload.key, uploadId: upload.uploadId, videoId: upload.id });
    },
  },
  presignRoute("videos", "videoId"),
  {
    method: "POST",
    path: "/videos/:videoId/complete",
    auth: "user",
    answerMayBeLost: "complete",
    handler: (ctx) => {
      ctx.access.require("CONTENT__MANAGE");
      const body = parseOrThrow(completeBody, ctx.body);
      const upload = pendingUpload(ctx, "videos", "videoId", body);
      checkParts(ctx, upload, body.parts);
      const filename = upload.details.filename as string;
      const video: Video = {
        id: upload.id,
        name: filename,
        filename,
        location: `organizations/${ctx.org.org.slug}/videos/${filename}`,
        ...ctx.services.uploads.finish(
          upload,
          body.parts.map((p) => p.partNumber),
        ),
        tags: [],
        playtimeSeconds: null,
        videoType: upload.details.videoType as Video["videoType"],
        rendering: upload.details.rendering as VideoRendering,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      ctx.org.videos.insert(video);
      ctx.audit({
        type: "created",
        action: "create-video",
        resourceType: "video",
        resourceId: video.id,
        resourceName: video.name,
        description: `Uploaded video '${video.name}'.`,
      });
      return ok(videoView(ctx.org, video, ctx.services.uploads));
    },
  },
];
