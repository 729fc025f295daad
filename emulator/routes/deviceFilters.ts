/**
 * The filters of `GET /devices` (OpenAPI GetDevices), as PHP-style query parameters: `group_ids[]` (a group and
 * its sub-groups; an empty value for ungrouped devices), `tags_all[]` / `tags_any[]` (tag names, matched
 * case-insensitively; not both), `device_serial_numbers[]`, `device_model_ids[]`, `custom_fields_all[NAME]=VALUE`
 * / `custom_fields_any[NAME]=VALUE` (not both), `compliance_status` and `hms_modes[]`. Each given filter must
 * match; other parameters of the document (state, versions, last_online, ...) are accepted and not applied.
 */
import { z } from "zod";
import type { RequestContext } from "../context";
import { FieldErrorCollector, parseOrThrow } from "../errors";
import type { Device } from "../model";

/** A repeated `name[]` parameter: one value or several, each checked by `item`. */
const arrayParam = <T extends z.ZodType<string, string>>(item: T) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(z.array(item).min(1))
    .optional();

const listQuery = z.object({
  /** A group id, or an empty value (Laravel reads it as null) for ungrouped devices. */
  group_ids: arrayParam(z.union([z.guid(), z.literal("")])),
  tags_all: arrayParam(z.string()),
  tags_any: arrayParam(z.string()),
  device_serial_numbers: arrayParam(z.string()),
  device_model_ids: arrayParam(z.guid()),
  compliance_status: z.enum(["up-to-date", "out-of-date", "syncing", "waiting", "error"]).optional(),
  hms_modes: arrayParam(z.enum(["INDIVIDUAL", "SHARED", "UNKNOWN", "NON_APPLICABLE"])),
});

/**
 * "Meta HMS devices" (which must send sharedModeSettings / metaHmsSettings): the documents do not say which
 * devices are; the emulator's reading is every device of a Meta model, or none (`noMetaHmsDevices`).
 */
export function isMetaHmsDevice(ctx: RequestContext, device: Device): boolean {
  const model = ctx.store.deviceModels.get(device.deviceModelId);
  return model?.manufacturer === "Meta" && !ctx.services.strict.noMetaHmsDevices;
}

function withSubgroups(ctx: RequestContext, ids: readonly (string | null)[]): Set<string | null> {
  const wanted = new Set<string | null>(ids);
  const pending = ids.filter((id): id is string => id !== null);
  while (pending.length > 0) {
    for (const child of ctx.org.childIdsOf(pending.pop()!)) {
      if (!wanted.has(child)) {
        wanted.add(child);
        pending.push(child);
      }
    }
  }
  return wanted;
}

/** `custom_fields_all[NAME]=VALUE` parameters as [name, value] pairs (the last value of a repeated name). */
function customFieldParams(ctx: RequestContext, mode: "all" | "any"): [string, string][] | undefined {
  const prefix = `custom_fields_${mode}[`;
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(ctx.query)) {
    if (!key.startsWith(prefix) || !key.endsWith("]") || value === undefined) continue;
    pairs.push([key.slice(prefix.length, -1), Array.isArray(value) ? (value.at(-1) ?? "") : value]);
  }
  return pairs.length > 0 ? pairs : undefined;
}

/** A predicate for the filters the request gives, or undefined when it gives none. */
export function devicesMatching(ctx: RequestContext): ((device: Device) => boolean) | undefined {
  const q = ctx.query;
  const query = parseOrThrow(listQuery, {
    group_ids: q["group_ids[]"],
    tags_all: q["tags_all[]"],
    tags_any: q["tags_any[]"],
    device_serial_numbers: q["device_serial_numbers[]"],
    device_model_ids: q["device_model_ids[]"],
    compliance_status: q.compliance_status,
    hms_modes: q["hms_modes[]"],
  });
  const fieldsAll = customFieldParams(ctx, "all");
  const fieldsAny = customFieldParams(ctx, "any");
  const errors = new FieldErrorCollector();
  if (query.tags_all && query.tags_any)
    errors.add("tags_all", "The tags all field prohibits tags any from being present.");
  if (fieldsAll && fieldsAny)
    errors.add(
      "custom_fields_all",
      "The custom fields all field prohibits custom fields any from being present.",
    );
  errors.throwIfAny();

  const tests: ((device: Device) => boolean)[] = [];
  if (query.group_ids) {
    // "Devices in these groups or sub-groups thereof" (OpenAPI): each id brings its whole subtree.
    const groups = withSubgroups(
      ctx,
      query.group_ids.map((id) => id.toLowerCase() || null),
    );
    tests.push((d) => groups.has(d.groupId));
  }
  const lower = (values: string[]) => values.map((v) => v.toLowerCase());
  const tagsOf = (d: Device) => new Set(lower(d.tags));
  if (query.tags_all) {
    const wanted = lower(query.tags_all);
    tests.push((d) => wanted.every((t) => tagsOf(d).has(t)));
  }
  if (query.tags_any) {
    const wanted = lower(query.tags_any);
    tests.push((d) => wanted.some((t) => tagsOf(d).has(t)));
  }
  if (query.device_serial_numbers) {
    const serials = new Set(lower(query.device_serial_numbers));
    tests.push((d) => serials.has(d.serialNumber.toLowerCase()));
  }
  if (query.device_model_ids) {
    const models = new Set(lower(query.device_model_ids));
    tests.push((d) => models.has(d.deviceModelId));
  }
  if (query.compliance_status) {
    const status = query.compliance_status;
    tests.push((d) => d.telemetry.complianceStatus === status);
  }
  if (query.hms_modes) {
    // The emulator does not model a Meta HMS device's mode: it is "not reported" (UNKNOWN).
    const modes = new Set(query.hms_modes);
    tests.push((d) => modes.has(isMetaHmsDevice(ctx, d) ? "UNKNOWN" : "NON_APPLICABLE"));
  }
  const hasField = (d: Device, [name, value]: [string, string]) =>
    d.telemetry.customFields.some((f) => f.name === name && f.value === value);
  if (fieldsAll) tests.push((d) => fieldsAll.every((pair) => hasField(d, pair)));
  if (fieldsAny) tests.push((d) => fieldsAny.some((pair) => hasField(d, pair)));
  return tests.length === 0 ? undefined : (d) => tests.every((test) => test(d));
}
