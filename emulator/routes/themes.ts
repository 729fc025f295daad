/**
 * What an experience refers to beyond apps and videos: themes (system and custom; only custom ones change),
 * images (system and the organization's, listed by type) and custom 3D environments.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { created, noContent, ok, type RequestContext, type RouteDefinition } from "../context";
import { invalid, notFound, parseOrThrow } from "../errors";
import { IMAGE_TYPES, THEME_COLORS, type Image, type Theme } from "../experienceModel";
import { custom3DEnvironmentView, imageView, themeView } from "./experienceViews";
import { settleProcessing } from "./imageUploads";

/** "hex format" (OpenAPI): the emulator reads it as `#RRGGBB`, either case, kept as sent unless lowercased. */
const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;
const color = z.string().regex(HEX_COLOR);

const themeBody = z.object({
  name: z.string().trim().min(1).max(255),
  background1: color,
  background2: color,
  text: color,
  accent1: color,
  accent2: color,
  accent3: color,
});

const imagesQuery = z.object({ type: z.enum(IMAGE_TYPES) });

/** System themes first, then by name (case-insensitive), then id (OpenAPI GetThemes). */
function themeOrder(a: Theme, b: Theme): number {
  if (a.isSystemOwned !== b.isSystemOwned) return a.isSystemOwned ? -1 : 1;
  const an = a.name.toLowerCase();
  const bn = b.name.toLowerCase();
  if (an !== bn) return an < bn ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Organization images first, then `created_at` descending, then id (OpenAPI GetImages). */
function imageOrder(a: Image, b: Image): number {
  if (a.isSystemOwned !== b.isSystemOwned) return a.isSystemOwned ? 1 : -1;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function findTheme(ctx: RequestContext): Theme {
  const theme = ctx.org.themes.get(ctx.params.themeId);
  if (!theme) throw notFound();
  return theme;
}

/** The body as stored: colours lowercased under `lowercaseThemeColors`; a name another theme has refused under `uniqueThemeNames`. */
function themeFields(ctx: RequestContext, self: Theme | undefined): z.output<typeof themeBody> {
  const body = parseOrThrow(themeBody, ctx.body);
  const { uniqueThemeNames, lowercaseThemeColors } = ctx.services.strict;
  if (lowercaseThemeColors) for (const c of THEME_COLORS) body[c] = body[c].toLowerCase();
  const wanted = body.name.toLowerCase();
  if (
    uniqueThemeNames &&
    [...ctx.org.themes.values()].some((t) => t !== self && t.name.toLowerCase() === wanted)
  )
    throw invalid("name", "The name has already been taken.");
  return body;
}

function requireCustom(theme: Theme, verb: string): void {
  if (theme.isSystemOwned) throw invalid("themeId", `System themes cannot be ${verb}.`);
}

function auditTheme(
  ctx: RequestContext,
  type: "created" | "updated" | "deleted",
  theme: Theme,
  name = theme.name,
) {
  const verb = { created: "Created", updated: "Updated", deleted: "Deleted" }[type];
  ctx.audit({
    type,
    action: `${type === "created" ? "create" : type === "updated" ? "update" : "delete"}-theme`,
    resourceType: "theme",
    resourceId: theme.id,
    resourceName: theme.name,
    description: `${verb} theme '${name}'.`,
  });
}

export const themeRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/themes",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("CONTENT__VIEW");
      return ok(ctx.page([...ctx.org.themes.values()].sort(themeOrder), themeView));
    },
  },
  {
    method: "POST",
    path: "/themes",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("CONTENT__MANAGE");
      const body = themeFields(ctx, undefined);
      const theme: Theme = {
        id: randomUUID(),
        isSystemOwned: false,
        ...body,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      ctx.org.themes.insert(theme);
      auditTheme(ctx, "created", theme);
      return created(themeView(theme));
    },
  },
  {
    method: "GET",
    path: "/themes/:themeId",
    auth: "user",
    handler: (ctx) => {
      const theme = findTheme(ctx);
      ctx.access.require("CONTENT__VIEW");
      return ok(themeView(theme));
    },
  },
  {
    method: "PUT",
    path: "/themes/:themeId",
    auth: "user",
    handler: (ctx) => {
      const theme = findTheme(ctx);
      ctx.access.require("CONTENT__MANAGE");
      requireCustom(theme, "modified");
      const body = themeFields(ctx, theme);
      const before = theme.name;
      const changed = (Object.keys(body) as (keyof typeof body)[]).filter((k) => theme[k] !== body[k]);
      if (changed.length > 0) {
        Object.assign(theme, body, { updatedAt: ctx.now });
        auditTheme(ctx, "updated", theme, before);
      }
      return ok(themeView(theme));
    },
  },
  {
    method: "DELETE",
    path: "/themes/:themeId",
    auth: "user",
    handler: (ctx) => {
      const theme = findTheme(ctx);
      ctx.access.require("CONTENT__MANAGE");
      requireCustom(theme, "deleted");
      const users = ctx.org.experiences.usingTheme(theme.id);
      if (users.length > 0 && ctx.services.strict.rejectDeletingUsedTheme)
        throw invalid("themeId", `The theme is used by ${users.length} headset experience(s).`);
      ctx.org.experiences.clearTheme(theme.id);
      ctx.org.themes.delete(theme.id);
      auditTheme(ctx, "deleted", theme);
      return noContent();
    },
  },
  {
    method: "GET",
    path: "/images",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("CONTENT__VIEW");
      const { type } = parseOrThrow(imagesQuery, { type: ctx.query.type });
      for (const image of ctx.org.images.values()) settleProcessing(image, Date.parse(ctx.now));
      const images = [...ctx.org.images.values()].filter((i) => i.type === type).sort(imageOrder);
      return ok(ctx.page(images, (image) => imageView(image, ctx.services.uploads)));
    },
  },
  {
    method: "GET",
    path: "/images/:imageId",
    auth: "user",
    handler: (ctx) => {
      const image = ctx.org.images.get(ctx.params.imageId);
      if (!image) throw notFound();
      ctx.access.require("CONTENT__VIEW");
      settleProcessing(image, Date.parse(ctx.now));
      return ok(imageView(image, ctx.services.uploads));
    },
  },
  {
    method: "GET",
    path: "/custom-3d-environments",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("CONTENT__VIEW");
      const list = ctx.org.custom3DEnvironments.list();
      for (const environment of list) settleProcessing(environment, Date.parse(ctx.now));
      return ok(ctx.page(list, (e) => custom3DEnvironmentView(e, ctx.services.uploads)));
    },
  },
  {
    method: "GET",
    path: "/custom-3d-environments/:custom3DEnvironmentId",
    auth: "user",
    handler: (ctx) => {
      const environment = ctx.org.custom3DEnvironments.get(ctx.params.custom3DEnvironmentId);
      if (!environment) throw notFound();
      ctx.access.require("CONTENT__VIEW");
      settleProcessing(environment, Date.parse(ctx.now));
      // GetCustom3DEnvironment_200_response wraps the record in `data`, unlike the other single reads.
      return ok({ data: custom3DEnvironmentView(environment, ctx.services.uploads) });
    },
  },
];
