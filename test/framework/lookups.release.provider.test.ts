// getAppVersion, getFile, getTag and getDevices against the emulator, with stack config as the engine sets it.
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { LookupArgumentError, LookupError } from "../../provider/errors";
import { getAppVersion, getDevices, getDevicesOutput, getFile, getTag } from "../../provider";
import { failure } from "../harness/providerStack";

let emulator: RunningEmulator;
let admin: DeviceMgmtClient;

const valueOf = <T>(output: pulumi.Output<T>): Promise<T> =>
  (output as unknown as { promise(): Promise<T> }).promise();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: { devices: 8 } });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  pulumi.runtime.setAllConfig(
    { "devicemgmt:baseUrl": emulator.baseUrl, "devicemgmt:apiToken": emulator.tokens.admin },
    ["devicemgmt:apiToken"],
  );
});
afterAll(async () => {
  pulumi.runtime.setAllConfig({});
  await emulator.close();
});

describe("issue 20 lookups", () => {
  it("getAppVersion finds a version by app and version name, and lists the versions when none matches", async () => {
    const found = await getAppVersion({ appName: "Training Simulator", version: "2.4.0" });
    const app = (await admin.apps.all()).find((a) => a.name === "Training Simulator");
    const versions = await admin.releases.versions(app?.id ?? "").all();
    expect(found).toMatchObject({ version: "2.4.0", appId: app?.id, appName: "Training Simulator" });
    expect(found.id).toBe(versions.find((v) => v.version === "2.4.0")?.id);
    const error = await failure(getAppVersion({ appName: "Training Simulator", version: "9.9.9" }));
    expect(error).toBeInstanceOf(LookupError);
    expect(error.message).toMatch(/No version "9.9.9" of app "Training Simulator". Available: .*"2.4.1"/);
  });

  it("getFile and getTag find by name (tags without case)", async () => {
    const file = await getFile({ filename: "safety-manual.pdf" });
    expect(file.id).toBe((await admin.files.all()).find((f) => f.filename === "safety-manual.pdf")?.id);
    const tag = await getTag({ name: "LOBBY" });
    expect(tag.name).toBe("lobby");
    expect(tag.id).toBe((await admin.tags.all()).find((t) => t.name === "lobby")?.id);
    const missing = await failure(getTag({ name: "nowhere" }));
    expect(missing).toBeInstanceOf(LookupError);
    expect(missing).toMatchObject({ what: 'tag named "nowhere"', matches: 0 });
    expect(missing.message).toMatch(/No tag named "nowhere"/);
  });

  it("getDevices lists the devices of a group, of tags and of serial numbers", async () => {
    const all = await admin.devices.all();
    const group = await admin.groups.create({ name: "Lookups", parentId: null });
    await admin.groups.configure(group.id);
    await admin.devices.update(all[0].id, { groupId: group.id });
    await admin.devices.update(all[1].id, { groupId: group.id });
    const inGroup = await getDevices({ groupId: group.id });
    expect(inGroup.map((d) => d.id).sort()).toEqual([all[0].id, all[1].id].sort());
    expect(inGroup.every((d) => d.groupId === group.id)).toBe(true);

    const lobby = all.filter((d) => d.tags.includes("lobby")).map((d) => d.id);
    expect(lobby.length).toBeGreaterThan(0);
    expect((await getDevices({ tags: ["Lobby"] })).map((d) => d.id).sort()).toEqual([...lobby].sort());

    const serials = [all[2].serialNumber, all[3].serialNumber];
    const bySerial = await valueOf(getDevicesOutput({ serialNumbers: serials }));
    expect(bySerial.map((d) => d.serialNumber).sort()).toEqual([...serials].sort());
    expect(await getDevices({ serialNumbers: [] })).toEqual([]);
    const refusal = await failure(getDevices({ groupId: "../x" }));
    expect(refusal).toBeInstanceOf(LookupArgumentError);
    expect(refusal).toMatchObject({ lookup: "getDevices", property: "groupId" });
    expect(refusal.message).toMatch(/argument "groupId" must be the UUID/);
  });
});
