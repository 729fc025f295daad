/**
 * Files and videos of a device itself (GetDeviceFiles, AddFileToDevice, RemoveFileFromDevice and the video
 * counterparts). As with a device's own release channels, they can be added and removed only while the device
 * is ungrouped ("The device must not be in a group."); putting the device into a group drops them.
 *
 * Also `GET /groups/{groupId}/files` and `/videos`, which the OpenAPI document lacks: served only with the
 * `listGroupContent` switch, so a client can be checked both where a group's content can be listed and where not.
 */
import { z } from "zod";
import { noContent, ok, type RouteDefinition } from "../context";
import { invalid, notFound, parseOrThrow } from "../errors";
import type { Attachment, Device, FileItem, Table, Video } from "../model";
import { newestFirst } from "../model";
import type { OrgState } from "../store";
import { fileView, videoView } from "../views";
import type { DownloadLinks } from "../uploads";
import { deviceLabel } from "./audit";
import { findDevice } from "./devices";

interface ContentKind<T extends { id: string; createdAt: string }> {
  segment: "files" | "videos";
  idField: "fileId" | "videoId";
  /** "file" / "video", for messages and audit actions. */
  what: string;
  table: (org: OrgState) => Table<T>;
  attached: (device: Device) => Attachment[];
  label: (item: T) => string;
  view: (org: OrgState, item: T, links?: DownloadLinks) => unknown;
}

function contentRoutes<T extends { id: string; createdAt: string }>(kind: ContentKind<T>): RouteDefinition[] {
  const { segment, idField, what, table, attached, label, view } = kind;
  const body = z.object({ [idField]: z.guid() });
  const notUngrouped = `A ${what} can only be added to or removed from a device that is not in a group.`;
  return [
    {
      method: "GET",
      path: `/devices/:deviceId/${segment}`,
      auth: "user",
      handler: (ctx) => {
        const device = findDevice(ctx);
        ctx.access.require("DEVICE__VIEW", device.groupId);
        const items = attached(device)
          .map((a) => table(ctx.org).get(a.id))
          .filter((item) => item !== undefined)
          .sort(newestFirst);
        return ok(ctx.page(items, (item) => view(ctx.org, item, ctx.services.uploads)));
      },
    },
    {
      method: "POST",
      path: `/devices/:deviceId/${segment}`,
      auth: "user",
      handler: (ctx) => {
        const device = findDevice(ctx);
        ctx.access.require("CONTENT__MANAGE", device.groupId);
        const id = (parseOrThrow(body, ctx.body)[idField] as string).toLowerCase();
        const item = table(ctx.org).get(id);
        if (!item) throw invalid(idField, `The selected ${what} id is invalid.`);
        if (device.groupId !== null) throw invalid("deviceId", notUngrouped);
        if (attached(device).some((a) => a.id === id)) {
          if (ctx.services.strict.ignoreRepeatedContentAttach) return noContent();
          throw invalid(idField, `The ${what} is already assigned to this device.`);
        }
        attached(device).push({ id, attachedAt: ctx.now });
        ctx.audit({
          type: "updated",
          action: `attach-${what}-to-device`,
          resourceType: "device",
          resourceId: device.id,
          resourceName: deviceLabel(device),
          description: `Added ${what} '${label(item)}' to device '${deviceLabel(device)}'.`,
        });
        return noContent();
      },
    },
    {
      method: "DELETE",
      path: `/devices/:deviceId/${segment}/:${idField}`,
      auth: "user",
      handler: (ctx) => {
        const device = findDevice(ctx);
        ctx.access.require("CONTENT__MANAGE", device.groupId);
        if (device.groupId !== null) throw invalid("deviceId", notUngrouped);
        const list = attached(device);
        const index = list.findIndex((a) => a.id === ctx.params[idField]);
        if (index < 0) throw notFound();
        list.splice(index, 1);
        const item = table(ctx.org).get(ctx.params[idField]);
        ctx.audit({
          type: "updated",
          action: `detach-${what}-from-device`,
          resourceType: "device",
          resourceId: device.id,
          resourceName: deviceLabel(device),
          description: `Removed ${what} '${item ? label(item) : ctx.params[idField]}' from device '${deviceLabel(device)}'.`,
        });
        return noContent();
      },
    },
  ];
}

export const deviceContentRoutes: RouteDefinition[] = [
  ...contentRoutes<FileItem>({
    segment: "files",
    idField: "fileId",
    what: "file",
    table: (org) => org.files,
    attached: (device) => device.files,
    label: (file) => file.filename,
    view: fileView,
  }),
  ...contentRoutes<Video>({
    segment: "videos",
    idField: "videoId",
    what: "video",
    table: (org) => org.videos,
    attached: (device) => device.videos,
    label: (video) => video.name,
    view: videoView,
  }),
];

/** A group's own files and videos, paginated in the catalogue's order (switch `listGroupContent`, off by default). */
function groupContentList<T extends { id: string; createdAt: string }>(
  segment: "files" | "videos",
  table: (org: OrgState) => Table<T>,
  view: (org: OrgState, item: T, links?: DownloadLinks) => unknown,
): RouteDefinition {
  return {
    method: "GET",
    path: `/groups/:groupId/${segment}`,
    auth: "user",
    handler: (ctx) => {
      const group = ctx.org.groups.get(ctx.params.groupId);
      if (!group) throw notFound();
      ctx.access.require("GROUP__VIEW", group.id);
      const items = group[segment]
        .map((a) => table(ctx.org).get(a.id))
        .filter((item) => item !== undefined)
        .sort(newestFirst);
      return ok(ctx.page(items, (item) => view(ctx.org, item, ctx.services.uploads)));
    },
  };
}

export const groupContentListRoutes: RouteDefinition[] = [
  groupContentList<FileItem>("files", (org) => org.files, fileView),
  groupContentList<Video>("videos", (org) => org.videos, videoView),
];
