// The documents do not say which resource an attach or detach audit record names (the owner or the attached
// release channel): the emulator's switch auditAttachmentsByItem takes either reading, and the drift report
// finds who attached or detached a channel under both.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { brief, runDrift } from "./support";

const ADA = "ada.admin@acme.example";
const TYPE = "pulumi-nodejs:dynamic/devicemgmt:";

describe.each([false, true])("auditAttachmentsByItem %s", (byItem) => {
  let emulator: RunningEmulator;
  let workDir: string;
  let state: string;
  let ada: DeviceMgmtClient;
  let lab: string;
  let channels: Record<string, string>;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, strict: { auditAttachmentsByItem: byItem } });
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-audit-"));
    const morgan = new DeviceMgmtClient({
      baseUrl: emulator.baseUrl,
      apiToken: emulator.tokens.multiOrgAdmin,
    });
    ada = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    channels = {};
    for (const app of await morgan.apps.all()) {
      for (const rc of await morgan.apps.releaseChannels(app.id).all())
        channels[`${app.name}/${rc.name}`] = rc.id;
    }
    lab = (await morgan.groups.configure((await morgan.groups.create({ name: "Lab", parentId: null })).id))
      .id;
    const headset = (await morgan.devices.all()).find((d) => d.name === "Headset 03")!.id;
    const production = channels["Training Simulator/Production"];
    const beta = channels["Training Simulator/Beta"];
    await morgan.groups.addReleaseChannel(lab, production);
    await morgan.devices.addReleaseChannel(headset, beta);
    // The state a stack managing the three would hold (a stack export's shape, per-kind type tokens).
    const resource = (type: string, name: string, id: string, outputs: object) => ({
      urn: `urn:pulumi:production::lab::${TYPE}${type}::${name}`,
      custom: true,
      id,
      type: `${TYPE}${type}`,
      outputs,
    });
    state = path.join(workDir, "state.json");
    fs.writeFileSync(
      state,
      JSON.stringify({
        version: 3,
        deployment: {
          resources: [
            resource("Group", "lab", lab, { name: "Lab", parentId: null, configured: true }),
            resource("GroupReleaseChannel", "lab-production", `${lab}/${production}`, {
              groupId: lab,
              releaseChannelId: production,
            }),
            resource("DeviceReleaseChannel", "headset-beta", `${headset}/${beta}`, {
              deviceId: headset,
              releaseChannelId: beta,
            }),
          ],
        },
      }),
    );
    await ada.groups.removeReleaseChannel(lab, production);
    await ada.devices.removeReleaseChannel(headset, beta);
    await ada.groups.addReleaseChannel(lab, channels["Safety Briefing/Stable"]);
  });

  afterAll(async () => {
    await emulator?.close();
  });

  it("records attachments under the owner or the item, as switched", async () => {
    const records = (await ada.auditLogs.list({ search: "release-channel" }).all()).filter((r) =>
      /^(at|de)tach-release-channel/.test(r.action),
    );
    expect(records.length).toBe(5);
    const types = [...new Set(records.map((r) => r.resourceType))].sort();
    expect(types).toEqual(byItem ? ["release-channel"] : ["device", "group"]);
  });

  it("the report names who attached and detached each channel", async () => {
    const run = await runDrift(workDir, [state], {
      DEVICEMGMT_BASE_URL: emulator.baseUrl,
      DEVICEMGMT_API_TOKEN: emulator.tokens.readOnly,
    });
    const about = (pattern: RegExp) => {
      const found = run.report.findings.filter((f) => pattern.test(brief(f)));
      expect(found).toHaveLength(1);
      return found[0].audit.map((a) => `${a.who} ${a.action}`);
    };
    expect(about(/^gone groupReleaseChannel .*Training Simulator \/ Production/)[0]).toBe(
      `${ADA} detach-release-channel-from-group`,
    );
    expect(about(/^gone deviceReleaseChannel .*Training Simulator \/ Beta/)[0]).toBe(
      `${ADA} detach-release-channel-from-device`,
    );
    expect(about(/^unmanaged groupReleaseChannel "Safety Briefing \/ Stable" on group "Lab"/)[0]).toBe(
      `${ADA} attach-release-channel-to-group`,
    );
  });
});
