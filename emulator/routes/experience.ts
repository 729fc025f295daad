/**
 * Headset experience (what the headset shows: ArborXR Home, kiosk, the device's default home, an in-house
 * launcher) and device experience (lock task, default home, in-house launcher) of configured groups and of
 * ungrouped devices. There is no delete: a group or device always has one. A device in a group takes its
 * group's experience, so its own operations answer 409 with the group's id.
 */
import { randomUUID } from "node:crypto";
import { noContent, ok, type RequestContext, type RouteDefinition } from "../context";
import { ApiError, invalid, notFound } from "../errors";
import {
  DEVICE_MODES,
  HEADSET_MODES,
  type ExperienceKind,
  type ExperienceRecord,
  type HeadsetMode,
  type DeviceMode,
} from "../experienceModel";
import type { Permission } from "../permissions";
import { deviceLabel } from "./audit";
import { isMetaHmsDevice } from "./deviceFilters";
import { ExperienceRules, type BodyKey } from "./experienceRules";
import { experienceView, unsetExperienceView } from "./experienceViews";

interface Holder {
  type: "group" | "device";
  id: string;
  label: string;
  /** Only configured groups and ungrouped devices carry an experience. */
  configurable: boolean;
  needsMetaSettings: boolean;
}

/** 409 ConfigureDeviceArborXrHomeHeadsetExperience_409_response: the device takes its group's experience. */
class GroupedDeviceConflict extends ApiError {
  constructor(
    private readonly kind: ExperienceKind,
    private readonly groupId: string,
  ) {
    super(409);
  }

  override get body() {
    return {
      message: `This device belongs to a group. Query the group's ${this.kind} experience configuration instead.`,
      groupId: this.groupId,
    };
  }
}

const SEGMENT: Record<ExperienceKind, string> = {
  headset: "headset-experience",
  device: "device-experience",
};

function groupHolder(ctx: RequestContext, permission: Permission): Holder {
  const group = ctx.org.groups.get(ctx.params.groupId);
  if (!group) throw notFound();
  ctx.access.require(permission, group.id);
  return {
    type: "group",
    id: group.id,
    label: group.name,
    configurable: group.isConfigured,
    needsMetaSettings: true,
  };
}

function deviceHolder(ctx: RequestContext, permission: Permission, kind: ExperienceKind): Holder {
  const device = ctx.org.devices.get(ctx.params.deviceId);
  if (!device) throw notFound();
  ctx.access.require(permission, device.groupId);
  if (device.groupId !== null) {
    throw new GroupedDeviceConflict(kind, device.groupId);
  }
  return {
    type: "device",
    id: device.id,
    label: deviceLabel(device),
    configurable: true,
    needsMetaSettings: isMetaHmsDevice(ctx, device),
  };
}

/** The holder's experience as it stands, or undefined when nobody set one (or it did not survive a group). */
function current(ctx: RequestContext, kind: ExperienceKind, holder: Holder): ExperienceRecord | undefined {
  const record = ctx.org.experiences.get(kind, holder.id);
  if (record?.joinedGroupAt && ctx.services.strict.dropDeviceExperienceOnGroupJoin) return undefined;
  return record;
}

function readRoute(kind: ExperienceKind, on: "group" | "device"): RouteDefinition {
  return {
    method: "GET",
    path: on === "group" ? `/groups/:groupId/${SEGMENT[kind]}` : `/devices/:deviceId/${SEGMENT[kind]}`,
    auth: "user",
    handler: (ctx) => {
      const holder =
        on === "group" ? groupHolder(ctx, "GROUP__VIEW") : deviceHolder(ctx, "DEVICE__VIEW", kind);
      const record = holder.configurable ? current(ctx, kind, holder) : undefined;
      if (record) return ok(experienceView(record, ctx.services.strict));
      if (ctx.services.strict.unsetExperienceNotFound) throw notFound();
      return ok(unsetExperienceView(kind));
    },
  };
}

function configureRoute(
  kind: ExperienceKind,
  on: "group" | "device",
  segment: string,
  mode: HeadsetMode | DeviceMode,
  bodyKey: BodyKey,
): RouteDefinition {
  return {
    method: "POST",
    path:
      on === "group"
        ? `/groups/:groupId/${SEGMENT[kind]}/${segment}`
        : `/devices/:deviceId/${SEGMENT[kind]}/${segment}`,
    auth: "user",
    handler: (ctx) => {
      const holder =
        on === "group" ? groupHolder(ctx, "GROUP__MANAGE") : deviceHolder(ctx, "DEVICE__MANAGE", kind);
      const rules = new ExperienceRules({
        org: ctx.org,
        needsMetaSettings: holder.needsMetaSettings,
        rejectUnused: ctx.services.strict.rejectUnusedExperienceFields,
      });
      const settings = rules.validate(bodyKey, ctx.body);
      if (!holder.configurable)
        throw invalid("groupId", "Experiences can only be configured on configured groups.");

      const before = current(ctx, kind, holder);
      // A write that changes nothing moves no timestamp and records no audit entry.
      if (before && before.mode === mode && JSON.stringify(before.settings) === JSON.stringify(settings))
        return noContent();
      ctx.org.experiences.put({
        id: before?.id ?? randomUUID(),
        kind,
        holder: { type: holder.type, id: holder.id },
        mode,
        settings,
        createdAt: before?.createdAt ?? ctx.now,
        updatedAt: ctx.now,
      });
      ctx.audit({
        type: "updated",
        action: `configure-${SEGMENT[kind]}`,
        resourceType: holder.type,
        resourceId: holder.id,
        resourceName: holder.label,
        description: `Configured the ${kind} experience of ${holder.type} '${holder.label}' as ${mode}.`,
      });
      return noContent();
    },
  };
}

const HEADSET_BODY: Record<keyof typeof HEADSET_MODES, BodyKey> = {
  "arborxr-home": "arborxr-home",
  "arborxr-kiosk": "arborxr-kiosk",
  "default-home": "headset-default-home",
  "in-house-launcher": "headset-in-house-launcher",
};
const DEVICE_BODY: Record<keyof typeof DEVICE_MODES, BodyKey> = {
  "lock-task": "lock-task",
  "default-home": "device-default-home",
  "in-house-launcher": "device-in-house-launcher",
};

export const experienceRoutes: RouteDefinition[] = (["group", "device"] as const).flatMap((on) => [
  readRoute("headset", on),
  ...Object.entries(HEADSET_MODES).map(([segment, mode]) =>
    configureRoute("headset", on, segment, mode, HEADSET_BODY[segment as keyof typeof HEADSET_MODES]),
  ),
  readRoute("device", on),
  ...Object.entries(DEVICE_MODES).map(([segment, mode]) =>
    configureRoute("device", on, segment, mode, DEVICE_BODY[segment as keyof typeof DEVICE_MODES]),
  ),
]);
