// Reading stack exports: per-kind type tokens, the 0.1 release's legacy type (kind from the serialized provider,
// or failing that from the outputs), other providers' resources left alone, secrets masked before use; an export no
// program writes (values with their own toString key, nesting 200,000 deep, kinds named "constructor") reported.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine } from "../engine";
import { DeviceMgmtClient } from "../../provider/client";
import { LEGACY_TYPE } from "../../provider/dynamic";
import { legacyResource as legacy } from "../fixtures/legacyResource";
import { EXIT } from "../../provider/drift/cli";
import {
  legacyKind,
  MAX_VALUE_DEPTH,
  parseStackExport,
  SECRET,
  SECRET_SIGNATURE_KEY,
  StateFileError,
} from "../../provider/drift/state";
import { runDrift } from "./support";

const repoRoot = path.resolve(__dirname, "../..");

describe("a stack written by the 0.1 release (every kind as pulumi-nodejs:dynamic:Resource)", () => {
  let emulator: RunningEmulator;
  let engine: Engine;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    engine = await createEngine({
      cwd: repoRoot,
      config: { "devicemgmt:baseUrl": emulator.baseUrl },
      secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
    });
  });

  afterAll(async () => {
    await engine?.close();
    await emulator?.close();
  });

  it("tells each resource's kind from its serialized provider", async () => {
    const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    const adminRole = (await admin.roles.all()).find((r) => r.name === "Admin")!.id;
    const app = (await admin.apps.all()).find((a) => a.name === "Training Simulator")!;
    const production = (await admin.apps.releaseChannels(app.id).all()).find(
      (c) => c.name === "Production",
    )!.id;
    const result = await engine.up(() => {
      const site = legacy("group", "site", { name: "Legacy Lab", parentId: null, configured: true });
      legacy("groupReleaseChannel", "site-production", { groupId: site.id, releaseChannelId: production });
      legacy("user", "lou", {
        firstName: "Lou",
        lastName: "Legacy",
        email: "lou@acme.example",
        defaultRoleId: adminRole,
        groupRoles: [],
      });
    });
    expect(result.errors).toEqual([]);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "drift-legacy-")), "state.json");
    await engine.saveState(file);
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain(LEGACY_TYPE);
    const state = parseStackExport(text, file);
    expect(state.unknown).toEqual([]);
    expect(state.resources.map((r) => [r.name, r.kind]).sort()).toEqual([
      ["lou", "user"],
      ["site", "group"],
      ["site-production", "groupReleaseChannel"],
    ]);
    // Each provider text names its own kind, so the outputs were not needed.
    const checkpoint = JSON.parse(text) as {
      deployment: { resources: Array<{ urn: string; type: string; inputs: Record<string, unknown> }> };
    };
    for (const entry of checkpoint.deployment.resources.filter((r) => r.type === LEGACY_TYPE)) {
      const kind = legacyKind({ __provider: entry.inputs.__provider }, {});
      expect(state.resources.find((r) => r.urn === entry.urn)?.kind).toBe(kind);
    }
  });

  it("reads the export of a stack with a tainted resource, which the CLI writes as version 4", async () => {
    // `pulumi stack export` writes version 3 unless the state uses a feature older CLIs cannot read: a taint
    // (`pulumi state taint`) is one, and makes it version 4 with `features: ["taint"]`.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-taint-"));
    const plain = path.join(dir, "plain.json");
    await engine.saveState(plain);
    const before = JSON.parse(fs.readFileSync(plain, "utf8")) as { version: number; features?: string[] };
    expect(before.version).toBe(3);
    expect(before.features).toBeUndefined();
    await engine.taint("site");
    try {
      const tainted = path.join(dir, "tainted.json");
      await engine.saveState(tainted);
      const text = fs.readFileSync(tainted, "utf8");
      const exported = JSON.parse(text) as { version: number; features?: string[] };
      expect(exported).toMatchObject({ version: 4, features: ["taint"] });
      const state = parseStackExport(text, tainted);
      expect(state.resources.map((r) => [r.name, r.kind]).sort()).toEqual(
        parseStackExport(fs.readFileSync(plain, "utf8"), plain)
          .resources.map((r) => [r.name, r.kind])
          .sort(),
      );
      expect(state.resources.map((r) => r.name)).toContain("site");
      // The command reads it too, and compares its resources (the group, tainted, is still the live one).
      const env = { DEVICEMGMT_BASE_URL: emulator.baseUrl, DEVICEMGMT_API_TOKEN: emulator.tokens.readOnly };
      const run = await runDrift(dir, ["--kinds", "group,groupReleaseChannel", tainted], env);
      expect(run.stderr).not.toMatch(/not a stack export|error/i);
      expect(run.report.stacks.map((s) => s.resources)).toEqual([3]);
      expect(run.report.findings.filter((f) => f.managedBy.length)).toEqual([]);
    } finally {
      await engine.untaint("all");
    }
  });
});

