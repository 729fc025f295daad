// Issue 42 item 7: one organization declared once (declarations.ts), run through the dynamic classes (an inline
// program on the real CLI, test/engine) and through the provider plugin (a Pulumi YAML project on the real CLI,
// yamlStack.ts), each against an emulator of its own that records every request. Both ways must send the same
// requests, leave the same organization, refuse the same bad inputs at preview with the same messages, and give
// the same drift report from their stack exports. Ids differ between the two emulators: each is replaced by what
// it names (a group by its name, a user by e-mail, ...) before comparing; lists are compared in sorted order,
// since the engine runs independent steps in parallel.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type ApiRequestRecord, type OrgSnapshot, type RunningEmulator } from "../../emulator";
import * as dm from "../../provider";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type CheckFailure, type Engine } from "../engine";
import { runDrift } from "../drift/support";
import { runExport } from "../export/support";
import { pluginProvider } from "../../provider/plugin/provider";
import { PluginConfiguration } from "../../provider/plugin/configure";
import { dynamicProgram, yamlProgram, type Declared } from "./declarations";
import { yamlStack, type YamlStack } from "./yamlStack";

const repoRoot = path.resolve(__dirname, "../..");
const PROJECT = "devicemgmt-both-ways";
const MISSING = "12121212-1212-4212-8212-121212121212";
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

let dir: string;
let welcomeFile: string;
/** The two ways, each with its own emulator. */
let dynamic: { emulator: RunningEmulator; engine: Engine };
let plugin: { emulator: RunningEmulator; yaml: YamlStack };

/**
 * A folder with a configured lab on a release channel holding a file, a user with roles, a catalogue tag; and
 * its second version: the folder, the tag and the user renamed in place, the lab moved to another channel (a
 * replacement, delete first).
 */
const organization = (version: 1 | 2 = 1): Declared[] => [
  { name: "nordics", type: "Group", properties: { name: version === 1 ? "Nordics" : "Nordic Region" } },
  {
    name: "stockholm",
    type: "Group",
    properties: { name: "Stockholm Lab", parentId: { ref: "nordics" }, configured: true },
  },
  {
    name: "stockholmSimulator",
    type: "GroupReleaseChannel",
    properties: {
      groupId: { ref: "stockholm" },
      releaseChannelId: { lookup: version === 1 ? "simulatorProduction" : "simulatorBeta" },
    },
  },
  {
    name: "astrid",
    type: "User",
    properties: {
      firstName: "Astrid",
      lastName: version === 1 ? "Berg" : "Berg-Lund",
      email: "astrid.berg@acme.example",
      defaultRoleId: { lookup: "readOnlyRole" },
      groupRoles: [{ roleId: { lookup: "groupAdminRole" }, groupId: { ref: "stockholm" } }],
    },
  },
  {
    name: "lobbyTag",
    type: "Tag",
    properties: { name: version === 1 ? "stockholm-lobby" : "stockholm-entrance" },
  },
  { name: "welcome", type: "File", properties: { source: welcomeFile, path: "/sdcard/Docs" } },
  {
    name: "stockholmWelcome",
    type: "GroupFile",
    properties: { groupId: { ref: "stockholm" }, fileId: { ref: "welcome" } },
  },
];

/** What each id of the organization names, for comparing across the two emulators. */
function labels(snapshot: OrgSnapshot): Map<string, string> {
  return new Map([
    ...snapshot.groups.map((g): [string, string] => [g.id, `<group ${g.name}>`]),
    ...snapshot.users.map((u): [string, string] => [u.id, `<user ${u.email}>`]),
    ...snapshot.tags.map((t): [string, string] => [t.id, `<tag ${t.name}>`]),
    ...snapshot.files.map((f): [string, string] => [f.id, `<file ${f.filename}>`]),
  ]);
}

/**
 * A text with each id replaced by what it names in its own emulator (`named`); an id named nowhere is kept when
 * the other side has it too (a seeded id: the seed is the same) and is `<id>` otherwise (an upload's).
 */
const withoutIds = (text: string, named: Map<string, string>, shared: Set<string>) =>
  text.replace(UUID, (id) => named.get(id.toLowerCase()) ?? (shared.has(id.toLowerCase()) ? id : "<id>"));

const idsIn = (text: string) => new Set([...text.matchAll(UUID)].map((m) => m[0].toLowerCase()));

