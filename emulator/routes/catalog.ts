/** Read-mostly catalogue: apps and their release channels, files, videos, device models. */
import { noContent, ok, type RequestContext, type RouteDefinition } from "../context";
import { notFound } from "../errors";
import type { DeviceModel, FileItem, Table, Video } from "../model";
import type { OrgState } from "../store";
import { appView, deviceModelView, fileView, releaseChannelView, videoView } from "../views";
import type { DownloadLinks } from "../uploads";

function found<T>(value: T | undefined): T {
  if (value === undefined) throw notFound();
  return value;
}

/** All supported models, plus the unsupported ones a device of the organization is enrolled with. */
export function listedModels(ctx: RequestContext): DeviceModel[] {
  const enrolled = new Set<string>();
  for (const device of ctx.org.devices.values()) enrolled.add(device.deviceModelId);
  return ctx.store.deviceModels.list().filter((m) => m.isSupported || enrolled.has(m.id));
}

/** Detach content that is being deleted from every group and every device. */
function detachEverywhere(org: OrgState, kind: "files" | "videos", id: string): void {
  for (const holder of [...org.groups.values(), ...org.devices.values()]) {
    const index = holder[kind].findIndex((a) => a.id === id);
    if (index >= 0) holder[kind].splice(index, 1);
  }
}

/** List, read and delete of one kind of content (files or videos): the same rules for both. */
function contentRoutes<T extends { id: string; createdAt: string }>(
  kind: "files" | "videos",
  idParam: string,
  tableOf: (org: OrgState) => Table<T>,
  view: (org: OrgState, item: T, links?: DownloadLinks) => unknown,
  label: (item: T) => string,
): RouteDefinition[] {
  const what = kind === "files" ? "file" : "video";
  return [
    {
      method: "GET",
      path: `/${kind}`,
      auth: "user",
      handler: (ctx) => {
        ctx.access.require("CONTENT__VIEW");
        return ok(ctx.page(tableOf(ctx.org).list(), (item) => view(ctx.org, item, ctx.services.uploads)));
      },
    },
    {
      method: "GET",
      path: `/${kind}/:${idParam}`,
      auth: "user",
      handler: (ctx) => {
        ctx.access.require("CONTENT__VIEW");
        return ok(view(ctx.org, found(tableOf(ctx.org).get(ctx.params[idParam])), ctx.services.uploads));
      },
    },
    {
      method: "GET",
      path: `/${kind}/:${idParam}/device-statuses`,
      auth: "user",
      handler: (ctx) => {
        ctx.access.require("CONTENT__VIEW");
        const item = found(tableOf(ctx.org).get(ctx.params[idParam]));
        // The same statuses the item's (deprecated) deviceStatuses field carries.
        const { deviceStatuses } = view(ctx.org, item) as { deviceStatuses: unknown[] };
        return ok(ctx.page(deviceStatuses, (status) => status));
      },
    },
    {
      method: "DELETE",
      path: `/${kind}/:${idParam}`,
      auth: "user",
      handler: (ctx) => {
        ctx.access.require("CONTENT__MANAGE");
        const item = found(tableOf(ctx.org).get(ctx.params[idParam]));
        detachEverywhere(ctx.org, kind, item.id);
        tableOf(ctx.org).delete(item.id);
        ctx.audit({
          type: "deleted",
          action: `delete-${what}`,
          resourceType: what,
          resourceId: item.id,
          resourceName: label(item),
          description: `Deleted ${what} '${label(item)}'.`,
        });
        return noContent();
      },
    },
  ];
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
  ...contentRoutes<FileItem>(
    "files",
    "fileId",
    (org) => org.files,
    fileView,
    (file) => file.filename,
  ),
  ...contentRoutes<Video>(
    "videos",
    "videoId",
    (org) => org.videos,
    videoView,
    (video) => video.name,
  ),
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