describe("a stack export no program writes", () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });

  afterAll(async () => {
    await emulator?.close();
  });

  it("is reported, naming the file and each resource it cannot read", async () => {
    // Issue 32: a value with its own toString key (String() of it throws), a value nested 200,000 levels deep, and
    // legacy resources whose serialized provider names "constructor" or "__proto__" (`in` every object).
    const group = "pulumi-nodejs:dynamic/devicemgmt:Group";
    const user = "pulumi-nodejs:dynamic/devicemgmt:User";
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const legacyProvider = (kind: string) =>
      `exports.handler = () => require("pulumi-devicemgmt/runtime").handler("${kind}")`;
    const text =
      `{"version": 3, "deployment": {"resources": [` +
      [
        JSON.stringify({
          urn: urn(group, "named-by-object"),
          type: group,
          custom: true,
          id: "00000000-0000-4000-8000-000000000001",
          outputs: { name: { toString: "x", valueOf: 1 }, parentId: { toString: "y" }, configured: false },
        }),
        JSON.stringify({
          urn: urn(user, "odd-user"),
          type: user,
          custom: true,
          id: "00000000-0000-4000-8000-000000000002",
          outputs: {
            email: "ada.admin@acme.example",
            firstName: { toString: "x" },
            groupRoles: [{ roleId: { toString: "r" }, groupId: "g" }],
          },
        }),
        `{"urn": ${JSON.stringify(urn(group, "deep"))}, "type": "${group}", "custom": true, ` +
          `"id": "00000000-0000-4000-8000-000000000003", "outputs": {"name": ${deep}}}`,
        ...["constructor", "__proto__"].map((kind) =>
          JSON.stringify({
            urn: urn(LEGACY_TYPE, `legacy-${kind}`),
            type: LEGACY_TYPE,
            custom: true,
            id: `legacy-${kind}`,
            inputs: { __provider: legacyProvider(kind) },
            outputs: { something: 1 },
          }),
        ),
      ].join(", ") +
      "]}}";
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-odd-"));
    const file = path.join(dir, "odd.json");
    fs.writeFileSync(file, text);

    const state = parseStackExport(text, file);
    expect(state.unknown).toEqual([
      urn(LEGACY_TYPE, "legacy-constructor"),
      urn(LEGACY_TYPE, "legacy-__proto__"),
    ]);
    expect(state.unreadable).toEqual([
      { urn: urn(group, "deep"), reason: `a value is nested more than ${MAX_VALUE_DEPTH} levels deep` },
    ]);
    expect(state.resources.map((r) => r.name)).toEqual(["named-by-object", "odd-user"]);

    const env = { DEVICEMGMT_BASE_URL: emulator.baseUrl, DEVICEMGMT_API_TOKEN: emulator.tokens.readOnly };
    const run = await runDrift(dir, ["--kinds", "user,group", file], env);
    expect(run.stderr).toContain(`devicemgmt-drift: ${file}: ${urn(group, "deep")} is not compared: a value`);
    expect(run.code).toBe(EXIT.unmanagedAdmin);
    expect(run.report.unreadableResources).toEqual([{ file, ...state.unreadable[0] }]);
    expect(run.report.unknownResources).toEqual(state.unknown);
    // The group is gone, the user (Ada, seeded) changed: the values show as JSON.
    const found = run.report.findings.filter((f) => f.managedBy.length);
    expect(found.map((f) => [f.category, f.kind, f.label, f.managedBy])).toEqual([
      ["changed", "user", expect.stringMatching(/^ada\.admin@acme\.example /), ["acme/prod: odd-user"]],
      ["gone", "group", '"{"toString":"x","valueOf":1}"', ["acme/prod: named-by-object"]],
    ]);
    expect(found[0].differences.map((d) => [d.field, d.state])).toEqual([
      ["firstName", '{"toString":"x"}'],
      // Outputs the state lacks show as null, as they are compared.
      ["lastName", "null"],
      ["defaultRoleId", "null"],
      // An object's keys in one order (the live value's are too).
      ["groupRoles", '[{"groupId":"g","roleId":{"toString":"r"}}]'],
    ]);
    expect(run.markdown).toContain("whose values could not be read");
  });
});

