// A stack that release 0.1.0 really wrote (test/fixtures/checkpoint-0.1.0: packed at aa5fe6c and run through
// that commit's test engine and emulator) continues under today's package and the Pulumi CLI: imported with
// `pulumi stack import`, then refresh, `up` with the same program, an update and a destroy, with the organization
// read from the emulator after each step. The state's `__provider` text is 0.1.0's own, so
// `require("pulumi-devicemgmt/runtime")` (today's, resolved from the plugin's working directory, the repository)
// must keep serving what that text calls.
import * as crypto from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type OrgSnapshot, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine, type RunResult } from "../engine";
import { DeviceMgmtClient } from "../../provider/client";
import { LEGACY_TYPE, thinProvider } from "../../provider/dynamic";
import type { ResourceKind } from "../../provider/kindKeys";
import * as dm from "../../provider";

const repoRoot = path.resolve(__dirname, "../..");
const fixtures = path.join(__dirname, "../fixtures/checkpoint-0.1.0");
const PROJECT = "devicemgmt-upgrade"; // the project and stack the checkpoint was written for (its URNs say so)
const STACK = "v010";

interface FixtureResource {
  urn: string;
  id?: string;
  type: string;
  inputs: Record<string, unknown>;
}
const written: FixtureResource[] = JSON.parse(fs.readFileSync(path.join(fixtures, "checkpoint.json"), "utf8"))
  .deployment.resources;
const secretsKey = Buffer.from(
  fs.readFileSync(path.join(fixtures, "secrets-key.txt"), "utf8").trim(),
  "base64",
);
const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const writtenResource = (name: string) => written.find((r) => r.urn.endsWith(`::${name}`))!;
const idOf = (name: string) => writtenResource(name).id!;
/** The `__provider` text 0.1.0 serialized, by resource name. */
const providerTextOf = (name: string) => writtenResource(name).inputs.__provider as string;
const RESOURCE_NAMES = ["company", "lab", "lab-simulator", "demo-beta", "ula", "loaner-to-staging"];

/** Copies the emulator state 0.1.0's run left, so the organization is that run's (the copy takes the writes). */
async function restoredEmulator(): Promise<RunningEmulator> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "upgrade-0.1.0-"));
  const statePath = path.join(dir, "emulator-state.json");
  await fs.promises.copyFile(path.join(fixtures, "emulator-state.json"), statePath);
  return startEmulator({ port: 0, statePath });
}

/**
 * One secret of the fixture in plain text. The checkpoint was written with a key held in memory: `v1:<iv>:<sealed>`
 * (base64), AES-256-GCM with the 16-byte tag after the ciphertext, over the value's JSON text.
 */
function decrypted(ciphertext: string): string {
  const [version, iv, sealed] = ciphertext.split(":");
  if (version !== "v1" || !iv || !sealed) throw new Error(`not a ciphertext of the fixture: ${ciphertext}`);
  const bytes = Buffer.from(sealed, "base64");
  const decipher = crypto.createDecipheriv("aes-256-gcm", secretsKey, Buffer.from(iv, "base64"));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString(
    "utf8",
  );
}

/** Every `{sig, ciphertext}` secret as `{sig, plaintext}`, which `pulumi stack import` encrypts with the stack's key. */
function withPlainSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withPlainSecrets);
  if (typeof value !== "object" || value === null) return value;
  const map = value as Record<string, unknown>;
  if (SECRET_SIG_KEY in map && typeof map.ciphertext === "string")
    return { [SECRET_SIG_KEY]: map[SECRET_SIG_KEY], plaintext: decrypted(map.ciphertext) };
  return Object.fromEntries(Object.entries(map).map(([key, v]) => [key, withPlainSecrets(v)]));
}

/**
 * The fixture as a deployment `pulumi stack import` takes, its resources as 0.1.0 wrote them. What the CLI needs
 * beyond plain-text secrets: a secrets provider it knows (the fixture names the old engine's in-memory one, which
 * the CLI refuses: `no known secrets provider for type "harness"`; without one it panics, "attempt to encrypt
 * value"), so it is this stack's passphrase provider with the stack's salt; and a manifest whose magic is the
 * SHA-256 of its version, as the CLI writes it (else "magic cookie mismatch; possible tampering/corruption
 * detected"). The checkpoint has no default provider resource and no `provider` reference on its resources: the
 * CLI adds both itself, from the stack's config, on the first operation, as it does for any checkpoint written
 * before providers were recorded.
 */