/** Both sides' texts with ids replaced (see `withoutIds`), each side named by its own emulator's organization. */
function comparable(dynamicText: string, pluginText: string): [string, string] {
  const [a, b] = [idsIn(dynamicText), idsIn(pluginText)];
  const both = new Set([...a].filter((id) => b.has(id)));
  return [
    withoutIds(dynamicText, labels(dynamic.emulator.snapshot()), both),
    withoutIds(pluginText, labels(plugin.emulator.snapshot()), both),
  ];
}

/** One request a line: status, route, path, query and body, sorted (parallel steps send in any order). */
const requestLines = (records: ApiRequestRecord[]) =>
  records
    .map((r) =>
      `${r.status} ${r.route} ${r.path}${r.query ? `?${r.query}` : ""} ${JSON.stringify(r.body ?? null)}`
        // The storage's multipart upload id, random as the emulator's ids are.
        .replace(/"uploadId":"[^"]*"/g, '"uploadId":"<upload id>"'),
    )
    .sort()
    .join("\n");

/**
 * The requests each emulator answered since its last reset, compared with ids replaced: every write, as many
 * times each; the reads as the same set. How often a read is sent depends on which process asks: the classes'
 * lookups run in the program's process and the resources in the dynamic provider's, each caching what it read
 * (the token's organization, a list), while the plugin serves both in one process.
 */
function expectSameRequests(): string[] {
  const [fromDynamic, fromPlugin] = comparable(
    requestLines(dynamic.emulator.requests()),
    requestLines(plugin.emulator.requests()),
  ).map((text) => text.split("\n").sort());
  const isRead = (line: string) => / GET /.test(line);
  const writes = (lines: string[]) => lines.filter((line) => !isRead(line));
  const reads = (lines: string[]) => [...new Set(lines.filter(isRead))];
  expect(writes(fromPlugin)).toEqual(writes(fromDynamic));
  expect(reads(fromPlugin)).toEqual(reads(fromDynamic));
  const storage = (e: RunningEmulator) =>
    e.storageRequests().map((r) => `${r.method} ${r.partNumber} ${r.status}`);
  expect(storage(plugin.emulator).sort()).toEqual(storage(dynamic.emulator).sort());
  return fromDynamic;
}

function resetRequests(): void {
  dynamic.emulator.resetStats();
  plugin.emulator.resetStats();
}

/** Previews `declarations` both ways: each side's check failures, ids replaced. */
async function previewFailures(declarations: Declared[]): Promise<[CheckFailure[], CheckFailure[]]> {
  plugin.yaml.writeProgram(yamlProgram(PROJECT, declarations));
  const [byDynamic, byPlugin] = await Promise.all([
    dynamic.engine.preview(dynamicProgram(declarations)),
    plugin.yaml.run("preview"),
  ]);
  expect([byDynamic.ok, byPlugin.code === 0]).toEqual([false, false]);
  const failures = (errors: { failures?: CheckFailure[] }[]) => errors.flatMap((e) => e.failures ?? []);
  const [a, b] = comparable(
    JSON.stringify(failures(byDynamic.errors)),
    JSON.stringify(failures(byPlugin.errors)),
  );
  return [JSON.parse(a) as CheckFailure[], JSON.parse(b) as CheckFailure[]];
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "both-ways-"));
  welcomeFile = path.join(dir, "welcome.txt");
  fs.writeFileSync(welcomeFile, "Welcome to the Stockholm lab.\n");
  const emulators = await Promise.all([1, 2].map(() => startEmulator({ port: 0, recordRequests: true })));
  dynamic = {
    emulator: emulators[0],
    engine: await createEngine({
      cwd: repoRoot,
      project: PROJECT,
      stack: "dev",
      config: { "devicemgmt:baseUrl": emulators[0].baseUrl },
      secretConfig: { "devicemgmt:apiToken": emulators[0].tokens.admin },
    }),
  };
  plugin = {
    emulator: emulators[1],
    yaml: await yamlStack(path.join(dir, "yaml"), PROJECT, {
      baseUrl: emulators[1].baseUrl,
      apiToken: emulators[1].tokens.admin,
    }),
  };
});

