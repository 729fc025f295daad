/** GET /devices filters (serials, models, custom fields, compliance, with groups) and PATCH /devices/{id}/custom-fields. */
import type { RunningEmulator } from "../../emulator";
import {
  client,
  createConfiguredGroup,
  listAll,
  start,
  validationErrors,
  type Client,
  type Json,
} from "./helpers";

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

let emulator: RunningEmulator;
let admin: Client;
let devices: Json[];

beforeAll(async () => {
  emulator = await start();
  admin = client(emulator, emulator.tokens.admin);
  devices = await listAll(admin, "/devices");
});
afterAll(() => emulator.close());

const ids = async (query: Record<string, string | string[]>) => {
  const response = await admin.get("/devices", { query: { ...query, per_page: 100 } });
  expect(response.status).toBe(200);
  return response.body.data.map((d: Json) => d.id).sort();
};

describe("GET /devices filters", () => {
  it("device_serial_numbers[] selects by serial (case-insensitive), several at once", async () => {
    const [a, b] = devices;
    expect(await ids({ "device_serial_numbers[]": [a.serialNumber.toLowerCase(), b.serialNumber] })).toEqual(
      [a.id, b.id].sort(),
    );
    expect(await ids({ "device_serial_numbers[]": "NOPE" })).toEqual([]);
  });

  it("device_model_ids[] selects by model; a malformed id is 422", async () => {
    const model = devices[0].deviceModel.id;
    expect(await ids({ "device_model_ids[]": model })).toEqual(
      devices
        .filter((d) => d.deviceModel.id === model)
        .map((d) => d.id)
        .sort(),
    );
    expect(
      Object.keys(validationErrors(await admin.get("/devices", { query: { "device_model_ids[]": "x" } }))),
    ).toEqual(["device_model_ids.0"]);
  });

  it("custom_fields_all[NAME]=VALUE and custom_fields_any (not both), compliance_status", async () => {
    const [a, b] = devices;
    const tagOf = (d: Json) => d.customFields.find((f: Json) => f.name === "Asset tag").value;
    expect(await ids({ "custom_fields_all[Asset tag]": tagOf(a) })).toEqual([a.id]);
    expect(await ids({ "custom_fields_any[Asset tag]": tagOf(b) })).toEqual([b.id]);
    expect(
      await ids({ "custom_fields_all[Asset tag]": tagOf(a), "custom_fields_all[Missing]": "x" }),
    ).toEqual([]);
    expect(
      validationErrors(
        await admin.get("/devices", { query: { "custom_fields_all[a]": "1", "custom_fields_any[b]": "2" } }),
      ),
    ).toEqual({
      custom_fields_all: ["The custom fields all field prohibits custom fields any from being present."],
    });
    expect(await ids({ compliance_status: "waiting" })).toEqual(
      devices
        .filter((d) => d.complianceStatus === "waiting")
        .map((d) => d.id)
        .sort(),
    );
    expect(
      Object.keys(validationErrors(await admin.get("/devices", { query: { compliance_status: "x" } }))),
    ).toEqual(["compliance_status"]);
  });

  it("hms_modes[]: Meta HMS devices (every Meta model; mode not reported: UNKNOWN) or NON_APPLICABLE", async () => {
    const meta = devices.filter((d) => d.deviceModel.manufacturer === "Meta").map((d) => d.id);
    const other = devices.filter((d) => d.deviceModel.manufacturer !== "Meta").map((d) => d.id);
    expect(meta.length).toBeGreaterThan(0);
    expect(other.length).toBeGreaterThan(0);
    expect(await ids({ "hms_modes[]": "UNKNOWN" })).toEqual(meta.sort());
    expect(await ids({ "hms_modes[]": "NON_APPLICABLE" })).toEqual(other.sort());
    expect(await ids({ "hms_modes[]": ["INDIVIDUAL", "SHARED"] })).toEqual([]);
    expect(
      Object.keys(validationErrors(await admin.get("/devices", { query: { "hms_modes[]": "x" } }))),
    ).toEqual(["hms_modes.0"]);
  });

  it("hms_modes[] under noMetaHmsDevices: no device is a Meta HMS device", async () => {
    const strict = await start({ strict: { noMetaHmsDevices: true } });
    try {
      const all = client(strict, strict.tokens.admin);
      const everyone = (await listAll(all, "/devices")).map((d: Json) => d.id).sort();
      const listed = await all.get("/devices", { query: { "hms_modes[]": "NON_APPLICABLE", per_page: 100 } });
      expect(listed.body.data.map((d: Json) => d.id).sort()).toEqual(everyone);
    } finally {
      await strict.close();
    }
  });

  it("filters combine: a group's devices with a tag", async () => {
    const group = await createConfiguredGroup(admin, "Filtered", null);
    const lobby = devices.filter((d) => d.tags.includes("lobby"));
    const plain = devices.filter((d) => !d.tags.includes("lobby"));
    for (const device of [lobby[0], plain[0]]) await admin.put(`/devices/${device.id}`, { groupId: group });
    expect(await ids({ "group_ids[]": group, "tags_all[]": "lobby" })).toEqual([lobby[0].id]);
    expect(await ids({ "group_ids[]": group })).toEqual([lobby[0].id, plain[0].id].sort());
  });
});

