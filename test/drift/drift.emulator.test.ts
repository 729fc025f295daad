// The drift report against the emulator, from real stack exports: two stacks written by the real Pulumi CLI
// (`pulumi stack export`; the SDK's dynamic-provider plugin, the real provider), changes made outside Pulumi with another person's
// token, and the report read with a read-only token.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine } from "../engine";
import * as dm from "../../provider";
import { DeviceMgmtClient } from "../../provider/client";
import { EXIT } from "../../provider/drift/cli";
import { SECRET_SIGNATURE_KEY } from "../../provider/drift/state";
import { brief, runDrift } from "./support";

const repoRoot = path.resolve(__dirname, "../..");
const ADA = "ada.admin@acme.example";

let emulator: RunningEmulator;
let workDir: string;
let core: Engine;
let sites: Engine;
let coreState: string;
let sitesState: string;
let ignoreFile: string;
let headset01: string;
let headset04: string;

const env = () => ({ DEVICEMGMT_BASE_URL: emulator.baseUrl, DEVICEMGMT_API_TOKEN: emulator.tokens.readOnly });

/** The part of the deploying token a leak would show (the seeded tokens are "<id>|<secret>"). */
const tokenSecret = () => emulator.tokens.multiOrgAdmin.split("|")[1];

function coreProgram() {
  const readOnly = dm.getRoleOutput({ name: "Read Only", type: "organization" });
  const admin = dm.getRoleOutput({ name: "Admin", type: "organization" });
  const groupAdmin = dm.getRoleOutput({ name: "Group Admin", type: "group" });
  const production = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Production" });
  const beta = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Beta" });
  const stable = dm.getReleaseChannelOutput({ appName: "Safety Briefing", channelName: "Stable" });
  const company = new dm.Group("company", { name: "Acme Training" });
  const emea = new dm.Group("emea", { name: "EMEA", parentId: company.id });
  const berlin = new dm.Group("berlin", { name: "Berlin Lab", parentId: emea.id, configured: true });
  const london = new dm.Group("london", { name: "London Warehouse", parentId: emea.id, configured: true });
  new dm.GroupReleaseChannel("berlin-production", { groupId: berlin.id, releaseChannelId: production.id });
  new dm.GroupReleaseChannel("london-stable", { groupId: london.id, releaseChannelId: stable.id });
  new dm.DeviceReleaseChannel("headset01-beta", { deviceId: headset01, releaseChannelId: beta.id });
  // Only where it sits is managed: its name and tags are left to the portal.
  new dm.Device("headset04", { deviceId: headset04, groupId: london.id });
  new dm.User("emil", {
    firstName: "Emil",
    lastName: "Lindqvist",
    email: "emil.lindqvist@acme.example",
    defaultRoleId: readOnly.id,
    groupRoles: [{ roleId: groupAdmin.id, groupId: berlin.id }],
  });
  new dm.User("fay", {
    firstName: "Fay",
    lastName: "Ops",
    email: "fay.ops@acme.example",
    defaultRoleId: admin.id,
  });
}

/** The second stack: a site of its own, with an explicit connection whose token is a secret in its state. */
function sitesProgram() {
  const member = dm.getRoleOutput({ name: "Member", type: "organization" });
  const viewer = dm.getRoleOutput({ name: "Group Viewer", type: "group" });
  const picker = dm.getReleaseChannelOutput({ appName: "Warehouse Picker", channelName: "Production" });
  const connection = { baseUrl: emulator.baseUrl, apiToken: pulumi.secret(emulator.tokens.multiOrgAdmin) };
  const austin = new dm.Group("austin", { name: "Austin Lab", configured: true, connection });
  new dm.GroupReleaseChannel("austin-picker", {
    groupId: austin.id,
    releaseChannelId: picker.id,
    connection,
  });
  new dm.User("gus", {
    firstName: "Gus",
    lastName: "Sites",
    email: "gus.sites@acme.example",
    defaultRoleId: member.id,
    groupRoles: [{ roleId: viewer.id, groupId: austin.id }],
  });
}

async function engineFor(project: string, stack: string): Promise<Engine> {
  return createEngine({
    cwd: repoRoot,
    project,
    stack,
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.multiOrgAdmin },
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-"));
  const reader = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  const devices = await reader.devices.all();
  headset01 = devices.find((d) => d.name === "Headset 01")!.id;
  headset04 = devices.find((d) => d.name === "Headset 04")!.id;
  core = await engineFor("acme-core", "production");
  sites = await engineFor("acme-sites", "production");
  expect((await core.up(coreProgram)).errors).toEqual([]);
  expect((await sites.up(sitesProgram)).errors).toEqual([]);
  coreState = path.join(workDir, "core.json");
  sitesState = path.join(workDir, "sites.json");
  await core.saveState(coreState);
  await sites.saveState(sitesState);
  ignoreFile = path.join(workDir, "drift-ignore");
  fs.writeFileSync(
    ignoreFile,
    [
      "# break-glass account, kept out of Pulumi on purpose",
      `user ${ADA}`,
      "user dana.manager@acme.example",
      "# the identity the stacks deploy with",
      "user morgan.multi@acme.example",
      "# the brand theme belongs to the marketing team",
      "theme Acme Brand",
      "# the tag catalogue is the device team's (tags are compared in content.emulator.test.ts)",
      "tag *",
      "",
    ].join("\n"),
  );
}, 120_000);