async function importable(engine: Engine, checkpointText: string): Promise<unknown> {
  const { version, deployment } = JSON.parse(checkpointText) as {
    version: number;
    deployment: { manifest: { time: string; version: string; magic?: string } };
  };
  const { encryptionSalt } = await engine.stack.workspace.stackSettings(STACK);
  const manifest = {
    ...deployment.manifest,
    magic: crypto.createHash("sha256").update(deployment.manifest.version).digest("hex"),
  };
  return {
    version,
    deployment: {
      ...(withPlainSecrets(deployment) as object),
      manifest,
      secrets_providers: { type: "passphrase", state: { salt: encryptionSalt } },
    },
  };
}

async function restoredEngine(
  emulator: RunningEmulator,
  checkpoint = path.join(fixtures, "checkpoint.json"),
): Promise<Engine> {
  const engine = await createEngine({
    cwd: repoRoot, // the plugin resolves require("pulumi-devicemgmt/runtime") from here: this repository's build
    project: PROJECT,
    stack: STACK,
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.multiOrgAdmin },
  });
  await engine.importDeployment(await importable(engine, await fs.promises.readFile(checkpoint, "utf8")));
  return engine;
}

/** The `__provider` text today's package serializes for a kind, as `dynamic.Resource` does. */
async function serializedProvider(kind: ResourceKind): Promise<string> {
  const { serializeFunction } = require("@pulumi/pulumi/runtime/closure/serializeClosure");
  const provider = thinProvider(kind);
  return (await serializeFunction(() => provider, { allowSecrets: true })).text;
}

