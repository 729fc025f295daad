/** Read-mostly catalogue: apps and their release channels, files, videos, device models. */
import { noContent, ok, type RequestContext, type RouteDefinition } from "../context";
import { notFound } from "../errors";
import type { DeviceModel } from "../model";
import type { OrgState } from "../store";
import { appView, deviceModelView, fileView, releaseChannelView, videoView } from "../views";

function found<T>(value: T | undefined): T {
  if (value === undefined) throw notFound();
  return value;
}

/** All supported models, plus the unsupported ones a device of the organization is enrolled with. */
function listedModels(ctx: RequestContext): DeviceModel[] {
  const enrolled = new Set<string>();
  for (const device of ctx.org.devices.values()) enrolled.add(device.deviceModelId);
  return ctx.store.deviceModels.list().filter((m) => m.isSupported || enrolled.has(m.id));
}

/** Detach content that is being deleted from every group. */
function detachEverywhere(org: OrgState, kind: "files" | "videos", id: string): void {
  for (const group of org.groups.values()) {
    const index = group[kind].findIndex((a) => a.id === id);
    if (index >= 0) group[kind].splice(index, 1);
  }
}

export const catalogRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/apps",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("APP__VIEW");
      return ok(ctx.page(ctx.org.apps.list(), (app) => appView(ctx.store, ctx.org, app)));
    },
  },
  {
    method: "GET",
    path: "/apps/:appId",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("APP__VIEW");
      return ok(appView(ctx.store, ctx.org, found(ctx.org.apps.get(ctx.params.appId))));
    },
  },
  {
    method: "GET",
    path: "/apps/:appId/release-channels",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("APP__VIEW");
      const app = found(ctx.org.apps.get(ctx.params.appId));
      const channels = ctx.org.releaseChannels.list().filter((c) => c.appId === app.id);
      return ok(ctx.page(channels, (channel) => releaseChannelView(ctx.store, ctx.org, channel)));
    },
  },
  {
    method: "GET",
    path: "/apps/:appId/release-channels/:releaseChannelId",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("APP__VIEW");
      const app = found(ctx.org.apps.get(ctx.params.appId));
      const channel = ctx.org.releaseChannels.get(ctx.params.releaseChannelId);
      if (!channel || channel.appId !== app.id) throw notFound();
      return ok(releaseChannelView(ctx.store, ctx.org, channel));
    },
  },
  {
    method: "GET",
    path: "/files",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("CONTENT__VIEW");
      return ok(ctx.page(ctx.org.files.list(), (file) => fileView(ctx.org, file)));
    },
  },
  {
    method: "GET",
    path: "/files/:fileId",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("CONTENT__VIEW");
      return ok(fileView(ctx.org, found(ctx.org.files.get(ctx.params.fileId))));
    },
  },
  {
    method: "DELETE",
    path: "/files/:fileId",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("CONTENT__MANAGE");
      const file = found(ctx.org.files.get(ctx.params.fileId));
      detachEverywhere(ctx.org, "files", file.id);
      ctx.org.files.delete(file.id);
      return noContent();
    },
  },
  {
    method: "GET",
    path: "/videos",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("CONTENT__VIEW");
      return ok(ctx.page(ctx.org.videos.list(), (video) => videoView(ctx.org, video)));
    },
  },
  {
    method: "GET",
    path: "/videos/:videoId",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("CONTENT__VIEW");
      return ok(videoView(ctx.org, found(ctx.org.videos.get(ctx.params.videoId))));
    },
  },
  {
    method: "DELETE",
    path: "/videos/:videoId",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("CONTENT__MANAGE");
      const video = found(ctx.org.videos.get(ctx.params.videoId));
      detachEverywhere(ctx.org, "videos", video.id);
      ctx.org.videos.delete(video.id);
      return noContent();
    },
  },
  {
    method: "GET",
    path: "/device-models",
    auth: "user",
    handler: (ctx) => ok(ctx.page(listedModels(ctx), deviceModelView)),
  },
  {
    method: "GET",
    path: "/device-models/:deviceModelId",
    auth: "user",
    handler: (ctx) => {
      const model = listedModels(ctx).find((m) => m.id === ctx.params.deviceModelId);
      return ok(deviceModelView(found(model)));
    },
  },
];