describe("PATCH /devices/{deviceId}/custom-fields", () => {
  const path = (device: Json) => `/devices/${device.id}/custom-fields`;
  const fieldsOf = (id: string) => emulator.snapshot().devices.find((d) => d.id === id)?.customFields;

  it("attach adds or updates by name, detach removes by name, sync makes the given set the whole set", async () => {
    const device = devices[3];
    const asset = device.customFields;
    const attached = await admin.patch(path(device), {
      action: "attach",
      customFields: [
        { name: "Site", value: "North" },
        { name: "Asset tag", value: "AT-NEW" },
      ],
    });
    expect(attached.status).toBe(200);
    expect(attached.body.customFields).toEqual([
      { name: "Asset tag", value: "AT-NEW" },
      { name: "Site", value: "North" },
    ]);
    expect(attached.body.updatedAt > device.updatedAt).toBe(true);
    expect(fieldsOf(device.id)).toEqual(attached.body.customFields);

    const detached = await admin.patch(path(device), { action: "detach", customFields: [{ name: "Site" }] });
    expect(detached.body.customFields).toEqual([{ name: "Asset tag", value: "AT-NEW" }]);

    const synced = await admin.patch(path(device), {
      action: "sync",
      customFields: [{ name: "Owner", value: "Ops" }, ...asset],
    });
    expect(synced.body.customFields).toEqual([{ name: "Owner", value: "Ops" }, ...asset]);
    const cleared = await admin.patch(path(device), { action: "sync", customFields: [] });
    expect(cleared.body.customFields).toEqual([]);
    expect(fieldsOf(device.id)).toEqual([]);
  });

  it("a patch that changes nothing records no audit record and keeps updatedAt", async () => {
    const device = devices[4];
    const total = async () => (await admin.get("/audit-logs", { query: { per_page: 1 } })).body.meta.total;
    const before = await total();
    const same = await admin.patch(path(device), { action: "attach", customFields: device.customFields });
    expect(same.body.updatedAt).toBe(device.updatedAt);
    expect(
      (await admin.patch(path(device), { action: "detach", customFields: [{ name: "Nope" }] })).status,
    ).toBe(200);
    expect(await total()).toBe(before);
  });

  it("validates action, names (required, once each) and values (required for attach and sync)", async () => {
    const device = devices[5];
    expect(validationErrors(await admin.patch(path(device), {}))).toEqual({
      action: ["The action field is required."],
      customFields: ["The custom fields field is required."],
    });
    expect(
      Object.keys(validationErrors(await admin.patch(path(device), { action: "merge", customFields: [] }))),
    ).toEqual(["action"]);
    expect(
      validationErrors(
        await admin.patch(path(device), {
          action: "sync",
          customFields: [{ name: "a" }, { name: "a", value: "1" }],
        }),
      ),
    ).toEqual({
      "customFields.0.value": ["The customFields.0.value field is required when action is sync."],
      "customFields.1.name": ["The customFields.1.name field has a duplicate value."],
    });
    expect(fieldsOf(device.id)).toEqual(device.customFields);
  });

  it("404 for an unknown device, 403 without DEVICE__MANAGE", async () => {
    const body = { action: "attach", customFields: [{ name: "x", value: "y" }] };
    expect((await admin.patch(`/devices/${MISSING_ID}/custom-fields`, body)).status).toBe(404);
    const reader = client(emulator, emulator.tokens.readOnly);
    expect((await reader.patch(path(devices[6]), body)).status).toBe(403);
  });
});