const checkpoint = (resources: object[]) => JSON.stringify({ version: 3, deployment: { resources } });
const urn = (type: string, name: string) => `urn:pulumi:prod::acme::${type}::${name}`;

describe("parseStackExport", () => {
  it("reads per-kind type tokens, and masks secrets before anything sees them", () => {
    const type = "pulumi-nodejs:dynamic/devicemgmt:Group";
    const state = parseStackExport(
      checkpoint([
        {
          urn: urn(type, "lab"),
          type,
          custom: true,
          id: "g1",
          outputs: {
            name: "Lab",
            connection: {
              [SECRET_SIGNATURE_KEY]: "1b47061264138c4ac30d75fd1eb44270",
              plaintext: '"hunter2"',
            },
            __provider: "exports.handler = …",
          },
        },
        { urn: urn(type, "old"), type, custom: true, id: "g2", delete: true, outputs: {} },
        {
          urn: urn("aws:s3/bucket:Bucket", "b"),
          type: "aws:s3/bucket:Bucket",
          custom: true,
          id: "b",
          outputs: {},
        },
        {
          urn: urn(LEGACY_TYPE, "someone-elses"),
          type: LEGACY_TYPE,
          custom: true,
          id: "x",
          inputs: { __provider: "exports.handler = () => other()" },
          outputs: { name: "x", configured: true },
        },
      ]),
      "state.json",
    );
    expect(state.stack).toBe("acme/prod");
    expect(state.resources).toEqual([
      {
        kind: "group",
        stack: "acme/prod",
        urn: urn(type, "lab"),
        name: "lab",
        id: "g1",
        outputs: { name: "Lab", connection: SECRET },
        declared: [],
      },
    ]);
    expect(JSON.stringify(state)).not.toContain("hunter2");
  });

  it("tells a legacy kind from the outputs when the provider text does not name one", () => {
    const legacyOf = (outputs: Record<string, unknown>) =>
      legacyKind({ __provider: 'require("pulumi-devicemgmt/runtime")' }, outputs);
    expect(legacyOf({ email: "a@b.c", defaultRoleId: "r" })).toBe("user");
    expect(legacyOf({ groupId: "g", releaseChannelId: "c" })).toBe("groupReleaseChannel");
    expect(legacyOf({ deviceId: "d", releaseChannelId: "c" })).toBe("deviceReleaseChannel");
    expect(legacyOf({ name: "Lab", configured: false })).toBe("group");
    expect(legacyOf({ something: 1 })).toBeUndefined();
  });

  it("refuses what is not a version 3 or 4 stack export, saying what to give", () => {
    expect(() => parseStackExport("not json", "s.json")).toThrow(StateFileError);
    expect(() => parseStackExport(JSON.stringify({ version: 2, deployment: {} }), "s.json")).toThrow(
      /not a stack export or a checkpoint file of version 3 or 4 \(its "version" is 2\).*pulumi stack export/,
    );
    expect(() => parseStackExport(JSON.stringify({ version: 5, deployment: {} }), "s.json")).toThrow(
      /its "version" is 5/,
    );
    expect(
      parseStackExport(JSON.stringify({ version: 4, features: ["taint"], deployment: {} }), "s.json")
        .resources,
    ).toEqual([]);
    expect(() =>
      parseStackExport(JSON.stringify({ version: 3, checkpoint: { latest: [] } }), "s.json"),
    ).toThrow(/s\.json: checkpoint\.latest is not an object/);
  });

  it("reads a file backend's checkpoint file as the export of its latest deployment (none before the first up)", () => {
    const type = "pulumi-nodejs:dynamic/devicemgmt:Group";
    const exported = JSON.parse(
      checkpoint([{ urn: urn(type, "lab"), type, custom: true, id: "g1", outputs: { name: "Lab" } }]),
    ) as { version: number; deployment: unknown };
    const stored = {
      version: 3,
      checkpoint: { stack: "organization/acme/prod", latest: exported.deployment },
    };
    expect(parseStackExport(JSON.stringify(stored), "prod.json")).toEqual(
      parseStackExport(JSON.stringify(exported), "prod.json"),
    );
    expect(parseStackExport(JSON.stringify(stored), "prod.json").resources.map((r) => r.id)).toEqual(["g1"]);
    const initialized = { version: 3, checkpoint: { stack: "organization/acme/prod", latest: null } };
    expect(parseStackExport(JSON.stringify(initialized), "prod.json")).toMatchObject({
      stack: "prod.json",
      resources: [],
    });
  });
});
