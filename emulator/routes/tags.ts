/**
 * Tags: the organization's tag catalogue (`GET/POST /tags`, `GET/PUT/DELETE /tags/{tagId}`) and the tags of
 * groups, devices, apps, files and videos (`PATCH /{kind}/{id}/tags/attach|detach`, body `{ tags: [names] }`).
 *
 * Owners carry tag names (the OpenAPI's `tags: string[]`); a name is matched to a tag case-insensitively and
 * stored as the tag spells it. Renaming a tag renames it on every owner, deleting it removes it from them.
 * Silent points of the documents, read leniently unless a switch says otherwise: a name that names no tag
 * creates the tag (`rejectUnknownTags`: 422), attaching a present tag or detaching an absent one is a no-op
 * (`rejectRepeatedTagAttach`: 422). Tag names are unique in an organization (422 "has already been taken").
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Tag } from "../catalogModel";
import { created, noContent, ok, type RequestContext, type RouteDefinition } from "../context";
import { FieldErrorCollector, invalid, notFound, parseOrThrow } from "../errors";
import type { Permission } from "../permissions";
import type { OrgState } from "../store";
import { deviceLabel } from "./audit";

const tagName = z.string().trim().min(1).max(255);
const tagBody = z.object({ name: tagName });
const ownerTagsBody = z.object({ tags: z.array(tagName).min(1).max(100) });
const listQuery = z.object({ search: z.string().max(255).optional() });

export function tagView(tag: Tag) {
  return { id: tag.id, name: tag.name, createdAt: tag.createdAt, updatedAt: tag.updatedAt };
}

function tagNamed(org: OrgState, name: string): Tag | undefined {
  const wanted = name.toLowerCase();
  for (const tag of org.tags.values()) if (tag.name.toLowerCase() === wanted) return tag;
  return undefined;
}

const findTagByName = (ctx: RequestContext, name: string) => tagNamed(ctx.org, name);

/** A migrated device keeps its tags: the target organization gains a tag for each name it lacks. */
export function ensureTags(org: OrgState, names: readonly string[], now: string): void {
  for (const name of names)
    if (!tagNamed(org, name)) org.tags.insert({ id: randomUUID(), name, createdAt: now, updatedAt: now });
}

function insertTag(ctx: RequestContext, name: string): Tag {
  const tag: Tag = { id: randomUUID(), name, createdAt: ctx.now, updatedAt: ctx.now };
  ctx.org.tags.insert(tag);
  ctx.audit({
    type: "created",
    action: "create-tag",
    resourceType: "tag",
    resourceId: tag.id,
    resourceName: tag.name,
    description: `Created tag '${tag.name}'.`,
  });
  return tag;
}

/**
 * The tags' names as stored (each once, in the order given). A name that names no tag is created, or with
 * `rejectUnknownTags` reported as `field.N`; nothing is created unless every name is valid.
 */
export function resolveTagNames(ctx: RequestContext, names: readonly string[], field: string): string[] {
  const errors = new FieldErrorCollector();
  const missing: string[] = [];
  const resolved: string[] = [];
  names.forEach((name, i) => {
    const tag = findTagByName(ctx, name);
    if (tag) resolved.push(tag.name);
    else if (ctx.services.strict.rejectUnknownTags)
      errors.add(`${field}.${i}`, `The selected ${field}.${i} is invalid.`);
    else {
      missing.push(name);
      resolved.push(name);
    }
  });
  errors.throwIfAny();
  const creating = new Set<string>();
  for (const name of missing)
    if (!creating.has(name.toLowerCase()) && !findTagByName(ctx, name)) {
      creating.add(name.toLowerCase());
      insertTag(ctx, name);
    }
  // A name given twice in different cases resolves to the first spelling (the tag created for it).
  return [...new Set(resolved.map((name) => findTagByName(ctx, name)?.name ?? name))];
}

/** Every holder of tag names in the organization. */
function tagHolders(ctx: RequestContext): { tags?: string[] }[] {
  const { org } = ctx;
  return [
    ...org.groups.values(),
    ...org.devices.values(),
    ...org.apps.values(),
    ...org.files.values(),
    ...org.videos.values(),
  ];
}

interface TagOwnerKind {
  segment: "groups" | "devices" | "apps" | "files" | "videos";
  idParam: string;
  what: string;
  /** The owner's tag list (created when absent), its label for audit records, and who may change it. */
  find: (ctx: RequestContext) => { tags: () => string[]; label: string; groupId: string | null } | undefined;
  permission: Permission;
}

const OWNER_KINDS: TagOwnerKind[] = [
  {
    segment: "groups",
    idParam: "groupId",
    what: "group",
    permission: "GROUP__MANAGE",
    find: (ctx) => {
      const group = ctx.org.groups.get(ctx.params.groupId);
      return group && { tags: () => (group.tags ??= []), label: group.name, groupId: group.id };
    },
  },
  {
    segment: "devices",
    idParam: "deviceId",
    what: "device",
    permission: "DEVICE__MANAGE",
    find: (ctx) => {
      const device = ctx.org.devices.get(ctx.params.deviceId);
      return device && { tags: () => device.tags, label: deviceLabel(device), groupId: device.groupId };
    },
  },
  {
    segment: "apps",
    idParam: "appId",
    what: "app",
    permission: "RELEASE_CHANNEL__MANAGE",
    find: (ctx) => {
      const app = ctx.org.apps.get(ctx.params.appId);
      return app && { tags: () => app.tags, label: app.name, groupId: null };
    },
  },
  {
    segment: "files",
    idParam: "fileId",
    what: "file",
    permission: "CONTENT__MANAGE",
    find: (ctx) => {
      const file = ctx.org.files.get(ctx.params.fileId);
      return file && { tags: () => file.tags, label: file.filename, groupId: null };
    },
  },
  {
    segment: "videos",
    idParam: "videoId",
    what: "video",
    permission: "CONTENT__MANAGE",
    find: (ctx) => {
      const video = ctx.org.videos.get(ctx.params.videoId);
      return video && { tags: () => video.tags, label: video.name, groupId: null };
    },
  },
];

