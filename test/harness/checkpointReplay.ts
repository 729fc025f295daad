// Replays a checkpoint an earlier version of the package really wrote (test/fixtures/checkpoint-*) under today's
// package and the Pulumi CLI: imported with `pulumi stack import`, then refresh, `up` with the same program, an
// update and a destroy, with the organization read from the emulator after each step. The state's `__provider`
// text is the old version's own, so `require("pulumi-devicemgmt/runtime")` (today's, resolved from the plugin's
// working directory, the repository) must keep serving what that text calls. Every fixture ran the same program
// (see test/fixtures/checkpoint-0.1.0/README.md).
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type OrgSnapshot, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine, type RunResult } from "../engine";
import { DeviceMgmtClient } from "../../provider/client";
import { LEGACY_TYPE, providerText } from "../../provider/dynamic";
import * as dm from "../../provider";

const repoRoot = path.resolve(__dirname, "../..");
const PROJECT = "devicemgmt-upgrade"; // the project every fixture was written for (its URNs say so)

export interface FixtureResource {
  urn: string;
  id?: string;
  type: string;
  inputs: Record<string, unknown>;
}

export interface ReplayedFixture {
  /** The folder under test/fixtures: checkpoint.json and emulator-state.json. */
  dir: string;
  /** The stack the checkpoint was written for. */
  stack: string;
  /** What the release was: named in the tests' titles. */
  release: string;
  /** The types the resources were written with: the SDK's default (before 0.2) or today's per-kind ones. */
  writtenTypes: "legacy" | "per-kind";
  /**
   * The checkpoint's text as the deployment `pulumi stack import` takes (what must change for the CLI to accept
   * it, e.g. the secrets), given the engine of the stack it is imported into and the emulator it now runs against.
   */
  importable(engine: Engine, checkpointText: string, emulator: RunningEmulator): Promise<unknown>;
}

const RESOURCE_NAMES = ["company", "lab", "lab-simulator", "demo-beta", "ula", "loaner-to-staging"];

/** What a person would compare: the program's objects by name, their tree, roles and attachments. */
function organization(primary: OrgSnapshot, staging: OrgSnapshot) {
  const groupName = new Map(primary.groups.map((g) => [g.id, g.name]));
  const channelName = new Map(primary.releaseChannels.map((c) => [c.id, c.name]));
  const ours = primary.groups.filter((g) => g.name.startsWith("Upgrade"));
  return {
    groups: ours
      .map(
        (g) =>
          `${g.parentId ? groupName.get(g.parentId) : "(root)"} > ${g.name}${g.isConfigured ? " [configured]" : ""}`,
      )
      .sort(),
    groupChannels: primary.groupReleaseChannels
      .filter((a) => ours.some((g) => g.id === a.groupId))
      .map((a) => `${groupName.get(a.groupId)}: ${channelName.get(a.releaseChannelId)}`),
    users: primary.users
      .filter((u) => u.email === "ula@acme.example")
      .map((u) => ({
        id: u.id,
        name: `${u.firstName} ${u.lastName}`,
        roles: u.accessControls
          .map(
            (ac) =>
              `${ac.roleName}@${ac.protectable.type === "group" ? groupName.get(ac.protectable.id) : "organization"}`,
          )
          .sort(),
      })),
    headset01Channels: primary.devices
      .find((d) => d.name === "Headset 01")!
      .releaseChannelIds.map((id) => channelName.get(id)),
    headset08In: [
      ...(primary.devices.some((d) => d.name === "Headset 08") ? ["acme"] : []),
      ...(staging.devices.some((d) => d.name === "Headset 08") ? ["acme-staging"] : []),
    ],
  };
}

const noFailures = (result: RunResult) => expect(result.errors).toEqual([]);