afterAll(async () => {
  await core?.close();
  await sites?.close();
  await emulator?.close();
});

describe("an organization that matches its stacks", () => {
  it("reports nothing, reads only, and says whom it left out and why", async () => {
    emulator.resetStats();
    const run = await runDrift(workDir, ["--ignore", ignoreFile, coreState, sitesState], env());
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.report.findings.map(brief)).toEqual([]);
    expect(run.code).toBe(EXIT.clean);
    expect(emulator.stats().writes).toBe(0);
    expect(run.markdown).toContain("No drift");
    expect(run.stdout).toBe(run.markdown);
    expect(run.report.stacks.map((s) => [s.stack, s.resources])).toEqual([
      ["acme-core/production", 10],
      ["acme-sites/production", 3],
    ]);
    expect(run.report.ignored.map((i) => [i.label.split(" ")[0], i.reason])).toEqual(
      expect.arrayContaining([
        [ADA, `${ignoreFile}:2: ${ADA}`],
        ["rory.reader@acme.example", "the API token's own user"],
      ]),
    );
  });

  it("with one of two stacks, reports only the other stack's objects as unmanaged", async () => {
    const run = await runDrift(workDir, ["--ignore", ignoreFile, coreState], env());
    expect(run.report.findings.map(brief).sort()).toEqual([
      'unmanaged group "Austin Lab" (configured)',
      'unmanaged groupReleaseChannel "Warehouse Picker / Production" on group "Austin Lab"',
      'unmanaged user gus.sites@acme.example (Gus Sites): Member, Group Viewer on "Austin Lab"',
    ]);
    expect(run.code).toBe(EXIT.found);
    const other = await runDrift(workDir, ["--ignore", ignoreFile, sitesState], env());
    const unmanaged = other.report.findings.map(brief);
    expect(unmanaged).toContain("unmanaged user fay.ops@acme.example (Fay Ops): Admin [Admin]");
    expect(unmanaged.filter((f) => /Austin|gus\.sites/.test(f))).toEqual([]);
    expect(other.code).toBe(EXIT.unmanagedAdmin);
  });

  it("without the ignore file, the break-glass Admin is an unmanaged Admin, listed first", async () => {
    const run = await runDrift(workDir, [coreState, sitesState], env());
    expect(run.code).toBe(EXIT.unmanagedAdmin);
    // Only the read-only token's own user is left out: the Admin the stacks deploy with is reported too.
    expect(run.report.findings.map(brief)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^unmanaged user morgan\.multi@acme\.example .*\[Admin\]$/),
      ]),
    );
    expect(run.report.ignored).toEqual([
      expect.objectContaining({
        reason: "the API token's own user",
        label: expect.stringMatching(/^rory\.reader@/),
      }),
    ]);
    expect(brief(run.report.findings[0])).toMatch(
      /^unmanaged user (ada\.admin|morgan\.multi)@acme\.example .*\[Admin\]$/,
    );
    expect(run.markdown).toContain("organization Admin");
  });
});

describe("secrets in the stack exports", () => {
  it("are never printed, encrypted or in plain text (`pulumi stack export --show-secrets`)", async () => {
    const encrypted = fs.readFileSync(sitesState, "utf8");
    expect(encrypted).toContain(SECRET_SIGNATURE_KEY);
    expect(encrypted).not.toContain(tokenSecret());
    const ciphertexts = [...encrypted.matchAll(/"ciphertext": "([^"]+)"/g)].map((m) => m[1]);
    expect(ciphertexts.length).toBeGreaterThan(0);
    // What --show-secrets writes: the same envelope with the value in plain text.
    const shownFile = path.join(workDir, "sites-show-secrets.json");
    await sites.saveState(shownFile, { showSecrets: true });
    const shown = fs.readFileSync(shownFile, "utf8");
    expect(shown).toContain(tokenSecret());
    expect(shown).toContain('"plaintext"');
    expect(shown).not.toContain('"ciphertext"');
    // Drift on the secret-holding resources too, so their outputs are compared and printed.
    const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    const austin = (await admin.groups.all()).find((g) => g.name === "Austin Lab")!;
    await admin.groups.update(austin.id, { name: "Austin Lab (moved)", parentId: null });
    try {
      for (const file of [sitesState, shownFile]) {
        const run = await runDrift(workDir, ["--ignore", ignoreFile, coreState, file], env());
        expect(run.report.findings.map(brief)).toContain('changed group "Austin Lab (moved)" (configured)');
        for (const output of [run.markdown, run.json, run.stdout, run.stderr]) {
          expect(output).not.toContain(tokenSecret());
          expect(output).not.toContain(emulator.tokens.multiOrgAdmin);
          for (const ciphertext of ciphertexts) expect(output).not.toContain(ciphertext);
        }
      }
    } finally {
      await admin.groups.update(austin.id, { name: "Austin Lab", parentId: null });
    }
  });
});

