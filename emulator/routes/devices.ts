/** Devices: listing and editing, release channels of ungrouped devices, migration between organizations. */
import { z } from "zod";
import { Access } from "../access";
import { noContent, ok, type RequestContext, type RouteDefinition } from "../context";
import { FieldErrorCollector, forbidden, invalid, notFound, parseOrThrow } from "../errors";
import type { Device } from "../model";
import { deviceView, releaseChannelView, attachedReleaseChannels } from "../views";
import { attachmentAuditSubject, deviceLabel } from "./audit";
import { devicesMatching } from "./deviceFilters";
import { ensureTags, resolveTagNames } from "./tags";

const tag = z.string().trim().min(1).max(255);

const updateDeviceBody = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  groupId: z.guid().nullable().optional(),
  tags: z.array(tag).max(100).optional(),
});

const releaseChannelBody = z.object({ releaseChannelId: z.guid() });

/** UpdateDeviceCustomFields: `value` is required for attach and sync (OpenAPI), names once each. */
const customFieldsBody = z
  .object({
    action: z.enum(["attach", "detach", "sync"]),
    customFields: z
      .array(z.object({ name: z.string().trim().min(1).max(255), value: z.string().max(255).optional() }))
      .max(100),
  })
  .superRefine((body, issues) => {
    const seen = new Set<string>();
    body.customFields.forEach((field, i) => {
      if (seen.has(field.name))
        issues.addIssue({
          code: "custom",
          path: ["customFields", i, "name"],
          message: `The customFields.${i}.name field has a duplicate value.`,
        });
      seen.add(field.name);
      if (field.value === undefined && body.action !== "detach")
        issues.addIssue({
          code: "custom",
          path: ["customFields", i, "value"],
          message: `The customFields.${i}.value field is required when action is ${body.action}.`,
        });
    });
  });

type CustomField = Device["telemetry"]["customFields"][number];

function applyCustomFields(current: CustomField[], body: z.output<typeof customFieldsBody>): CustomField[] {
  const given = body.customFields.map((f) => ({ name: f.name, value: f.value ?? "" }));
  if (body.action === "sync") return given;
  const names = new Set(given.map((f) => f.name));
  if (body.action === "detach") return current.filter((f) => !names.has(f.name));
  const next = current.map((f) => given.find((g) => g.name === f.name) ?? f);
  return [...next, ...given.filter((g) => !current.some((f) => f.name === g.name))];
}

const sameFields = (a: readonly CustomField[], b: readonly CustomField[]) =>
  a.length === b.length && a.every((f, i) => f.name === b[i].name && f.value === b[i].value);
const migrateBody = z.object({ groupId: z.guid().nullable().optional() });

export function findDevice(ctx: RequestContext): Device {
  const device = ctx.org.devices.get(ctx.params.deviceId);
  if (!device) throw notFound();
  return device;
}

function requireUngrouped(device: Device, field: string): void {
  if (device.groupId !== null) {
    throw invalid(field, "Release channels can only be managed on a device that is not in a group.");
  }
}

const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((t, i) => t === b[i]);