function ownerTagRoutes(kind: TagOwnerKind): RouteDefinition[] {
  const { segment, idParam, what, permission, find } = kind;
  const route = (action: "attach" | "detach"): RouteDefinition => ({
    method: "PATCH",
    path: `/${segment}/:${idParam}/tags/${action}`,
    auth: "user",
    handler: (ctx) => {
      const owner = find(ctx);
      if (!owner) throw notFound();
      ctx.access.require(permission, owner.groupId);
      const { tags } = parseOrThrow(ownerTagsBody, ctx.body);
      const strict = ctx.services.strict;
      const current = owner.tags();
      const has = (name: string) => current.some((t) => t.toLowerCase() === name.toLowerCase());
      let changed: string[];
      if (action === "attach") {
        if (strict.rejectRepeatedTagAttach) {
          const errors = new FieldErrorCollector();
          tags.forEach(
            (name, i) => has(name) && errors.add(`tags.${i}`, `The tag '${name}' is already attached.`),
          );
          errors.throwIfAny();
        }
        changed = resolveTagNames(ctx, tags, "tags").filter((name) => !has(name));
        current.push(...changed);
      } else {
        const errors = new FieldErrorCollector();
        tags.forEach((name, i) => {
          if (strict.rejectUnknownTags && !findTagByName(ctx, name))
            errors.add(`tags.${i}`, `The selected tags.${i} is invalid.`);
          else if (strict.rejectRepeatedTagAttach && !has(name))
            errors.add(`tags.${i}`, `The tag '${name}' is not attached.`);
        });
        errors.throwIfAny();
        const removing = new Set(tags.map((name) => name.toLowerCase()));
        changed = current.filter((name) => removing.has(name.toLowerCase()));
        const kept = current.filter((name) => !removing.has(name.toLowerCase()));
        current.splice(0, current.length, ...kept);
      }
      if (changed.length > 0) {
        const list = changed.map((name) => `'${name}'`).join(", ");
        ctx.audit({
          type: "updated",
          action: `${action}-tags-${action === "attach" ? "to" : "from"}-${what}`,
          resourceType: what,
          resourceId: ctx.params[idParam],
          resourceName: owner.label,
          description: `${action === "attach" ? "Added" : "Removed"} tags ${list} ${action === "attach" ? "to" : "from"} ${what} '${owner.label}'.`,
        });
      }
      return noContent();
    },
  });
  return [route("attach"), route("detach")];
}

function findTag(ctx: RequestContext): Tag {
  const tag = ctx.org.tags.get(ctx.params.tagId);
  if (!tag) throw notFound();
  return tag;
}

function requireFreeName(ctx: RequestContext, name: string, self?: Tag): void {
  const other = findTagByName(ctx, name);
  if (other && other !== self) throw invalid("name", "The name has already been taken.");
}

export const tagRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/tags",
    auth: "user",
    handler: (ctx) => {
      const { search } = parseOrThrow(listQuery, { search: ctx.query.search });
      const needle = search?.toLowerCase();
      const tags = ctx.org.tags.list().filter((t) => !needle || t.name.toLowerCase().includes(needle));
      return ok(ctx.page(tags, tagView));
    },
  },
  {
    method: "POST",
    path: "/tags",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("DEVICE__MANAGE");
      const { name } = parseOrThrow(tagBody, ctx.body);
      requireFreeName(ctx, name);
      return created(tagView(insertTag(ctx, name)));
    },
  },
  {
    method: "GET",
    path: "/tags/:tagId",
    auth: "user",
    handler: (ctx) => ok(tagView(findTag(ctx))),
  },
  {
    method: "PUT",
    path: "/tags/:tagId",
    auth: "user",
    handler: (ctx) => {
      const tag = findTag(ctx);
      ctx.access.require("DEVICE__MANAGE");
      const { name } = parseOrThrow(tagBody, ctx.body);
      requireFreeName(ctx, name, tag);
      if (name !== tag.name) {
        const before = tag.name;
        for (const holder of tagHolders(ctx))
          holder.tags?.forEach((t, i, list) => t === before && (list[i] = name));
        tag.name = name;
        tag.updatedAt = ctx.now;
        ctx.audit({
          type: "updated",
          action: "update-tag",
          resourceType: "tag",
          resourceId: tag.id,
          resourceName: name,
          description: `Renamed tag '${before}' to '${name}'.`,
        });
      }
      return ok(tagView(tag));
    },
  },
  {
    method: "DELETE",
    path: "/tags/:tagId",
    auth: "user",
    handler: (ctx) => {
      const tag = findTag(ctx);
      ctx.access.require("DEVICE__MANAGE");
      for (const holder of tagHolders(ctx)) {
        const index = holder.tags?.indexOf(tag.name) ?? -1;
        if (index >= 0) holder.tags?.splice(index, 1);
      }
      ctx.org.tags.delete(tag.id);
      ctx.audit({
        type: "deleted",
        action: "delete-tag",
        resourceType: "tag",
        resourceId: tag.id,
        resourceName: tag.name,
        description: `Deleted tag '${tag.name}'.`,
      });
      return noContent();
    },
  },
  ...OWNER_KINDS.flatMap(ownerTagRoutes),
];
