/**
 * `PUT /videos/{videoId}` (UpdateVideo): the whole object but its content. The OpenAPI requires `name` (at least
 * one character), `description` (nullable), `videoType`, `audioEncoding` and `tags`, and gives the rendering
 * fields the upload's rules (routes/uploads.ts `videoRendering`: mapping and display required for ThreeSixty and
 * OneEighty, prohibited for TwoDimensional; packing required for Stereoscopic, prohibited otherwise). Needs
 * `CONTENT__MANAGE` organization-wide, as the upload and the delete do.
 *
 * The emulator's reading where the documents are silent: "required" means present (`description: null` and
 * `tags: []` are taken, as the OpenAPI's `nullable` and array type say); `tags` resolve as tag attach does
 * (unknown names create the tag, switch `rejectUnknownTags`) and replace the video's tags, or are added to them
 * (switch `mergeVideoTagsOnPut`: the API offers no way to leave a video's tags alone, so a client that does not
 * own them sends back the ones it read). A PUT that changes nothing moves no timestamp and records no audit entry.
 */
import { z } from "zod";
import { ok, type RouteDefinition } from "../context";
import { notFound, parseOrThrow } from "../errors";
import { videoView } from "../views";
import { resolveTagNames } from "./tags";
import { AUDIO_ENCODINGS, videoRendering } from "./uploads";

const updateBody = z.object({
  name: z.string().trim().min(1).max(255),
  description: z.string().max(65_535).nullable(),
  videoType: z.enum(["ThreeSixty", "OneEighty", "TwoDimensional"]),
  videoMapping: z.enum(["EQUIRECTANGULAR", "CUBEMAP"]).nullable().optional(),
  videoDisplay: z.enum(["Stereoscopic", "Monoscopic"]).nullable().optional(),
  videoPacking: z.enum(["TOP_BOTTOM", "LEFT_RIGHT"]).nullable().optional(),
  audioEncoding: z.enum(AUDIO_ENCODINGS),
  tags: z.array(z.string().trim().min(1).max(255)).max(100),
});

export const videoRoutes: RouteDefinition[] = [
  {
    method: "PUT",
    path: "/videos/:videoId",
    auth: "user",
    handler: (ctx) => {
      const video = ctx.org.videos.get(ctx.params.videoId);
      if (!video) throw notFound();
      ctx.access.require("CONTENT__MANAGE");
      const body = parseOrThrow(updateBody, ctx.body);
      const rendering = videoRendering(body);
      // Resolved (unknown tags created or refused) only once everything else in the body is known valid.
      const given = resolveTagNames(ctx, body.tags, "tags");
      const tags = ctx.services.strict.mergeVideoTagsOnPut
        ? [...video.tags, ...given.filter((t) => !video.tags.includes(t))]
        : given;
      const before = JSON.stringify(videoView(ctx.org, video));
      const name = video.name;
      Object.assign(video, {
        name: body.name,
        description: body.description,
        videoType: body.videoType,
        rendering,
        tags,
      });
      if (JSON.stringify(videoView(ctx.org, video)) !== before) {
        video.updatedAt = ctx.now;
        ctx.audit({
          type: "updated",
          action: "update-video",
          resourceType: "video",
          resourceId: video.id,
          resourceName: video.name,
          description: `Updated video '${name}'.`,
        });
      }
      return ok(videoView(ctx.org, video, ctx.services.uploads));
    },
  },
];
