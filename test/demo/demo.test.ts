// `npm run demo` without a Pulumi CLI, end to end: the demo runs as `npm run demo` runs it (ts-node, transpile
// only, from the repository root) with the stand-in forced, and the organization it leaves in its emulator
// state file is then loaded and checked against what examples/org declares, not only the printed text.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startEmulator, type OrgSnapshot, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { DEMO_KIOSK_PIN } from "../../examples/demo/programs";

const root = resolve(__dirname, "../..");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runDemo(env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((done, fail) => {
    const tsNode = require.resolve("ts-node/dist/bin.js", { paths: [root] });
    const child = spawn(process.execPath, [tsNode, "--transpile-only", "examples/demo.ts"], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", fail);
    child.on("exit", (code) => done({ code, stdout, stderr }));
  });
}

/** The text between a heading line and the next blank-line-separated heading. */
function section(stdout: string, heading: string): string {
  const start = stdout.indexOf(heading);
  expect(start).toBeGreaterThanOrEqual(0);
  const rest = stdout.slice(start + heading.length);
  const end = rest.search(/\n(Updating|Previewing|Edit:|Organization )/);
  return end < 0 ? rest : rest.slice(0, end);
}

let folder: string;
let run: Run;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "demo-test-"));
  run = await runDemo({ DEVICEMGMT_DEMO_ENGINE: "stand-in", DEVICEMGMT_DEMO_STATE: folder });
}, 120_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("npm run demo without a Pulumi CLI", () => {
  it("exits 0 and says first that it uses the stand-in, and where the real CLI comes from", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const first = run.stdout.split("\n")[0];
    expect(first).toMatch(/engine stand-in/);
    expect(first).toMatch(/no Pulumi CLI/);
    expect(first).toContain("https://www.pulumi.com/docs/install/");
  });

  it("refuses an unknown DEVICEMGMT_DEMO_ENGINE with a clear message and a non-zero exit", async () => {
    const wrong = await runDemo({ DEVICEMGMT_DEMO_ENGINE: "terraform", DEVICEMGMT_DEMO_STATE: folder });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('DEVICEMGMT_DEMO_ENGINE must be "cli" or "stand-in"');
  });

  it("previews the whole organization as creates with their type tokens, then creates it", () => {
    const preview = section(run.stdout, "Previewing update (demo), examples/org:");
    expect(preview).toMatch(/\+\s+pulumi-nodejs:dynamic\/devicemgmt:Group\s+company\s+create/);
    expect(preview).toMatch(/\+\s+pulumi-nodejs:dynamic\/devicemgmt:User\s+emea-lead\s+create/);
    expect(preview).toMatch(
      /\+\s+pulumi-nodejs:dynamic\/devicemgmt:GroupReleaseChannel\s+berlin-safety\s+create/,
    );
    expect(preview).toMatch(
      /\+\s+pulumi-nodejs:dynamic\/devicemgmt:HeadsetExperience\s+london-kiosk\s+create/,
    );
    // 17 before issue 19, plus the two sites' headset experiences (19); since issue 20 also three site tags,
    // four placed headsets, one content attachment per site and the Production channel's version (30).
    expect(preview).toContain("Resources: + 30 to create");

    const up = section(run.stdout, "Updating (demo):");
    expect(up).toContain("Resources: + 30 created");
    expect(up).toMatch(/Outputs:\n {4}groups: \{\n {8}americas: "[0-9a-f-]+"/);
    expect(up).toMatch(/Duration: [\d.]+s/);
  });

  it("previews the edit with its changed values, as a pull request's preview shows it", () => {
    const edit = section(run.stdout, "Previewing the edit");
    expect(edit).toMatch(/~\s+pulumi-nodejs:dynamic\/devicemgmt:Group\s+company\s+update \[diff: ~name\]/);
    expect(edit).toContain('~ name: "Acme Training" => "Acme Academy"');
    expect(edit).toMatch(/\+\s+pulumi-nodejs:dynamic\/devicemgmt:User\s+berlin-trainer\s+create/);
    expect(edit).toContain("Resources: + 1 to create, ~ 1 to update, 29 unchanged");
  });

  it("runs a second up of the unchanged program that changes nothing", () => {
    const again = section(run.stdout, "Updating (demo) again with examples/org unchanged:");
    expect(again).toContain("(no changes)");
    expect(again).toContain("Resources: 30 unchanged");
  });

  it("prints the organization as the API reports it", () => {
    expect(run.stdout).toContain("Organization Acme Devices (acme), as the API now reports it:");
    expect(run.stdout).toContain(
      "Emil Lindqvist: Group Admin@Berlin Lab, Group Admin@London Warehouse, Read Only@org",
    );
    expect(run.stdout).toMatch(/\n {6}Austin Lab {2}\[configured; channel Safety Briefing \/ Stable/);
    expect(run.stdout).toContain("Headset 01: Training Simulator / Beta");
    expect(run.stdout).toMatch(
      /London Warehouse {2}\[configured; channel [^\]]*; kiosk Warehouse Picker, admin PIN set\]/,
    );
    expect(run.stdout).toMatch(
      /Austin Lab {2}\[configured; channel [^\]]*; home menu "Austin Training" \(3 items, theme Acme Brand\)\]/,
    );
    // Each site's headsets with the site's tag, and the build each channel ships (Production = Beta's).
    expect(run.stdout).toMatch(
      /Berlin Lab {2}\[configured; [^\]]*headsets Headset 02 \(site-berlin\), Headset 03 \(site-berlin\)/,
    );
    expect(run.stdout).toMatch(/Austin Lab {2}\[configured; [^\]]*headsets Headset 05 \(site-austin\)/);
    expect(run.stdout).toContain("What each release channel ships:");
    expect(run.stdout).toContain("  Training Simulator / Production: 2.5.0-beta.3");
    expect(run.stdout).toContain("  Training Simulator / Beta: 2.5.0-beta.3");
  });

  it("never shows the kiosk's admin PIN, in its output or in the Pulumi state it leaves", () => {
    const pin = DEMO_KIOSK_PIN;
    expect(run.stdout).not.toContain(pin);
    expect(readFileSync(join(folder, "pulumi-state.json"), "utf8")).not.toContain(pin);
  });

  describe("the organization left in the state file", () => {
    let emulator: RunningEmulator;
    let org: OrgSnapshot;
    let staging: OrgSnapshot;
    let channelName: Map<string, string>;

    beforeAll(async () => {
      emulator = await startEmulator({ port: 0, statePath: join(folder, "emulator-state.json") });
      org = emulator.snapshot();
      staging = emulator.snapshot("acme-staging");
      const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
      channelName = new Map();
      for (const app of await client.apps.all()) {
        for (const channel of await client.apps.releaseChannels(app.id).all()) {
          channelName.set(channel.id, `${app.name} / ${channel.name}`);
        }
      }
    });

    afterAll(async () => emulator?.close());

    const groupName = (id: string | null) => org.groups.find((g) => g.id === id)?.name ?? "(root)";

    it("has the declared group tree (and not the edit, which was only previewed)", () => {
      expect(
        org.groups
          .map((g) => `${groupName(g.parentId)} > ${g.name}${g.isConfigured ? " [configured]" : ""}`)
          .sort(),
      ).toEqual([
        "(root) > Acme Training",
        "Acme Training > Americas",
        "Acme Training > EMEA",
        "Americas > Austin Lab [configured]",
        "EMEA > Berlin Lab [configured]",
        "EMEA > London Warehouse [configured]",
      ]);
    });

    it("has the declared people with their roles", () => {
      const roles = (email: string) =>
        org.users
          .find((u) => u.email === email)
          ?.accessControls.map(
            (ac) =>
              `${ac.roleName}@${ac.protectable.type === "group" ? groupName(ac.protectable.id) : "org"}`,
          )
          .sort();
      expect(roles("olivia.ops@acme.example")).toEqual(["Admin@org"]);
      expect(roles("emil.lindqvist@acme.example")).toEqual([
        "Group Admin@Berlin Lab",
        "Group Admin@London Warehouse",
        "Read Only@org",
      ]);
      expect(roles("tess.trainer@acme.example")).toEqual(["Group Viewer@Austin Lab", "Read Only@org"]);
      expect(org.users.find((u) => u.email === "bea.berger@acme.example")).toBeUndefined();
    });

    it("has the declared release channels on groups and on the demo device, and the loaner migrated", () => {
      expect(
        org.groupReleaseChannels
          .map((a) => `${groupName(a.groupId)}: ${channelName.get(a.releaseChannelId)}`)
          .sort(),
      ).toEqual([
        "Austin Lab: Safety Briefing / Stable",
        "Austin Lab: Training Simulator / Beta",
        "Berlin Lab: Safety Briefing / Stable",
        "Berlin Lab: Training Simulator / Production",
        "London Warehouse: Safety Briefing / Stable",
        "London Warehouse: Warehouse Picker / Production",
      ]);
      const headset = org.devices.find((d) => d.name === "Headset 01");
      expect(headset?.releaseChannelIds.map((id) => channelName.get(id))).toEqual([
        "Training Simulator / Beta",
      ]);
      // The migrated device, by the id in the demo's Pulumi state (every organization has its own Headset 08).
      const checkpoint = JSON.parse(readFileSync(join(folder, "pulumi-state.json"), "utf8")) as {
        deployment: { resources: { urn: string; inputs?: { deviceId?: string } }[] };
      };
      const loanerId = checkpoint.deployment.resources.find((r) => r.urn.endsWith("::loaner-to-staging"))
        ?.inputs?.deviceId;
      expect(loanerId).toEqual(expect.any(String));
      expect(org.devices.find((d) => d.id === loanerId)).toBeUndefined();
      expect(staging.devices.find((d) => d.id === loanerId)?.name).toBe("Headset 08");
    });

    it("has the kiosk with its PIN at London Warehouse and the themed home at Austin Lab", async () => {
      const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
      const site = (name: string) => ({ groupId: org.groups.find((g) => g.name === name)!.id });
      const apps = await client.apps.all();
      const kiosk = await client.headsetExperiences.get(site("London Warehouse"));
      expect(kiosk).toMatchObject({ mode: "arborxr-kiosk", isMenuEnabled: true, adminPin: DEMO_KIOSK_PIN });
      expect(kiosk.kioskContent?.id).toBe(apps.find((a) => a.name === "Warehouse Picker")!.id);
      const home = await client.headsetExperiences.get(site("Austin Lab"));
      const theme = (await client.themes.all()).find((t) => t.id === home.themeId);
      expect(home.mode).toBe("arborxr-home");
      expect(theme).toMatchObject({ name: "Acme Brand", isSystemOwned: false });
      expect((await client.headsetExperiences.get(site("Berlin Lab"))).id).toBeNull();
    });
  });
});