export const deviceRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/devices",
    auth: "user",
    handler: (ctx) => {
      ctx.access.requireAnywhere("DEVICE__VIEW");
      const matches = devicesMatching(ctx);
      const everywhere = ctx.access.hasOrgWide("DEVICE__VIEW");
      let devices = ctx.org.devices.list();
      if (matches || !everywhere) {
        devices = devices.filter(
          (d) =>
            (!matches || matches(d)) &&
            (everywhere || (d.groupId !== null && ctx.access.can("DEVICE__VIEW", d.groupId))),
        );
      }
      return ok(ctx.page(devices, (device) => deviceView(ctx.store, ctx.org, device)));
    },
  },
  {
    method: "GET",
    path: "/devices/:deviceId",
    auth: "user",
    handler: (ctx) => {
      const device = findDevice(ctx);
      ctx.access.require("DEVICE__VIEW", device.groupId);
      return ok(deviceView(ctx.store, ctx.org, device));
    },
  },
  {
    method: "PUT",
    path: "/devices/:deviceId",
    auth: "user",
    handler: (ctx) => {
      const { org } = ctx;
      const device = findDevice(ctx);
      const body = parseOrThrow(updateDeviceBody, ctx.body);
      if (body.name !== undefined || body.tags !== undefined)
        ctx.access.require("DEVICE__MANAGE", device.groupId);

      const targetId = body.groupId === undefined ? device.groupId : (body.groupId?.toLowerCase() ?? null);
      const moving = targetId !== device.groupId;
      if (moving) {
        // Taking a device out of a group and putting it into one both need the right on that group.
        if (device.groupId !== null) ctx.access.require("GROUP__ADD_REMOVE_DEVICES", device.groupId);
        if (targetId !== null) {
          const target = org.groups.get(targetId);
          ctx.access.require("GROUP__ADD_REMOVE_DEVICES", target?.id ?? null);
          if (!target) throw invalid("groupId", "The selected group id is invalid.");
          if (!target.isConfigured)
            throw invalid("groupId", "Devices can only be added to configured groups.");
        }
      }

      // Resolved (and unknown tags created or refused) only once everything else in the body is known valid.
      const givenTags = body.tags === undefined ? undefined : resolveTagNames(ctx, body.tags, "tags");
      const before = deviceLabel(device);
      let changed = false;
      if (body.name !== undefined && body.name !== device.name) {
        device.name = body.name;
        changed = true;
      }
      if (givenTags !== undefined) {
        // Whether PUT replaces the tags or adds to them is not documented: a switch (mergeDeviceTagsOnPut).
        const given = givenTags;
        const merge = ctx.services.strict.mergeDeviceTagsOnPut;
        const tags = merge ? [...device.tags, ...given.filter((t) => !device.tags.includes(t))] : given;
        if (!sameTags(tags, device.tags)) {
          device.tags = tags;
          changed = true;
        }
      }
      if (moving) {
        org.setDeviceGroup(device, targetId);
        // The new group's release channels reach it from now on (simulated rollouts start here).
        if (targetId !== null) device.groupJoinedAt = ctx.now;
        // A grouped device gets its release channels, files and videos from its group.
        if (targetId !== null) {
          device.releaseChannels = [];
          device.files = [];
          device.videos = [];
        }
        changed = true;
      }
      if (changed) {
        device.updatedAt = ctx.now;
        ctx.audit({
          type: "updated",
          action: "update-device",
          resourceType: "device",
          resourceId: device.id,
          resourceName: deviceLabel(device),
          description: `Updated device '${before}'.`,
        });
      }
      return ok(deviceView(ctx.store, org, device));
    },
  },
  {
    method: "PATCH",
    path: "/devices/:deviceId/custom-fields",
    auth: "user",
    handler: (ctx) => {
      const device = findDevice(ctx);
      ctx.access.require("DEVICE__MANAGE", device.groupId);
      const body = parseOrThrow(customFieldsBody, ctx.body);
      const fields = applyCustomFields(device.telemetry.customFields, body);
      if (!sameFields(fields, device.telemetry.customFields)) {
        device.telemetry.customFields = fields;
        device.updatedAt = ctx.now;
        ctx.audit({
          type: "updated",
          action: "update-device-custom-fields",
          resourceType: "device",
          resourceId: device.id,
          resourceName: deviceLabel(device),
          description: `Updated the custom fields of device '${deviceLabel(device)}' (${body.action}).`,
        });
      }
      return ok(deviceView(ctx.store, ctx.org, device));
    },
  },
  {
    method: "GET",
    path: "/devices/:deviceId/release-channels",
    auth: "user",
    handler: (ctx) => {
      const device = findDevice(ctx);
      ctx.access.require("DEVICE__VIEW", device.groupId);
      const channels = attachedReleaseChannels(ctx.org, device.releaseChannels);
      return ok(ctx.page(channels, (channel) => releaseChannelView(ctx.store, ctx.org, channel)));
    },
  },
  {
    method: "POST",
    path: "/devices/:deviceId/release-channels",
    auth: "user",
    handler: (ctx) => {
      const device = findDevice(ctx);
      ctx.access.require("RELEASE_CHANNEL__MANAGE", device.groupId);
      const id = parseOrThrow(releaseChannelBody, ctx.body).releaseChannelId.toLowerCase();
      const errors = new FieldErrorCollector();
      if (!ctx.org.releaseChannels.get(id))
        errors.add("releaseChannelId", "The selected release channel id is invalid.");
      errors.throwIfAny();
      requireUngrouped(device, "deviceId");
      if (device.releaseChannels.some((a) => a.id === id)) {
        throw invalid("releaseChannelId", "The release channel is already assigned to this device.");
      }
      device.releaseChannels.push({ id, attachedAt: ctx.now });
      ctx.audit({
        type: "updated",
        action: "attach-release-channel-to-device",
        ...attachmentAuditSubject(
          ctx,
          { resourceType: "device", resourceId: device.id, resourceName: deviceLabel(device) },
          {
            resourceType: "release-channel",
            resourceId: id,
            resourceName: ctx.org.releaseChannels.get(id)?.name ?? null,
          },
        ),
        description: `Added release channel '${ctx.org.releaseChannels.get(id)?.name}' to device '${deviceLabel(device)}'.`,
      });
      return noContent();
    },
  },
  {
    method: "DELETE",
    path: "/devices/:deviceId/release-channels/:releaseChannelId",
    auth: "user",
    handler: (ctx) => {
      const device = findDevice(ctx);
      ctx.access.require("RELEASE_CHANNEL__MANAGE", device.groupId);
      requireUngrouped(device, "deviceId");
      const index = device.releaseChannels.findIndex((a) => a.id === ctx.params.releaseChannelId);
      if (index < 0) throw notFound();
      device.releaseChannels.splice(index, 1);
      const channel = ctx.org.releaseChannels.get(ctx.params.releaseChannelId);
      ctx.audit({
        type: "updated",
        action: "detach-release-channel-from-device",
        ...attachmentAuditSubject(
          ctx,
          { resourceType: "device", resourceId: device.id, resourceName: deviceLabel(device) },
          {
            resourceType: "release-channel",
            resourceId: ctx.params.releaseChannelId,
            resourceName: channel?.name ?? null,
          },
        ),
        description: `Removed release channel '${channel?.name ?? ctx.params.releaseChannelId}' from device '${deviceLabel(device)}'.`,
      });
      return noContent();
    },
  },
  {
    method: "POST",
    path: "/devices/:deviceId/migrate/:organizationSlug",
    auth: "user",
    handler: (ctx) => {
      const source = ctx.org;
      const device = findDevice(ctx);
      ctx.access.require("DEVICE__MIGRATE", device.groupId);
      const { groupId } = parseOrThrow(migrateBody, ctx.body);
      const target = ctx.store.orgBySlug(ctx.params.organizationSlug);
      if (!target) throw notFound();
      if (target === source)
        throw invalid("organizationSlug", "The device already belongs to this organization.");

      // There is no token for the target organization: the caller acts there as the user with the same e-mail.
      const targetUser = target.findUserByEmail(ctx.user.email);
      if (!targetUser) throw forbidden();
      const targetAccess = new Access(target, targetUser);
      if (!targetAccess.can("ENROLLMENT__ENROLL_DEVICE")) throw forbidden();
      let targetGroupId: string | null = null;
      if (groupId) {
        const group = target.groups.get(groupId.toLowerCase());
        if (!group) throw invalid("groupId", "The selected group id is invalid.");
        if (!group.isConfigured) throw invalid("groupId", "Devices can only be added to configured groups.");
        if (!targetAccess.can("GROUP__ADD_REMOVE_DEVICES", group.id)) throw forbidden();
        targetGroupId = group.id;
      }

      source.removeDevice(device);
      device.groupId = null;
      device.releaseChannels = [];
      device.files = [];
      device.videos = [];
      device.updatedAt = ctx.now;
      target.insertDevice(device);
      target.setDeviceGroup(device, targetGroupId);
      ensureTags(target, device.tags, ctx.now);
      if (targetGroupId !== null) device.groupJoinedAt = ctx.now;
      // Both organizations see it: the source lost the device, the target gained it (as the caller's user there).
      const label = deviceLabel(device);
      ctx.audit({
        type: "deleted",
        action: "migrate-device",
        resourceType: "device",
        resourceId: device.id,
        resourceName: label,
        description: `Migrated device '${label}' to organization '${target.org.slug}'.`,
      });
      ctx.audit({
        type: "created",
        action: "migrate-device",
        resourceType: "device",
        resourceId: device.id,
        resourceName: label,
        description: `Migrated device '${label}' in from organization '${source.org.slug}'.`,
        org: target,
        user: targetUser,
      });
      return noContent();
    },
  },
];