/** The suites of one fixture; call at a test file's top level. */
export function describeReplay(fixture: ReplayedFixture): void {
  const written: FixtureResource[] = JSON.parse(
    fs.readFileSync(path.join(fixture.dir, "checkpoint.json"), "utf8"),
  ).deployment.resources;
  const writtenResource = (name: string) => written.find((r) => r.urn.endsWith(`::${name}`))!;
  const idOf = (name: string) => writtenResource(name).id!;
  /** The `__provider` text the release serialized, by resource name. */
  const providerTextOf = (name: string) => writtenResource(name).inputs.__provider as string;
  const legacy = fixture.writtenTypes === "legacy";

  /** Copies the emulator state the release's run left, so the organization is that run's (the copy takes the writes). */
  async function restoredEmulator(): Promise<RunningEmulator> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "upgrade-"));
    const statePath = path.join(dir, "emulator-state.json");
    await fs.promises.copyFile(path.join(fixture.dir, "emulator-state.json"), statePath);
    return startEmulator({ port: 0, statePath });
  }

  async function restoredEngine(
    emulator: RunningEmulator,
    checkpoint = path.join(fixture.dir, "checkpoint.json"),
  ): Promise<Engine> {
    const engine = await createEngine({
      cwd: repoRoot, // the plugin resolves require("pulumi-devicemgmt/runtime") from here: this repository's build
      project: PROJECT,
      stack: fixture.stack,
      config: { "devicemgmt:baseUrl": emulator.baseUrl },
      secretConfig: { "devicemgmt:apiToken": emulator.tokens.multiOrgAdmin },
    });
    await engine.importDeployment(
      await fixture.importable(engine, await fs.promises.readFile(checkpoint, "utf8"), emulator),
    );
    return engine;
  }

  /** The stack's state with its secrets in plain text (`pulumi stack export --show-secrets`, into a file). */
  async function stateWithSecretsShown(
    engine: Engine,
  ): Promise<{ deployment: { resources: FixtureResource[] } }> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "upgrade-"));
    try {
      await engine.saveState(path.join(dir, "state.json"), { showSecrets: true });
      return JSON.parse(await fs.promises.readFile(path.join(dir, "state.json"), "utf8"));
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  /** The `__provider` text in the engine's state now, by resource name, of the inputs or the outputs. */
  function providerTexts(engine: Engine, of: "inputs" | "outputs" = "inputs"): Record<string, unknown> {
    const resources = (
      engine.checkpoint() as {
        deployment: { resources: (FixtureResource & { outputs: Record<string, unknown> })[] };
      }
    ).deployment.resources;
    return Object.fromEntries(
      RESOURCE_NAMES.map((name) => [
        name,
        resources.find((r) => r.urn.endsWith(`::${name}`))![of].__provider,
      ]),
    );
  }
  const writtenTexts = () => Object.fromEntries(RESOURCE_NAMES.map((n) => [n, providerTextOf(n)]));

  const WRITTEN_ORGANIZATION = {
    groups: ["(root) > Upgrade Co", "Upgrade Co > Upgrade Lab [configured]"],
    groupChannels: ["Upgrade Lab: Production"],
    users: [
      {
        id: idOf("ula"),
        name: "Ula Upgrade",
        roles: ["Group Admin@Upgrade Lab", "Read Only@organization"],
      },
    ],
    headset01Channels: ["Beta"],
    headset08In: ["acme-staging"],
  };
  const EMPTIED_ORGANIZATION = {
    groups: [],
    groupChannels: [],
    users: [],
    headset01Channels: [],
    headset08In: ["acme-staging"],
  };

  /** The program the release ran (see the fixtures' READMEs), with today's classes; `change` is the update step. */
  const program =
    (admin: string, change: { labName?: string; ulaRole?: string } = {}) =>
    () => {
      const ulaRole = dm.getRoleOutput({ name: change.ulaRole ?? "Read Only", type: "organization" });
      const groupAdmin = dm.getRoleOutput({ name: "Group Admin", type: "group" });
      const production = dm.getReleaseChannelOutput({
        appName: "Training Simulator",
        channelName: "Production",
      });
      const beta = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Beta" });
      const demo = dm.getDeviceOutput({ name: "Headset 01" });

      const company = new dm.Group("company", { name: "Upgrade Co" });
      const lab = new dm.Group("lab", {
        name: change.labName ?? "Upgrade Lab",
        parentId: company.id,
        configured: true,
      });
      new dm.GroupReleaseChannel("lab-simulator", { groupId: lab.id, releaseChannelId: production.id });
      new dm.DeviceReleaseChannel("demo-beta", { deviceId: demo.id, releaseChannelId: beta.id });
      const ula = new dm.User("ula", {
        firstName: "Ula",
        lastName: "Upgrade",
        email: "ula@acme.example",
        defaultRoleId: ulaRole.id,
        groupRoles: [{ roleId: groupAdmin.id, groupId: lab.id }],
        connection: { apiToken: admin },
      });
      // The device has moved: it is named by id, as the release's program named it.
      const migration = new dm.DeviceMigration("loaner-to-staging", {
        deviceId: idOf("loaner-to-staging").split("/")[0],
        organizationSlug: "acme-staging",
      });
      return { company: company.id, lab: lab.id, ula: ula.id, migrated: migration.id };
    };

  describe(`a stack written by ${fixture.release} (${path.relative(repoRoot, fixture.dir)})`, () => {
    let emulator: RunningEmulator;
    let engine: Engine;
    const org = () => organization(emulator.snapshot(), emulator.snapshot("acme-staging"));

    beforeAll(async () => {
      emulator = await restoredEmulator();
      engine = await restoredEngine(emulator);
    });

    afterAll(async () => {
      await engine?.close();
      await emulator?.close();
    });

    it("loads as it was written: its own __provider text, its type token, its secret, its organization", async () => {
      expect(org()).toEqual(WRITTEN_ORGANIZATION);
      expect(engine.resources().map((r) => r.name)).toEqual(expect.arrayContaining(RESOURCE_NAMES));
      for (const name of RESOURCE_NAMES) {
        expect(engine.resource(name).type).toBe(legacy ? LEGACY_TYPE : writtenResource(name).type);
        expect(engine.resource(name).id).toBe(idOf(name));
      }
      const texts = providerTexts(engine);
      for (const name of RESOURCE_NAMES) {
        expect(texts[name]).toBe(providerTextOf(name));
        expect(texts[name]).toContain('require("pulumi-devicemgmt/runtime").handler(kind)');
      }
      // The per-resource connection was a secret, encrypted in the checkpoint, and decrypts to the token used; the
      // import encrypted it with the stack's key, so the state holds no plain text of it.
      expect(engine.resource("ula").secretInputs).toEqual(["connection"]);
      expect(engine.resource("ula").secretOutputs).toContain("connection");
      expect(engine.resource("ula").inputs.connection).toMatchObject({ ciphertext: expect.any(String) });
      expect(JSON.stringify(engine.checkpoint())).not.toContain(emulator.tokens.admin.split("|")[1]);
      const ula = (await stateWithSecretsShown(engine)).deployment.resources.find((r) =>
        r.urn.endsWith("::ula"),
      )!;
      const connection = ula.inputs.connection as { plaintext: string };
      expect(JSON.parse(connection.plaintext)).toEqual({ apiToken: emulator.tokens.admin });
    });

    it("refresh, run by the written __provider text against today's runtime, finds nothing changed", async () => {
      const before = emulator.snapshot();
      const refreshed = await engine.refresh();
      noFailures(refreshed);
      expect(refreshed.steps.delete).toEqual([]);
      expect(refreshed.steps.update).toEqual([]);
      expect(refreshed.steps.same.map((s) => s.name).sort()).toEqual([...RESOURCE_NAMES].sort());
      expect(refreshed.operations.every((o) => o.op === "read")).toBe(true);
      // The reads ran from the state's text, and the text stays the written one.
      expect(providerTexts(engine)).toEqual(writtenTexts());
      expect(emulator.snapshot()).toEqual(before);
    });

    it("up with the same program changes nothing, shows no diff for the new __provider text, and records it", async () => {
      const before = emulator.snapshot();
      const upgraded = await engine.up(program(emulator.tokens.admin));
      noFailures(upgraded);
      expect(upgraded.steps.create).toEqual([]);
      expect(upgraded.steps.replace).toEqual([]);
      expect(upgraded.steps.delete).toEqual([]);
      expect(upgraded.steps.update).toEqual([]);
      expect(upgraded.operations).toEqual([]);
      expect(upgraded.steps.same.map((s) => s.aliasOf)).toEqual(
        Array(RESOURCE_NAMES.length).fill(legacy ? expect.stringContaining(`::${LEGACY_TYPE}::`) : undefined),
      );
      expect(emulator.snapshot()).toEqual(before);
      for (const name of RESOURCE_NAMES) {
        expect(engine.resource(name).type).not.toBe(LEGACY_TYPE);
        expect(engine.resource(name).id).toBe(idOf(name));
      }
      // The inputs hold today's text from here on; the outputs keep the written text (a step that changes
      // nothing keeps the outputs) until the resource's next update, and both run today's runtime.
      expect(providerTexts(engine).lab).toBe(providerText("group"));
      expect(providerTexts(engine).ula).toBe(providerText("user"));
      expect(providerTexts(engine, "outputs")).toEqual(writtenTexts());

      const again = await engine.up(program(emulator.tokens.admin));
      noFailures(again);
      expect(again.operations).toEqual([]);
      const refreshed = await engine.refresh();
      noFailures(refreshed);
      expect(refreshed.steps.update).toEqual([]);
    });

    it("an update renames the group and changes the user's role in place", async () => {
      const updated = await engine.up(
        program(emulator.tokens.admin, { labName: "Upgrade Lab East", ulaRole: "Device Manager" }),
      );
      noFailures(updated);
      expect(updated.operations.map((o) => `${o.op} ${o.urn.split("::").pop()}`).sort()).toEqual([
        "update lab",
        "update ula",
      ]);
      expect(org()).toEqual({
        ...WRITTEN_ORGANIZATION,
        groups: ["(root) > Upgrade Co", "Upgrade Co > Upgrade Lab East [configured]"],
        groupChannels: ["Upgrade Lab East: Production"],
        users: [
          {
            id: idOf("ula"),
            name: "Ula Upgrade",
            roles: ["Device Manager@organization", "Group Admin@Upgrade Lab East"],
          },
        ],
      });
      expect(emulator.snapshot().groups.find((g) => g.name === "Upgrade Lab East")!.id).toBe(idOf("lab"));
      // An update records today's text in the outputs too.
      expect(providerTexts(engine, "outputs").lab).toBe(providerText("group"));
    });

    it("destroy removes what the program declared (the migrated device stays where it went)", async () => {
      const destroyed = await engine.destroy();
      noFailures(destroyed);
      expect(engine.resources().filter((r) => r.custom)).toEqual([]);
      expect(org()).toEqual(EMPTIED_ORGANIZATION);
      // No run printed the per-resource connection's token, nor the stack's.
      expect(engine.stderr()).not.toContain(emulator.tokens.admin.split("|")[1]);
      expect(engine.stderr()).not.toContain(emulator.tokens.multiOrgAdmin.split("|")[1]);
    });
  });

  test(`a stack written by ${fixture.release} destroyed straight away: its __provider text deletes through today's runtime`, async () => {
    const emulator = await restoredEmulator();
    const engine = await restoredEngine(emulator);
    try {
      const destroyed = await engine.destroy();
      expect(destroyed.errors).toEqual([]);
      expect(destroyed.operations.map((o) => `${o.op} ${o.urn.split("::").pop()}`).sort()).toEqual(
        RESOURCE_NAMES.map((name) => `delete ${name}`).sort(),
      );
      const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
      expect((await admin.groups.all()).filter((g) => g.name.startsWith("Upgrade"))).toEqual([]);
      expect((await admin.users.all()).filter((u) => u.email === "ula@acme.example")).toEqual([]);
      expect(organization(emulator.snapshot(), emulator.snapshot("acme-staging"))).toEqual(
        EMPTIED_ORGANIZATION,
      );
    } finally {
      await engine.close();
      await emulator.close();
    }
  });

  test(`the plugin runs the state's __provider text: ${fixture.release}'s text altered to call what the runtime lacks fails refresh`, async () => {
    const emulator = await restoredEmulator();
    const altered = path.join(
      await fs.promises.mkdtemp(path.join(os.tmpdir(), "upgrade-")),
      "checkpoint.json",
    );
    const text = await fs.promises.readFile(path.join(fixture.dir, "checkpoint.json"), "utf8");
    await fs.promises.writeFile(altered, text.replaceAll(".handler(kind).read(", ".handlerGone(kind).read("));
    const engine = await restoredEngine(emulator, altered);
    try {
      const refreshed = await engine.refresh();
      expect(refreshed.errors.map((e) => e.message)).toEqual(
        Array(RESOURCE_NAMES.length).fill(expect.stringContaining("handlerGone is not a function")),
      );
    } finally {
      await engine.close();
      await emulator.close();
    }
  });
}
