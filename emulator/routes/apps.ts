/**
 * Creating and changing apps: `POST /apps` (CreateApp: `name` 1..100 required, `deviceModelIds` optional) and
 * `PUT /apps/{appId}` (UpdateApp: `name`, `description`, `tags`, each optional). The builds, icon and package
 * name come from uploads, so an app made here has none: `packageName`, `icon` and `latestAvailableVersion` are
 * null until a build is uploaded.
 *
 * The OpenAPI gives the bodies and answers; the rules are the emulator's reading. Both need
 * `RELEASE_CHANNEL__MANAGE` organization-wide (the permission the app's tags need; the catalogue has no
 * app-managing permission). `deviceModelIds` must each name a model `GET /device-models` lists (the OpenAPI
 * points there); a PUT takes no `deviceModelIds` (UpdateApp has none: ignored, like every field a body does not
 * declare). `tags` resolve as tag attach does (unknown names create the tag, switch `rejectUnknownTags`).
 * Where the documents are silent, a switch (emulator/README.md): whether names are unique (`uniqueAppNames`),
 * which models an app gets when `deviceModelIds` is absent (`defaultAppModelsToSupported`), whether PUT `tags`
 * replace or add (`mergeAppTagsOnPut`), whether an empty `description` is kept or read as null
 * (`keepEmptyAppDescription`). A PUT that changes nothing moves no timestamp and records no audit entry.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { created, ok, type RequestContext, type RouteDefinition } from "../context";
import { FieldErrorCollector, invalid, notFound, parseOrThrow } from "../errors";
import type { App } from "../model";
import { appView } from "../views";
import { listedModels } from "./catalog";
import { resolveTagNames } from "./tags";

const appName = z.string().trim().min(1).max(100);

const createBody = z.object({
  name: appName,
  deviceModelIds: z.array(z.guid()).optional(),
});

const updateBody = z.object({
  name: appName.optional(),
  // The OpenAPI types it a string; null is read as "no description" too (what the answer shows for none).
  description: z.string().nullable().optional(),
  tags: z.array(z.string().trim().min(1).max(255)).max(100).optional(),
});

function findApp(ctx: RequestContext): App {
  const app = ctx.org.apps.get(ctx.params.appId);
  if (!app) throw notFound();
  return app;
}

/** With `uniqueAppNames`, a name another app of the organization has (case-insensitively) is 422. */
function requireFreeName(ctx: RequestContext, name: string, self: App | undefined): void {
  if (!ctx.services.strict.uniqueAppNames) return;
  const wanted = name.toLowerCase();
  if ([...ctx.org.apps.values()].some((a) => a !== self && a.name.toLowerCase() === wanted))
    throw invalid("name", "The name has already been taken.");
}

/** The models asked for, each once in the order given; every id must be one GET /device-models lists. */
function deviceModels(ctx: RequestContext, ids: readonly string[] | undefined): string[] {
  const listed = listedModels(ctx);
  if (ids === undefined)
    return ctx.services.strict.defaultAppModelsToSupported
      ? listed.filter((m) => m.isSupported).map((m) => m.id)
      : [];
  const known = new Set(listed.map((m) => m.id));
  const errors = new FieldErrorCollector();
  ids.forEach((id, i) => {
    if (!known.has(id.toLowerCase()))
      errors.add(`deviceModelIds.${i}`, `The selected deviceModelIds.${i} is invalid.`);
  });
  errors.throwIfAny();
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

function auditApp(ctx: RequestContext, type: "created" | "updated", app: App, name = app.name): void {
  ctx.audit({
    type,
    action: type === "created" ? "create-app" : "update-app",
    resourceType: "app",
    resourceId: app.id,
    resourceName: app.name,
    description: `${type === "created" ? "Created" : "Updated"} app '${name}'.`,
  });
}

export const appRoutes: RouteDefinition[] = [
  {
    method: "POST",
    path: "/apps",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("RELEASE_CHANNEL__MANAGE");
      const body = parseOrThrow(createBody, ctx.body);
      const deviceModelIds = deviceModels(ctx, body.deviceModelIds);
      requireFreeName(ctx, body.name, undefined);
      const app: App = {
        id: randomUUID(),
        name: body.name,
        description: null,
        packageName: null,
        tags: [],
        deviceModelIds,
        iconId: null,
        latestBuild: null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      ctx.org.apps.insert(app);
      auditApp(ctx, "created", app);
      return created(appView(ctx.store, ctx.org, app));
    },
  },
  {
    method: "PUT",
    path: "/apps/:appId",
    auth: "user",
    handler: (ctx) => {
      const app = findApp(ctx);
      ctx.access.require("RELEASE_CHANNEL__MANAGE");
      const body = parseOrThrow(updateBody, ctx.body);
      if (body.name !== undefined) requireFreeName(ctx, body.name, app);
      // Resolved (unknown tags created or refused) only once everything else in the body is known valid.
      const given = body.tags === undefined ? undefined : resolveTagNames(ctx, body.tags, "tags");

      const before = app.name;
      let changed = false;
      if (body.name !== undefined && body.name !== app.name) {
        app.name = body.name;
        changed = true;
      }
      if (body.description !== undefined) {
        // Laravel's ConvertEmptyStringsToNull reads "" as null; `keepEmptyAppDescription` keeps it as sent.
        const keep = ctx.services.strict.keepEmptyAppDescription;
        const description = body.description === "" && !keep ? null : body.description;
        if (description !== (app.description ?? null)) {
          app.description = description;
          changed = true;
        }
      }
      if (given !== undefined) {
        // Whether PUT replaces the tags or adds to them is not documented: a switch (mergeAppTagsOnPut).
        const tags = ctx.services.strict.mergeAppTagsOnPut
          ? [...app.tags, ...given.filter((t) => !app.tags.includes(t))]
          : given;
        if (!sameList(tags, app.tags)) {
          app.tags = tags;
          changed = true;
        }
      }
      if (changed) {
        app.updatedAt = ctx.now;
        auditApp(ctx, "updated", app, before);
      }
      return ok(appView(ctx.store, ctx.org, app));
    },
  },
];
