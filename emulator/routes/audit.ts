/**
 * Audit records: every successful write through the API records who did what to which resource (written by
 * the server after the handler, see RequestContext.audit); `GET /audit-logs` lists them with the OpenAPI's
 * filters (search, start_time, end_time) and pagination. Reads and refused requests record nothing.
 */
import { z } from "zod";
import { ok, type RequestContext, type RouteDefinition } from "../context";
import { FieldErrorCollector, parseOrThrow } from "../errors";
import type { AuditRecord, Device, User } from "../model";

/** "Headset 01 (ACM1234ABCD)", as the OpenAPI example names a device. */
export const deviceLabel = (device: Device): string => `${device.name} (${device.serialNumber})`;

/** A user's full name, or the e-mail while the name is empty (an invited user). */
export const userLabel = (user: User): string => `${user.firstName} ${user.lastName}`.trim() || user.email;

/** The resource an audit record names. */
export interface AuditSubject {
  resourceType: string;
  resourceId: string;
  resourceName: string | null;
}

/**
 * Which resource an attach or detach record names: the owner (the group or device, by default) or, under the
 * switch `auditAttachmentsByItem`, the attached item. The documents do not say, so clients must cope with both.
 */
export function attachmentAuditSubject(
  ctx: RequestContext,
  owner: AuditSubject,
  item: AuditSubject,
): AuditSubject {
  return ctx.services.strict.auditAttachmentsByItem ? item : owner;
}

/** ISO 8601 date-time with a zone (Z or an offset); fractional seconds optional. */
const dateTime = z.iso.datetime({ offset: true });

const auditQuery = z.object({
  search: z.string().max(255).optional(),
  start_time: dateTime.optional(),
  end_time: dateTime.optional(),
});

export function auditRecordView(record: AuditRecord) {
  return {
    id: record.id,
    description: record.description,
    action: record.action,
    type: record.type,
    resourceId: record.resourceId,
    resourceType: record.resourceType,
    resourceName: record.resourceName,
    userId: record.userId,
    userEmail: record.userEmail,
    userIpAddress: record.userIpAddress,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export const auditRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/audit-logs",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("AUDIT_LOG__VIEW");
      const query = parseOrThrow(auditQuery, {
        search: firstValue(ctx.query.search),
        start_time: firstValue(ctx.query.start_time),
        end_time: firstValue(ctx.query.end_time),
      });
      const start = query.start_time === undefined ? undefined : Date.parse(query.start_time);
      const end = query.end_time === undefined ? undefined : Date.parse(query.end_time);
      if (start !== undefined && end !== undefined && end < start) {
        const errors = new FieldErrorCollector();
        errors.add("end_time", "The end time field must be a date after or equal to start time.");
        errors.throwIfAny();
      }
      const term = query.search?.trim().toLowerCase() ?? "";
      const matches = (record: AuditRecord) => {
        // Dates are parsed only when a bound asks for them: a plain listing reads up to 10,000 records.
        const at = start === undefined && end === undefined ? 0 : Date.parse(record.createdAt);
        if (start !== undefined && at < start) return false;
        if (end !== undefined && at > end) return false;
        if (term === "") return true;
        return [
          record.description,
          record.action,
          record.resourceType,
          record.resourceName,
          record.resourceId,
          record.userEmail,
        ].some((field) => field?.toLowerCase().includes(term));
      };
      // Newest first; the ids increase with time, so the id breaks ties newest first too (a log reads backwards).
      const records = ctx.org.auditLogs.filter(matches).reverse();
      return ok(ctx.page(records, auditRecordView));
    },
  },
];
