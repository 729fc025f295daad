/**
 * Groups form a tree: unconfigured groups are folders (may have children), configured groups are leaves (hold
 * devices, release channels, files and videos). Configuring is one-way.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { created, noContent, ok, type RequestContext, type RouteDefinition } from "../context";
import { FieldErrorCollector, invalid, notFound, parseOrThrow } from "../errors";
import type { Attachment, Group } from "../model";
import type { Permission } from "../permissions";
import type { OrgState } from "../store";
import { attachmentAuditSubject } from "./audit";
import {
  groupView,
  hierarchyView,
  releaseChannelView,
  attachedReleaseChannels,
  type HierarchyNode,
} from "../views";

const groupBody = z.object({
  name: z.string().trim().min(1).max(255),
  parentId: z.guid().nullable(),
});

/** The duplicate's body: `CreateTag_request` in the OpenAPI document, a name only. */
const duplicateBody = z.object({ name: z.string().trim().min(1).max(255) });

const deleteQuery = z.object({ replacementGroupId: z.guid().optional() });

function findGroup(ctx: RequestContext): Group {
  const group = ctx.org.groups.get(ctx.params.groupId);
  if (!group) throw notFound();
  return group;
}

/**
 * Resolve a body's parentId: an existing unconfigured group of the organization (null = root). `moving` is the
 * group being re-parented, which may not end up under itself.
 */
function resolveParent(ctx: RequestContext, parentId: string | null, moving?: Group): Group | null {
  if (parentId === null) {
    ctx.access.require("GROUP__MANAGE");
    return null;
  }
  const parent = ctx.org.groups.get(parentId.toLowerCase());
  ctx.access.require("GROUP__MANAGE", parent?.id ?? null);
  if (!parent) throw invalid("parentId", "The selected parent id is invalid.");
  if (parent.isConfigured) throw invalid("parentId", "The parent group must be an unconfigured group.");
  if (moving && ctx.org.isSelfOrDescendant(parent.id, moving.id)) {
    throw invalid("parentId", "The parent group cannot be the group itself or one of its descendants.");
  }
  return parent;
}

function groupAudit(group: Group, type: "created" | "updated" | "deleted", action: string) {
  return { type, action, resourceType: "group", resourceId: group.id, resourceName: group.name };
}

/** Visible groups: all of them with organization-wide GROUP__VIEW, else those a group role reaches. */
function visibleGroups(ctx: RequestContext): readonly Group[] {
  ctx.access.requireAnywhere("GROUP__VIEW");
  const all = ctx.org.groups.list();
  if (ctx.access.hasOrgWide("GROUP__VIEW")) return all;
  return all.filter((g) => ctx.access.can("GROUP__VIEW", g.id));
}

/** Release channels, files and videos attach to configured groups only, each at most once. */
function attachmentRoutes(options: {
  segment: "release-channels" | "files" | "videos";
  idField: "releaseChannelId" | "fileId" | "videoId";
  what: string;
  permission: Permission;
  list: (g: Group) => Attachment[];
  /** The attached thing's display name; undefined when the id names nothing in the organization. */
  nameOf: (org: OrgState, id: string) => string | undefined;
}): RouteDefinition[] {
  const { segment, idField, what, permission, list, nameOf } = options;
  const action = what.replace(/ /g, "-");
  const body = z.object({ [idField]: z.guid() });
  return [
    {
      method: "POST",
      path: `/groups/:groupId/${segment}`,
      auth: "user",
      handler: (ctx) => {
        const group = findGroup(ctx);
        ctx.access.require(permission, group.id);
        const id = (parseOrThrow(body, ctx.body)[idField] as string).toLowerCase();
        const errors = new FieldErrorCollector();
        const name = nameOf(ctx.org, id);
        if (name === undefined) errors.add(idField, `The selected ${what} id is invalid.`);
        else if (!group.isConfigured)
          errors.add("groupId", `A ${what} can only be added to a configured group.`);
        else if (list(group).some((a) => a.id === id)) {
          // Switch `ignoreRepeatedContentAttach`: a repeated file or video attach is a no-op (documents silent).
          if (segment !== "release-channels" && ctx.services.strict.ignoreRepeatedContentAttach)
            return noContent();
          errors.add(idField, `The ${what} is already assigned to this group.`);
        }
        errors.throwIfAny();
        list(group).push({ id, attachedAt: ctx.now });
        ctx.audit({
          type: "updated",
          action: `attach-${action}-to-group`,
          ...attachmentAuditSubject(
            ctx,
            { resourceType: "group", resourceId: group.id, resourceName: group.name },
            { resourceType: action, resourceId: id, resourceName: name ?? null },
          ),
          description: `Added ${what} '${name}' to group '${group.name}'.`,
        });
        return noContent();
      },
    },
    {
      method: "DELETE",
      path: `/groups/:groupId/${segment}/:${idField}`,
      auth: "user",
      handler: (ctx) => {
        const group = findGroup(ctx);
        ctx.access.require(permission, group.id);
        const attached = list(group);
        const index = attached.findIndex((a) => a.id === ctx.params[idField]);
        if (index < 0) throw notFound();
        attached.splice(index, 1);
        const id = ctx.params[idField];
        ctx.audit({
          type: "updated",
          action: `detach-${action}-from-group`,
          ...attachmentAuditSubject(
            ctx,
            { resourceType: "group", resourceId: group.id, resourceName: group.name },
            { resourceType: action, resourceId: id, resourceName: nameOf(ctx.org, id) ?? null },
          ),
          description: `Removed ${what} '${nameOf(ctx.org, id) ?? id}' from group '${group.name}'.`,
        });
        return noContent();
      },
    },
  ];
}

