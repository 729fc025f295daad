/**
 * Sharing an app's release channel with another organization (ShareReleaseChannel / UnshareReleaseChannel):
 * `POST /apps/{appId}/release-channels/{releaseChannelId}/share` and `/unshare`, body `{ organizationSlug }`,
 * answering 200 `{ message }`. v3 replaced v2's DELETE on `.../share` with `POST .../unshare` (spec 9.2).
 *
 * The OpenAPI document names the body and the answer only; the rules are the emulator's reading, in its usual
 * order: app and channel of the caller's organization (404), RELEASE_CHANNEL__MANAGE organization-wide (403),
 * then the body (422): `organizationSlug` required; a slug that names no organization is "The selected
 * organization slug is invalid." (a body reference, so 422, not 404); the caller's own organization, sharing
 * twice and unsharing what is not shared are 422 as well, unless the `repeatShareIsNoOp` switch makes them a 200
 * that changes nothing (the documents do not say which).
 */
import { z } from "zod";
import { ok, type RequestContext, type RouteDefinition } from "../context";
import { invalid, notFound, parseOrThrow } from "../errors";
import type { ReleaseChannel } from "../model";
import type { OrgState } from "../store";

const shareBody = z.object({ organizationSlug: z.string().trim().min(1).max(255) });

function findChannel(ctx: RequestContext): ReleaseChannel {
  const app = ctx.org.apps.get(ctx.params.appId);
  if (!app) throw notFound();
  const channel = ctx.org.releaseChannels.get(ctx.params.releaseChannelId);
  if (!channel || channel.appId !== app.id) throw notFound();
  return channel;
}

function targetOrganization(ctx: RequestContext, slug: string): OrgState {
  const target = ctx.store.orgBySlug(slug);
  if (!target) throw invalid("organizationSlug", "The selected organization slug is invalid.");
  if (target === ctx.org) {
    throw invalid("organizationSlug", "A release channel cannot be shared with its own organization.");
  }
  return target;
}

function channelLabel(ctx: RequestContext, channel: ReleaseChannel): string {
  const app = ctx.org.apps.get(channel.appId);
  return app ? `${app.name} ${channel.name}` : channel.name;
}

export const sharingRoutes: RouteDefinition[] = [
  {
    method: "POST",
    path: "/apps/:appId/release-channels/:releaseChannelId/share",
    auth: "user",
    handler: (ctx) => {
      const channel = findChannel(ctx);
      ctx.access.require("RELEASE_CHANNEL__MANAGE");
      const { organizationSlug } = parseOrThrow(shareBody, ctx.body);
      const target = targetOrganization(ctx, organizationSlug);
      const message = { message: `Release channel shared with organization slug: '${target.org.slug}'.` };
      if (channel.sharedWithOrgIds.includes(target.org.id)) {
        if (ctx.services.strict.repeatShareIsNoOp) return ok(message);
        throw invalid("organizationSlug", "The release channel is already shared with this organization.");
      }
      channel.sharedWithOrgIds.push(target.org.id);
      ctx.audit({
        type: "updated",
        action: "share-release-channel",
        resourceType: "release-channel",
        resourceId: channel.id,
        resourceName: channelLabel(ctx, channel),
        description: `Shared release channel '${channelLabel(ctx, channel)}' with organization '${target.org.slug}'.`,
      });
      return ok(message);
    },
  },
  {
    method: "POST",
    path: "/apps/:appId/release-channels/:releaseChannelId/unshare",
    auth: "user",
    handler: (ctx) => {
      const channel = findChannel(ctx);
      ctx.access.require("RELEASE_CHANNEL__MANAGE");
      const { organizationSlug } = parseOrThrow(shareBody, ctx.body);
      const target = targetOrganization(ctx, organizationSlug);
      const index = channel.sharedWithOrgIds.indexOf(target.org.id);
      const message = { message: `Release channel unshared with organization slug: '${target.org.slug}'.` };
      if (index < 0) {
        if (ctx.services.strict.repeatShareIsNoOp) return ok(message);
        throw invalid("organizationSlug", "The release channel is not shared with this organization.");
      }
      channel.sharedWithOrgIds.splice(index, 1);
      ctx.audit({
        type: "updated",
        action: "unshare-release-channel",
        resourceType: "release-channel",
        resourceId: channel.id,
        resourceName: channelLabel(ctx, channel),
        description: `Stopped sharing release channel '${channelLabel(ctx, channel)}' with organization '${target.org.slug}'.`,
      });
      return ok(message);
    },
  },
];