describe("changes made outside Pulumi, with another person's token", () => {
  let run: Awaited<ReturnType<typeof runDrift>>;
  let before: number;
  let after: number;

  beforeAll(async () => {
    const ada = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    const roles = await ada.roles.all();
    const groups = await ada.groups.all();
    const users = await ada.users.all();
    const channels = await ada.groups
      .releaseChannels(groups.find((g) => g.name === "London Warehouse")!.id)
      .all();
    before = Date.now();
    await ada.users.create({
      firstName: "Nico",
      lastName: "New",
      email: "nico.new@acme.example",
      defaultRoleId: roles.find((r) => r.name === "Admin" && r.type === "organization")!.id,
    });
    const berlin = groups.find((g) => g.name === "Berlin Lab")!;
    await ada.groups.update(berlin.id, { name: "Berlin Lab (old)", parentId: berlin.parent!.id });
    await ada.groups.removeReleaseChannel(
      groups.find((g) => g.name === "London Warehouse")!.id,
      channels[0].id,
    );
    await ada.users.delete(users.find((u) => u.email === "emil.lindqvist@acme.example")!.id);
    await ada.devices.update(headset04, { groupId: berlin.id, name: "Headset 04 (Berlin)" });
    after = Date.now();
    emulator.resetStats();
    run = await runDrift(workDir, ["--ignore", ignoreFile, coreState, sitesState], env());
  }, 60_000);

  const findingOf = (pattern: RegExp) => {
    const found = run.report.findings.filter((f) => pattern.test(brief(f)));
    expect(found).toHaveLength(1);
    return found[0];
  };

  /** The newest audit record of a finding: by Ada, at the time of the change. */
  const expectAuthoredByAda = (action: string, audit: Array<{ at: string; who: string; action: string }>) => {
    expect(audit.length).toBeGreaterThan(0);
    expect(audit[0]).toMatchObject({ who: ADA, action });
    const at = Date.parse(audit[0].at);
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(at).toBeLessThanOrEqual(after);
    // Newest first.
    const times = audit.map((a) => Date.parse(a.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  };

  it("exits with the unmanaged-Admin status and writes nothing", () => {
    expect(run.code).toBe(EXIT.unmanagedAdmin);
    expect(emulator.stats().writes).toBe(0);
    expect(emulator.stats().byStatus["429"]).toBeUndefined();
  });

  it("a new Admin: unmanaged, with who made it and when", () => {
    const found = findingOf(/^unmanaged user nico\.new@acme\.example/);
    expect(found.admin).toBe(true);
    expectAuthoredByAda("create-user", found.audit);
    expect(run.report.findings[0]).toBe(run.report.findings.find((f) => f.admin));
  });

  it("a renamed group: changed, the field with both values, who and when", () => {
    const found = findingOf(/^changed group "Acme Training > EMEA > Berlin Lab \(old\)"/);
    expect(found.managedBy).toEqual(["acme-core/production: berlin"]);
    expect(found.differences).toEqual([{ field: "name", state: "Berlin Lab", live: "Berlin Lab (old)" }]);
    expectAuthoredByAda("update-group", found.audit);
  });

  it("a detached release channel: gone, with who detached it and when", () => {
    const found = findingOf(/^gone groupReleaseChannel /);
    expect(found.label).toMatch(
      /'Safety Briefing \/ Stable' on group .* 'Acme Training > EMEA > London Warehouse'$/,
    );
    // Only the records about release channels on the group: not its creation.
    expect(found.audit.map((a) => a.action)).toEqual([
      "detach-release-channel-from-group",
      "attach-release-channel-to-group",
    ]);
    expect(found.managedBy).toEqual(["acme-core/production: london-stable"]);
    expectAuthoredByAda("detach-release-channel-from-group", found.audit);
  });

  it("a deleted user: gone, with who deleted it and when", () => {
    const found = findingOf(/^gone user emil\.lindqvist@acme\.example/);
    expectAuthoredByAda("delete-user", found.audit);
  });

  it("a moved device: changed where it sits (the name it does not manage is not compared), who and when", () => {
    const found = findingOf(/^changed device "Headset 04 \(Berlin\)"/);
    expect(found.differences.map((d) => d.field)).toEqual(["groupId"]);
    expect(found.differences[0].state).toMatch(/London Warehouse/);
    expect(found.differences[0].live).toMatch(/Berlin Lab \(old\)/);
    expectAuthoredByAda("update-device", found.audit);
  });

  it("reports those five and nothing else (no unmanaged device: devices are enrolled, not declared)", () => {
    expect(run.report.findings).toHaveLength(5);
  });

  it("the Markdown summary names each finding, its author and the action", () => {
    expect(run.markdown).toMatch(/### Not managed by any stack \(1\)/);
    expect(run.markdown).toMatch(/### Changed outside Pulumi \(2\)/);
    expect(run.markdown).toMatch(/### Gone from the organization \(2\)/);
    expect(run.markdown).toContain(`**${ADA}** delete-user`);
    expect(run.markdown).toContain("`name`: state Berlin Lab → live Berlin Lab (old)");
  });
});