export const groupRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/groups",
    auth: "user",
    handler: (ctx) => ok(ctx.page(visibleGroups(ctx), (group) => groupView(ctx.org, group))),
  },
  {
    method: "GET",
    path: "/groups/:groupId",
    auth: "user",
    handler: (ctx) => {
      const group = findGroup(ctx);
      ctx.access.require("GROUP__VIEW", group.id);
      return ok(groupView(ctx.org, group));
    },
  },
  {
    method: "GET",
    path: "/group-hierarchy",
    auth: "user",
    handler: (ctx) => {
      ctx.access.requireAnywhere("GROUP__VIEW");
      if (ctx.access.hasOrgWide("GROUP__VIEW")) return ok({ data: hierarchyView(ctx.org) });
      // Only group roles: the tree starts at the highest groups the caller may see.
      const data: HierarchyNode[] = [];
      for (const group of visibleGroups(ctx)) {
        if (group.parentId && ctx.access.can("GROUP__VIEW", group.parentId)) continue;
        const node = hierarchyView(ctx.org, group.parentId).find((n) => n.id === group.id);
        if (node) data.push(node);
      }
      return ok({ data });
    },
  },
  {
    method: "POST",
    path: "/groups",
    auth: "user",
    handler: (ctx) => {
      const body = parseOrThrow(groupBody, ctx.body);
      const parent = resolveParent(ctx, body.parentId);
      const group: Group = {
        id: randomUUID(),
        name: body.name,
        parentId: parent?.id ?? null,
        isConfigured: false,
        releaseChannels: [],
        files: [],
        videos: [],
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      ctx.org.insertGroup(group);
      ctx.audit({
        ...groupAudit(group, "created", "create-group"),
        description: `Created group '${group.name}'.`,
      });
      return created(groupView(ctx.org, group));
    },
  },
  {
    method: "PUT",
    path: "/groups/:groupId",
    auth: "user",
    handler: (ctx) => {
      const group = findGroup(ctx);
      ctx.access.require("GROUP__MANAGE", group.id);
      const body = parseOrThrow(groupBody, ctx.body);
      const parentId = body.parentId?.toLowerCase() ?? null;
      const parent = parentId === group.parentId ? undefined : resolveParent(ctx, parentId, group);
      const before = group.name;
      let changed = false;
      if (body.name !== group.name) {
        group.name = body.name;
        changed = true;
      }
      if (parent !== undefined) {
        ctx.org.setGroupParent(group, parent?.id ?? null);
        changed = true;
      }
      if (changed) {
        group.updatedAt = ctx.now;
        ctx.audit({
          ...groupAudit(group, "updated", "update-group"),
          description: `Updated group '${before}'.`,
        });
      }
      return ok(groupView(ctx.org, group));
    },
  },
  {
    method: "PATCH",
    path: "/groups/:groupId/configure",
    auth: "user",
    handler: (ctx) => {
      const group = findGroup(ctx);
      ctx.access.require("GROUP__MANAGE", group.id);
      if (group.isConfigured) throw invalid("groupId", "The group is already configured.");
      if (ctx.org.childIdsOf(group.id).size > 0) {
        throw invalid("groupId", "A group that has child groups cannot be configured.");
      }
      group.isConfigured = true;
      group.updatedAt = ctx.now;
      ctx.audit({
        ...groupAudit(group, "updated", "configure-group"),
        description: `Configured group '${group.name}'.`,
      });
      return ok(groupView(ctx.org, group));
    },
  },
  {
    // The documents say only "a new configured group with all the same configurations as the original" and "no
    // devices": the copy is placed beside the original (same parent), and takes its release channels, files,
    // videos and tags. The provider reads the copy's parent from the answer, never assuming this placement.
    method: "POST",
    path: "/groups/:groupId/duplicate",
    auth: "user",
    examples: {
      success: { params: { groupId: "configuredGroup" }, body: { name: "Example copy" } },
      error: { params: { groupId: "unconfiguredGroup" }, body: { name: "No copy" } },
      audit: {
        type: "created",
        action: "duplicate-group",
        resourceType: "group",
        resourceName: "Example copy",
        description: "Duplicated group '{configuredGroup}' as 'Example copy'.",
      },
    },
    handler: (ctx) => {
      const source = findGroup(ctx);
      ctx.access.require("GROUP__MANAGE", source.id);
      const { name } = parseOrThrow(duplicateBody, ctx.body);
      if (!source.isConfigured) throw invalid("groupId", "Only a configured group can be duplicated.");
      const copy: Group = {
        id: randomUUID(),
        name,
        parentId: source.parentId,
        isConfigured: true,
        releaseChannels: source.releaseChannels.map((a) => ({ id: a.id, attachedAt: ctx.now })),
        files: source.files.map((a) => ({ id: a.id, attachedAt: ctx.now })),
        videos: source.videos.map((a) => ({ id: a.id, attachedAt: ctx.now })),
        ...(source.tags ? { tags: [...source.tags] } : {}),
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      ctx.org.insertGroup(copy);
      ctx.audit({
        ...groupAudit(copy, "created", "duplicate-group"),
        description: `Duplicated group '${source.name}' as '${copy.name}'.`,
      });
      return created(groupView(ctx.org, copy));
    },
  },
  {
    method: "DELETE",
    path: "/groups/:groupId",
    auth: "user",
    handler: (ctx) => {
      const { org } = ctx;
      const group = findGroup(ctx);
      ctx.access.require("GROUP__MANAGE", group.id);
      const { replacementGroupId } = parseOrThrow(deleteQuery, ctx.query);
      const children = [...org.childIdsOf(group.id)].map((id) => org.groups.get(id) as Group);

      let replacement: Group | undefined;
      if (replacementGroupId !== undefined) {
        replacement = org.groups.get(replacementGroupId.toLowerCase());
        if (!replacement)
          throw invalid("replacementGroupId", "The selected replacement group id is invalid.");
        ctx.access.require("GROUP__MANAGE", replacement.id);
        if (replacement.isConfigured) {
          throw invalid("replacementGroupId", "The replacement group must be an unconfigured group.");
        }
        if (org.isSelfOrDescendant(replacement.id, group.id)) {
          throw invalid(
            "replacementGroupId",
            "The replacement group cannot be the deleted group itself or one of its descendants.",
          );
        }
      } else if (children.length > 0) {
        throw invalid(
          "replacementGroupId",
          "The replacement group id field is required when the group has child groups.",
        );
      }

      for (const child of children) {
        org.setGroupParent(child, (replacement as Group).id);
        child.updatedAt = ctx.now;
      }
      for (const deviceId of [...org.deviceIdsIn(group.id)]) {
        const device = org.devices.get(deviceId);
        if (!device) continue;
        org.setDeviceGroup(device, null);
        device.updatedAt = ctx.now;
      }
      for (const user of org.users.values()) {
        const kept = user.accessControls.filter(
          (c) => !(c.protectable.type === "group" && c.protectable.id === group.id),
        );
        if (kept.length !== user.accessControls.length) {
          user.accessControls = kept;
          user.updatedAt = ctx.now;
        }
      }
      org.removeGroup(group);
      ctx.audit({
        ...groupAudit(group, "deleted", "delete-group"),
        description: `Deleted group '${group.name}'.`,
      });
      return noContent();
    },
  },
  {
    method: "GET",
    path: "/groups/:groupId/release-channels",
    auth: "user",
    handler: (ctx) => {
      const group = findGroup(ctx);
      ctx.access.require("GROUP__VIEW", group.id);
      const channels = attachedReleaseChannels(ctx.org, group.releaseChannels);
      return ok(ctx.page(channels, (channel) => releaseChannelView(ctx.store, ctx.org, channel)));
    },
  },
  ...attachmentRoutes({
    segment: "release-channels",
    idField: "releaseChannelId",
    what: "release channel",
    permission: "RELEASE_CHANNEL__MANAGE",
    list: (g) => g.releaseChannels,
    nameOf: (org, id) => org.releaseChannels.get(id)?.name,
  }),
  ...attachmentRoutes({
    segment: "files",
    idField: "fileId",
    what: "file",
    permission: "CONTENT__MANAGE",
    list: (g) => g.files,
    nameOf: (org, id) => org.files.get(id)?.filename,
  }),
  ...attachmentRoutes({
    segment: "videos",
    idField: "videoId",
    what: "video",
    permission: "CONTENT__MANAGE",
    list: (g) => g.videos,
    nameOf: (org, id) => org.videos.get(id)?.name,
  }),
];