afterAll(async () => {
  await dynamic?.engine.close();
  await dynamic?.emulator.close();
  await plugin?.emulator.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("one organization through the dynamic classes and through the plugin (YAML)", () => {
  const user = (properties: Record<string, unknown>): Declared =>
    ({
      name: "astrid",
      type: "User",
      properties: {
        firstName: "Astrid",
        lastName: "Berg",
        defaultRoleId: { lookup: "readOnlyRole" },
        ...properties,
      },
    }) as Declared;

  it.each([
    ["an invalid value", [user({ email: "astrid.berg-at-acme.example" })], "email"],
    [
      "a group that does not exist",
      [
        {
          name: "lab",
          type: "GroupReleaseChannel",
          properties: { groupId: MISSING, releaseChannelId: { lookup: "simulatorProduction" } },
        },
      ] as Declared[],
      "groupId",
    ],
  ])(
    "preview refuses %s with the same message both ways, writing nothing",
    async (_, declarations, property) => {
      resetRequests();
      const [byDynamic, byPlugin] = await previewFailures(declarations);
      expect(byDynamic.map((f) => f.property)).toEqual([property]);
      expect(byDynamic[0].reason).toMatch(new RegExp(`^${property}\\b`));
      expect(byPlugin).toEqual(byDynamic);
      expect([dynamic.emulator.stats().writes, plugin.emulator.stats().writes]).toEqual([0, 0]);
    },
  );

  it("preview refuses a missing required property both ways, naming it; the plugin's check as the classes'", async () => {
    // The one difference left, and not the plugin's: the YAML host checks a program against the schema's
    // required inputs before any provider call (as the generated SDKs do in their constructors, and tsc does for
    // the classes), in its own words. The plugin's check, given the same inputs, says what the classes' does.
    resetRequests();
    const declarations = [user({ email: "astrid.berg@acme.example", lastName: undefined })];
    plugin.yaml.writeProgram(yamlProgram(PROJECT, declarations));
    const [byDynamic, byPlugin] = await Promise.all([
      dynamic.engine.preview(dynamicProgram(declarations)),
      plugin.yaml.run("preview"),
    ]);
    const reason = "lastName: lastName is required and must be a string";
    expect(byDynamic.errors.flatMap((e) => e.failures ?? [])).toEqual([{ property: "lastName", reason }]);
    expect(byPlugin.code).not.toBe(0);
    expect(byPlugin.output).toContain("lastName: Missing required property 'lastName'");
    const connection = { baseUrl: plugin.emulator.baseUrl, apiToken: plugin.emulator.tokens.admin };
    const readOnly = await dm.getRole({ name: "Read Only", type: "organization" }, { connection });
    const configuration = new PluginConfiguration();
    configuration.configure(connection);
    const checked = await pluginProvider("0.0.0", configuration).check!(
      `urn:pulumi:dev::${PROJECT}::devicemgmt:index:User::astrid`,
      {},
      { firstName: "Astrid", email: "astrid.berg@acme.example", defaultRoleId: readOnly.id },
    );
    expect(checked.failures).toEqual([{ property: "lastName", reason }]);
    expect([dynamic.emulator.stats().writes, plugin.emulator.stats().writes]).toEqual([0, 0]);
  });

  it("up sends the same requests and makes the same organization", async () => {
    resetRequests();
    plugin.yaml.writeProgram(yamlProgram(PROJECT, organization()));
    const [byDynamic] = await Promise.all([
      dynamic.engine.up(dynamicProgram(organization())),
      plugin.yaml.ok("up", "--yes", "--skip-preview"),
    ]);
    expect(byDynamic.errors).toEqual([]);
    const sent = expectSameRequests();
    // The comparison is of something: every kind's write is among them.
    for (const route of [
      "POST /groups",
      "PATCH /groups/{groupId}/configure",
      "POST /groups/{groupId}/release-channels",
      "POST /users",
      "POST /tags",
      "POST /files",
      "POST /groups/{groupId}/files",
    ])
      expect(sent.some((line) => line.includes(` ${route} `))).toBe(true);

    const [a, b] = comparable(
      JSON.stringify(dynamic.emulator.snapshot()),
      JSON.stringify(plugin.emulator.snapshot()),
    );
    expect(JSON.parse(b)).toEqual(JSON.parse(a));
    const region = JSON.parse(b) as OrgSnapshot;
    expect(
      region.groups.map(
        (g) => `${g.parentId} > ${g.name} ${g.isConfigured} ${g.releaseChannelIds.length} ${g.fileIds}`,
      ),
    ).toContain("<group Nordics> > Stockholm Lab true 1 <file welcome.txt>");
    expect(region.users.find((u) => u.email === "astrid.berg@acme.example")?.groupRoles).toEqual([
      { roleId: expect.any(String), groupId: "<group Stockholm Lab>" },
    ]);

    // devicemgmt-export reads each organization back into the same program.
    const exported = await Promise.all(
      [dynamic, plugin].map(({ emulator }, i) =>
        runExport(
          ["--only", "groups,users,attachments,tags", "--no-content"],
          path.join(dir, `export-${i}`),
          "acme-org",
          {
            DEVICEMGMT_BASE_URL: emulator.baseUrl,
            DEVICEMGMT_API_TOKEN: emulator.tokens.admin,
          },
        ),
      ),
    );
    expect(exported.map((e) => e.code)).toEqual([0, 0]);
    expect(exported[1].files["index.ts"]).toEqual(exported[0].files["index.ts"]);
    expect(exported[0].files["index.ts"]).toContain("Stockholm Lab");
  });

  it("a second up and a refresh change nothing both ways, and read the same", async () => {
    resetRequests();
    const [again] = await Promise.all([
      dynamic.engine.up(dynamicProgram(organization()), { expectNoChanges: true }),
      plugin.yaml.ok("up", "--yes", "--skip-preview", "--expect-no-changes"),
    ]);
    const [refreshed] = await Promise.all([
      dynamic.engine.refresh({ expectNoChanges: true }),
      plugin.yaml.ok("refresh", "--yes", "--skip-preview", "--expect-no-changes"),
    ]);
    expect([again.errors, refreshed.errors]).toEqual([[], []]);
    expect([dynamic.emulator.stats().writes, plugin.emulator.stats().writes]).toEqual([0, 0]);
    expectSameRequests();
  });

  it("preview refuses a group under the configured lab with the same message both ways", async () => {
    const room: Declared = {
      name: "room",
      type: "Group",
      properties: { name: "Room", parentId: { ref: "stockholm" } },
    };
    const [byDynamic, byPlugin] = await previewFailures([...organization(), room]);
    expect(byDynamic).toEqual([
      {
        property: "parentId",
        reason: expect.stringContaining('group <group Stockholm Lab> ("Stockholm Lab") is configured'),
      },
    ]);
    expect(byPlugin).toEqual(byDynamic);
  });

  it("an up that renames and moves sends the same requests both ways, in place and replaced alike", async () => {
    resetRequests();
    plugin.yaml.writeProgram(yamlProgram(PROJECT, organization(2)));
    const [byDynamic, byPlugin] = await Promise.all([
      dynamic.engine.up(dynamicProgram(organization(2))),
      plugin.yaml.ok("up", "--yes", "--skip-preview"),
    ]);
    expect(byDynamic.errors).toEqual([]);
    const steps = (run: { steps: typeof byDynamic.steps }) =>
      Object.fromEntries(
        (["update", "replace"] as const).map((kind) => [
          kind,
          run.steps[kind].map((step) => step.name).sort(),
        ]),
      );
    expect(steps(byPlugin)).toEqual(steps(byDynamic));
    expect(steps(byDynamic)).toEqual({
      update: ["astrid", "lobbyTag", "nordics"],
      replace: ["stockholmSimulator"],
    });
    expect(byPlugin.steps.replace.map((step) => step.deleteBeforeReplace)).toEqual([true]);
    const sent = expectSameRequests();
    for (const route of ["PUT /groups/{groupId}", "PUT /tags/{tagId}", "PUT /users/{userId}"])
      expect(sent.some((line) => line.includes(` ${route} `))).toBe(true);
    const [a, b] = comparable(
      JSON.stringify(dynamic.emulator.snapshot()),
      JSON.stringify(plugin.emulator.snapshot()),
    );
    expect(JSON.parse(b)).toEqual(JSON.parse(a));
  });

  it("the drift report of each stack's export is the same", async () => {
    // The same changes in the portal of both organizations: a renamed lab, a deleted tag, a new folder.
    for (const { emulator } of [dynamic, plugin]) {
      const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
      const snapshot = emulator.snapshot();
      const lab = snapshot.groups.find((g) => g.name === "Stockholm Lab")!;
      await admin.groups.update(lab.id, { name: "Stockholm Lab (portal)", parentId: lab.parentId });
      await admin.tags.delete(snapshot.tags.find((t) => t.name === "stockholm-entrance")!.id);
      await admin.groups.create({ name: "Portal folder", parentId: null });
    }
    const pluginExport = path.join(dir, "plugin-stack.json");
    const dynamicExport = path.join(dir, "dynamic-stack.json");
    await plugin.yaml.ok("stack", "export", "--file", pluginExport);
    await dynamic.engine.saveState(dynamicExport);
    const reports = await Promise.all(
      [
        [dynamic.emulator, dynamicExport],
        [plugin.emulator, pluginExport],
      ].map(([emulator, file]) =>
        runDrift(
          dir,
          ["--kinds", "user,group,groupReleaseChannel,tag,file", "--format", "none", file as string],
          {
            DEVICEMGMT_BASE_URL: (emulator as RunningEmulator).baseUrl,
            DEVICEMGMT_API_TOKEN: (emulator as RunningEmulator).tokens.readOnly,
          },
        ),
      ),
    );
    const view = (run: (typeof reports)[number]) => ({
      code: run.code,
      resources: run.report.stacks.map((s) => s.resources),
      unknownResources: run.report.unknownResources,
      // Audit records as a set: steps the engine ran in parallel were recorded in either order.
      findings: run.report.findings.map((f) => ({
        ...f,
        audit: f.audit.map((a) => `${a.who} ${a.action}: ${a.what}`).sort(),
      })),
    });
    const [a, b] = comparable(JSON.stringify(view(reports[0])), JSON.stringify(view(reports[1])));
    expect(JSON.parse(b)).toEqual(JSON.parse(a));
    const findings = (JSON.parse(b) as ReturnType<typeof view>).findings.map(
      (f) => `${f.category} ${f.kind} ${f.label}`,
    );
    expect(findings).toEqual(
      expect.arrayContaining([
        'changed group "Nordic Region > Stockholm Lab (portal)" (configured)',
        'gone tag tag "stockholm-entrance"',
        'unmanaged group "Portal folder"',
      ]),
    );
    // Every resource of the plugin's stack was read from its export (`devicemgmt:index:<Type>`), none unknown.
    expect(view(reports[1]).resources).toEqual([organization().length]);
    expect(view(reports[1]).unknownResources).toEqual([]);
    expect(findings.filter((f) => f.includes("Nordic") || f.includes("astrid"))).toHaveLength(1);
  });

  it("destroy sends the same requests and leaves the same organization", async () => {
    resetRequests();
    await Promise.all([dynamic.engine.destroy(), plugin.yaml.ok("destroy", "--yes")]);
    expectSameRequests();
    const [a, b] = comparable(
      JSON.stringify(dynamic.emulator.snapshot()),
      JSON.stringify(plugin.emulator.snapshot()),
    );
    expect(JSON.parse(b)).toEqual(JSON.parse(a));
    expect(plugin.emulator.snapshot().groups.map((g) => g.name)).toEqual(["Portal folder"]);
  });
  it("a group under a configured group the run creates: the classes refuse it at preview, both at up alike", async () => {
    const declarations: Declared[] = [
      { name: "site", type: "Group", properties: { name: "Site", configured: true } },
      { name: "room", type: "Group", properties: { name: "Room", parentId: { ref: "site" } } },
    ];
    plugin.yaml.writeProgram(yamlProgram(PROJECT, declarations));
    const [previewedByDynamic, previewedByPlugin] = await Promise.all([
      dynamic.engine.preview(dynamicProgram(declarations)),
      plugin.yaml.run("preview"),
    ]);
    // The one difference left: only the program knows, at preview, that the new parent will be configured.
    expect(previewedByDynamic.errors.flatMap((e) => e.failures ?? [])).toEqual([
      { property: "parentId", reason: expect.stringContaining('the parent is Group "site" of this program') },
    ]);
    expect(previewedByPlugin.code).toBe(0);

    resetRequests();
    const [byDynamic, byPlugin] = await Promise.all([
      dynamic.engine.up(dynamicProgram(declarations)),
      plugin.yaml.run("up", "--yes", "--skip-preview"),
    ]);
    const failures = (errors: { failures?: CheckFailure[] }[]) =>
      JSON.stringify(errors.flatMap((e) => e.failures ?? []));
    const [a, b] = comparable(failures(byDynamic.errors), failures(byPlugin.errors));
    expect(JSON.parse(b)).toEqual(JSON.parse(a));
    expect(JSON.parse(a)).toEqual([
      { property: "parentId", reason: expect.stringContaining('group <group Site> ("Site") is configured') },
    ]);
    expectSameRequests();
    for (const { emulator } of [dynamic, plugin])
      expect(
        emulator
          .snapshot()
          .groups.map((g) => g.name)
          .sort(),
      ).toEqual(["Portal folder", "Site"]);
  });
});
