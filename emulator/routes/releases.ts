/**
 * App versions and bundles, and what a release channel delivers: `GET /apps/{appId}/versions`,
 * `GET /apps/{appId}/app-bundles`, `PUT /apps/{appId}/release-channels/{releaseChannelId}` (`versionId` or
 * `bundleId`, exactly one) and `GET …/device-statuses` (the simulated rollout, see emulator/rollout.ts).
 *
 * The OpenAPI names the body and the answers; the rules are the emulator's reading: app and channel of the
 * caller's organization (404), `APP__VIEW` to read and `RELEASE_CHANNEL__MANAGE` organization-wide to change
 * (403), then the body (422): exactly one of `versionId` / `bundleId`, naming a version / bundle of that app.
 * Setting what the channel already delivers changes nothing (200, no audit record, the rollout goes on).
 */
import { z } from "zod";
import { buildStatus } from "../appBuilds";
import { bundleStatus, type AppBundle, type AppVersion } from "../catalogModel";
import { ok, type RequestContext, type RouteDefinition } from "../context";
import { FieldErrorCollector, notFound, parseOrThrow } from "../errors";
import type { App, ReleaseChannel } from "../model";
import { releaseChannelView } from "../views";
import { buildView } from "./appVersionUploads";

const updateBody = z.object({ versionId: z.guid().optional(), bundleId: z.guid().optional() });

/** `sha256[]`: 1..10 checksums (a PHP-style array parameter). */
const versionsQuery = z.object({
  sha256: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(z.array(z.string().min(1)).min(1).max(10))
    .optional(),
});

const bundlesQuery = z.object({
  status: z.enum(["pending", "processing", "available", "failed"]).optional(),
});

export function versionView(version: AppVersion) {
  return {
    id: version.id,
    version: version.version,
    code: version.code,
    sizeBytes: version.sizeBytes,
    checksum: version.checksum,
    status: "available",
    downloadUrl: null,
    createdAt: version.createdAt,
    updatedAt: version.updatedAt,
  };
}

/** A bundle as the API shows it (routes/appBundles.ts makes and changes them). */
export function bundleView(ctx: RequestContext, bundle: AppBundle) {
  const version = ctx.org.appVersions.get(bundle.versionId);
  return {
    id: bundle.id,
    label: bundle.label,
    status: bundleStatus(bundle, ctx.now),
    ...(version ? { appBuild: versionView(version) } : {}),
    createdAt: bundle.createdAt,
    updatedAt: bundle.updatedAt,
  };
}

export function findApp(ctx: RequestContext): App {
  const app = ctx.org.apps.get(ctx.params.appId);
  if (!app) throw notFound();
  return app;
}

function findChannel(ctx: RequestContext): { app: App; channel: ReleaseChannel } {
  const app = findApp(ctx);
  const channel = ctx.org.releaseChannels.get(ctx.params.releaseChannelId);
  if (!channel || channel.appId !== app.id) throw notFound();
  return { app, channel };
}

/** The version and bundle a body names: exactly one of the two, of the channel's app. */
function resolveTarget(ctx: RequestContext, app: App): { version: AppVersion; bundle: AppBundle } {
  const body = parseOrThrow(updateBody, ctx.body);
  const errors = new FieldErrorCollector();
  if (body.versionId === undefined && body.bundleId === undefined)
    errors.add("versionId", "The version id field is required when bundle id is not present.");
  if (body.versionId !== undefined && body.bundleId !== undefined)
    errors.add("versionId", "The version id field prohibits bundle id from being present.");
  errors.throwIfAny();
  const { appVersions, appBundles } = ctx.org;
  if (body.versionId !== undefined) {
    const version = appVersions.get(body.versionId.toLowerCase());
    // The version's first bundle (the oldest: lists are newest first).
    const bundles = version ? appBundles.list().filter((b) => b.versionId === version.id) : [];
    const bundle = bundles[bundles.length - 1];
    if (!version || version.appId !== app.id || !bundle)
      errors.add("versionId", "The selected version id is invalid.");
    // An uploaded build is delivered once processed (appBuilds.ts).
    else if (buildStatus(version, ctx.store.rollouts.nowMs()).status !== "available")
      errors.add("versionId", "The selected version is not available yet.");
    errors.throwIfAny();
    return { version: version as AppVersion, bundle: bundle as AppBundle };
  }
  const bundle = appBundles.get((body.bundleId as string).toLowerCase());
  const version = bundle && appVersions.get(bundle.versionId);
  if (!bundle || bundle.appId !== app.id || !version)
    errors.add("bundleId", "The selected bundle id is invalid.");
  errors.throwIfAny();
  return { version: version as AppVersion, bundle: bundle as AppBundle };
}

export const releaseRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/apps/:appId/versions",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("APP__VIEW");
      const app = findApp(ctx);
      const { sha256 } = parseOrThrow(versionsQuery, { sha256: ctx.query["sha256[]"] });
      const wanted = sha256 && new Set(sha256.map((s) => s.toLowerCase()));
      const versions = ctx.org.appVersions
        .list()
        .filter((v) => v.appId === app.id && (!wanted || wanted.has(v.checksum.value.toLowerCase())));
      return ok(ctx.page(versions, (version) => buildView(ctx, version)));
    },
  },
  {
    method: "GET",
    path: "/apps/:appId/app-bundles",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("APP__VIEW");
      const app = findApp(ctx);
      const { status } = parseOrThrow(bundlesQuery, { status: ctx.query.status });
      const bundles = ctx.org.appBundles
        .list()
        .filter((b) => b.appId === app.id && (status === undefined || bundleStatus(b, ctx.now) === status));
      return ok(ctx.page(bundles, (bundle) => bundleView(ctx, bundle)));
    },
  },
  {
    method: "PUT",
    path: "/apps/:appId/release-channels/:releaseChannelId",
    auth: "user",
    handler: (ctx) => {
      const { app, channel } = findChannel(ctx);
      ctx.access.require("RELEASE_CHANNEL__MANAGE");
      const { version, bundle } = resolveTarget(ctx, app);
      if (version.id === channel.build.id && bundle.id === channel.bundleId)
        return ok(releaseChannelView(ctx.store, ctx.org, channel));
      const before = channel.build.version;
      if (version.id !== channel.build.id)
        ctx.store.rollouts.startRollout(ctx.org, channel, version.id, version.version, ctx.now);
      const { appId: _app, ...build } = version;
      channel.build = build;
      channel.bundleId = bundle.id;
      channel.updatedAt = ctx.now;
      const label = `${app.name} ${channel.name}`;
      ctx.audit({
        type: "updated",
        action: "update-release-channel",
        resourceType: "release-channel",
        resourceId: channel.id,
        resourceName: label,
        description: `Changed release channel '${label}' from version '${before}' to '${version.version}'.`,
      });
      return ok(releaseChannelView(ctx.store, ctx.org, channel));
    },
  },
  {
    method: "GET",
    path: "/apps/:appId/release-channels/:releaseChannelId/device-statuses",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("APP__VIEW");
      const { channel } = findChannel(ctx);
      return ok(ctx.page(ctx.store.rollouts.statuses(ctx.org, channel), (status) => status));
    },
  },
];