/** The stack's state with its secrets in plain text (`pulumi stack export --show-secrets`, into a file). */
async function stateWithSecretsShown(
  engine: Engine,
): Promise<{ deployment: { resources: FixtureResource[] } }> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "upgrade-0.1.0-"));
  try {
    await engine.saveState(path.join(dir, "state.json"), { showSecrets: true });
    return JSON.parse(await fs.promises.readFile(path.join(dir, "state.json"), "utf8"));
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** The `__provider` text in the engine's state now, by resource name (as the plugin will be given it). */
function providerTexts(engine: Engine): Record<string, unknown> {
  const resources = (engine.checkpoint() as { deployment: { resources: FixtureResource[] } }).deployment
    .resources;
  return Object.fromEntries(
    RESOURCE_NAMES.map((name) => [
      name,
      resources.find((r) => r.urn.endsWith(`::${name}`))!.inputs.__provider,
    ]),
  );
}

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

const ORGANIZATION_0_1_0 = {
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

/** The program 0.1.0 ran (see the fixture's README), with today's classes; `change` is the update step. */
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
    // The device has moved: it is named by id, as 0.1.0's program named it.
    const migration = new dm.DeviceMigration("loaner-to-staging", {
      deviceId: idOf("loaner-to-staging").split("/")[0],
      organizationSlug: "acme-staging",
    });
    return { company: company.id, lab: lab.id, ula: ula.id, migrated: migration.id };
  };

const noFailures = (result: RunResult) => expect(result.errors).toEqual([]);

describe("a stack written by 0.1.0 (test/fixtures/checkpoint-0.1.0)", () => {
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

  it("loads as 0.1.0 wrote it: its own __provider text, its type token, its secret, its organization", async () => {
    expect(org()).toEqual(ORGANIZATION_0_1_0);
    expect(engine.resources().map((r) => r.name)).toEqual(expect.arrayContaining(RESOURCE_NAMES));
    for (const name of RESOURCE_NAMES) {
      expect(engine.resource(name).type).toBe(LEGACY_TYPE);
      expect(engine.resource(name).id).toBe(idOf(name));
    }
    const texts = providerTexts(engine);
    for (const name of RESOURCE_NAMES) {
      expect(texts[name]).toBe(providerTextOf(name));
      expect(texts[name]).toContain('require("pulumi-devicemgmt/runtime")');
    }
    // The per-resource connection was a secret, encrypted in the checkpoint, and decrypts to the token used; the
    // import encrypted it again with the stack's key, so the state holds no plain text of it.
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

  it("refresh, run by 0.1.0's __provider text against today's runtime, finds nothing changed", async () => {
    const before = emulator.snapshot();
    const refreshed = await engine.refresh();
    noFailures(refreshed);
    expect(refreshed.steps.delete).toEqual([]);
    expect(refreshed.steps.update).toEqual([]);
    expect(refreshed.steps.same.map((s) => s.name).sort()).toEqual([...RESOURCE_NAMES].sort());
    expect(refreshed.operations.every((o) => o.op === "read")).toBe(true);
    // The reads ran from the state's text, and the text stays 0.1.0's.
    expect(providerTexts(engine)).toEqual(
      Object.fromEntries(RESOURCE_NAMES.map((n) => [n, providerTextOf(n)])),
    );
    expect(emulator.snapshot()).toEqual(before);
  });

  it("up with the same program changes nothing in the organization and moves the stack to today's types", async () => {
    const before = emulator.snapshot();
    const upgraded = await engine.up(program(emulator.tokens.admin));
    noFailures(upgraded);
    expect(upgraded.steps.create).toEqual([]);
    expect(upgraded.steps.replace).toEqual([]);
    expect(upgraded.steps.delete).toEqual([]);
    expect(upgraded.operations).toEqual([]);
    expect(upgraded.steps.same.map((s) => s.aliasOf)).toEqual(
      Array(RESOURCE_NAMES.length).fill(expect.stringContaining(`::${LEGACY_TYPE}::`)),
    );
    expect(emulator.snapshot()).toEqual(before);
    for (const name of RESOURCE_NAMES) {
      expect(engine.resource(name).type).not.toBe(LEGACY_TYPE);
      expect(engine.resource(name).id).toBe(idOf(name));
    }
    // From here on the state holds today's text. (Today's text is still byte for byte 0.1.0's: the thin provider
    // has not changed. What shows that the state's text is what the plugin runs is the refresh above: a fixture
    // whose text calls something the runtime no longer exports fails it.)
    expect(providerTexts(engine).lab).toBe(await serializedProvider("group"));

    const again = await engine.up(program(emulator.tokens.admin));
    noFailures(again);
    expect(again.operations).toEqual([]);
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
      ...ORGANIZATION_0_1_0,
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
  });

  it("destroy removes what the program declared (the migrated device stays where it went)", async () => {
    const destroyed = await engine.destroy();
    noFailures(destroyed);
    expect(engine.resources().filter((r) => r.custom)).toEqual([]);
    expect(org()).toEqual({
      groups: [],
      groupChannels: [],
      users: [],
      headset01Channels: [],
      headset08In: ["acme-staging"],
    });
    // No run printed the per-resource connection's token, nor the stack's.
    expect(engine.stderr()).not.toContain(emulator.tokens.admin.split("|")[1]);
    expect(engine.stderr()).not.toContain(emulator.tokens.multiOrgAdmin.split("|")[1]);
  });
});

test("a 0.1.0 stack destroyed straight away: 0.1.0's __provider text deletes through today's runtime", async () => {
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
    expect(organization(emulator.snapshot(), emulator.snapshot("acme-staging"))).toEqual({
      groups: [],
      groupChannels: [],
      users: [],
      headset01Channels: [],
      headset08In: ["acme-staging"],
    });
  } finally {
    await engine.close();
    await emulator.close();
  }
});

test("the plugin runs the state's __provider text: a 0.1.0 text altered to call what the runtime lacks fails refresh", async () => {
  const emulator = await restoredEmulator();
  const altered = path.join(
    await fs.promises.mkdtemp(path.join(os.tmpdir(), "upgrade-0.1.0-")),
    "checkpoint.json",
  );
  const text = await fs.promises.readFile(path.join(fixtures, "checkpoint.json"), "utf8");
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
