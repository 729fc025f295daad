// Staging from production when the staging organization already holds some of the objects: export production
// with --match-base-url reading the staging organization, then follow the generated README's staging commands
// literally (each `pulumi …` line becomes that operation of the real Pulumi CLI, on an inline program), and check that the stack adopted
// what existed, created the rest, changes nothing on a second `up`, and that `destroy` leaves what was there.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { spawnSync } from "child_process";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine, type RunResult } from "../engine";
import { generatedProgram, runExport, stackConfig, WITHOUT_DEVICE_KINDS } from "./support";

const repoRoot = path.resolve(__dirname, "../..");
const PROJECT = "acme-org";

let emulator: RunningEmulator;
let workDir: string;
let exportDir: string;
let stagingClient: DeviceMgmtClient;
const preExisting: { groups: Record<string, string>; morgan: string; theme: string } = {
  groups: {},
  morgan: "",
  theme: "",
};
const engines: Engine[] = [];

const exportOrg = (args: string[], out: string, env: Record<string, string> = {}) =>
  runExport(args.includes("--only") ? args : [...WITHOUT_DEVICE_KINDS, ...args], out, PROJECT, {
    DEVICEMGMT_BASE_URL: emulator.baseUrl,
    DEVICEMGMT_API_TOKEN: emulator.tokens.admin,
    ...env,
  });

/** Every resource the exported program declares, by name, sorted. */
const DECLARED = [
  "acme-brand-theme",
  "acme-training",
  "berlin-lab",
  "berlin-lab-safety-briefing-stable",
  "dana-manager",
  "emea",
  "emea-spare",
  "emea-spare-2",
  "emil-lindqvist",
  "morgan-multi",
  "rory-reader",
];

const read = (file: string) => fs.readFileSync(path.join(exportDir, file), "utf8");

const stagingConfig = (file: string) => stackConfig(path.join(exportDir, file));
const program = () => generatedProgram(exportDir);

/** The staging organization as names: group paths, users' e-mails, attachments by group path. */
function stagingShape() {
  const snapshot = emulator.snapshot(emulator.orgs.secondary.slug);
  const byId = new Map(snapshot.groups.map((g) => [g.id, g]));
  const pathOf = (id: string): string => {
    const g = byId.get(id)!;
    return g.parentId ? `${pathOf(g.parentId)} > ${g.name}` : g.name;
  };
  return {
    groups: Object.fromEntries(snapshot.groups.map((g) => [pathOf(g.id), g.id])),
    users: Object.fromEntries(snapshot.users.map((u) => [u.email, u.id])),
    groupChannels: snapshot.groupReleaseChannels.map((a) => pathOf(a.groupId)).sort(),
  };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "devicemgmt-staging-"));
  exportDir = path.join(workDir, "acme-org");

  // Production: a small tree with a configured site carrying a channel, and two people.
  const prod = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  const roles = await prod.roles.all();
  const role = (name: string) => roles.find((r) => r.name === name)!.id;
  const company = await prod.groups.create({ name: "Acme Training", parentId: null });
  const emea = await prod.groups.create({ name: "EMEA", parentId: company.id });
  const berlin = await prod.groups.configure(
    (await prod.groups.create({ name: "Berlin Lab", parentId: emea.id })).id,
  );
  // Production keeps two groups named "Spare" under EMEA (the export numbers them); staging already has one.
  await prod.groups.create({ name: "Spare", parentId: emea.id });
  await prod.groups.create({ name: "Spare", parentId: emea.id });
  const app = (await prod.apps.all()).find((a) => a.name === "Safety Briefing")!;
  const stable = (await prod.apps.releaseChannels(app.id).all()).find((c) => c.name === "Stable")!;
  await prod.groups.addReleaseChannel(berlin.id, stable.id);
  await prod.users.create({
    firstName: "Emil",
    lastName: "Lindqvist",
    email: "emil.lindqvist@acme.example",
    defaultRoleId: role("Read Only"),
    groupRoles: [{ roleId: role("Group Admin"), groupId: berlin.id }],
  });

  // Staging already holds Morgan Multi (seeded in both organizations) and part of the tree, plus a group of
  // its own that the program does not declare.
  stagingClient = new DeviceMgmtClient({
    baseUrl: emulator.baseUrl,
    apiToken: emulator.tokens.multiOrgAdminSecondary,
  });
  const stagingCompany = await stagingClient.groups.create({ name: "Acme Training", parentId: null });
  const stagingEmea = await stagingClient.groups.create({ name: "EMEA", parentId: stagingCompany.id });
  const own = await stagingClient.groups.create({ name: "Staging Only", parentId: stagingCompany.id });
  const stagingSpare = await stagingClient.groups.create({ name: "Spare", parentId: stagingEmea.id });
  preExisting.groups = {
    "Acme Training": stagingCompany.id,
    "Acme Training > EMEA": stagingEmea.id,
    "Acme Training > EMEA > Spare": stagingSpare.id,
    "Acme Training > Staging Only": own.id,
  };
  preExisting.morgan = stagingShape().users["morgan.multi@acme.example"];
  expect(preExisting.morgan).toBeDefined();
  preExisting.theme = (await stagingClient.themes.all()).find((t) => !t.isSystemOwned)!.id;
});

afterAll(async () => {
  for (const engine of engines) await engine.close();
  await emulator?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

describe("export with --match-base-url", () => {
  let output: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    output = await exportOrg(["--match-base-url", emulator.baseUrl], exportDir, {
      DEVICEMGMT_MATCH_API_TOKEN: emulator.tokens.multiOrgAdminSecondary,
    });
  });

  it("writes the staging stack's config with the ids of what staging already holds", () => {
    expect(output.stderr).not.toMatch(/error/i);
    expect(output.code).toBe(0);
    const config = stagingConfig("Pulumi.staging.yaml");
    expect(config[`${PROJECT}:retainAdopted`]).toBe("true");
    expect(config["devicemgmt:baseUrl"]).toBe(emulator.baseUrl);
    expect(JSON.parse(config[`${PROJECT}:adopt`])).toEqual({
      "acme-training": preExisting.groups["Acme Training"],
      emea: preExisting.groups["Acme Training > EMEA"],
      // Copy 1 of production's two "Spare" groups takes staging's one; copy 2 is created beside it.
      "emea-spare": preExisting.groups["Acme Training > EMEA > Spare"],
      "morgan-multi": preExisting.morgan,
      // The seeded custom theme: staging has one of the same name (the emulator seeds both organizations).
      "acme-brand-theme": preExisting.theme,
    });
    // The production stack's config adopts production's objects, attachments included.
    const production = JSON.parse(stagingConfig("Pulumi.production.yaml")[`${PROJECT}:adopt`]);
    expect(Object.keys(production).sort()).toEqual(DECLARED);
    expect(production["berlin-lab-safety-briefing-stable"]).toMatch(/^[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
  });

  it("says what happens to each object, on stdout and in the README", () => {
    expect(output.stdout).toMatch(
      /Staging stack "staging" .* in acme-staging: 5 objects already there are adopted/,
    );
    expect(output.stdout).toContain(
      `adopt User morgan-multi (morgan.multi@acme.example) = ${preExisting.morgan}`,
    );
    expect(output.stdout).toContain("staging token's own user");
    const readme = read("README.md");
    const adopted = readme.split("### Adopted")[1].split("### Created")[0];
    const created = readme.split("### Created")[1].split("##")[0];
    expect(adopted).toContain("`acme-training` (Group) Acme Training");
    expect(adopted).toContain("`emea` (Group) Acme Training > EMEA");
    expect(adopted).toContain("`emea-spare` (Group) Acme Training > EMEA > Spare");
    expect(created).toContain("`emea-spare-2` (Group) Acme Training > EMEA > Spare");
    expect(adopted).toContain("`morgan-multi` (User) morgan.multi@acme.example");
    expect(adopted).toContain('`acme-brand-theme` (Theme) theme "Acme Brand"');
    expect(created).toContain("`berlin-lab` (Group) Acme Training > EMEA > Berlin Lab");
    expect(created).toContain("`emil-lindqvist` (User)");
    expect(created).toContain("`berlin-lab-safety-briefing-stable` (GroupReleaseChannel)");
  });

  it("refuses to write into a non-empty folder without --force", async () => {
    const again = await exportOrg([], exportDir);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/is not empty .*--force/);
    // Refused before the organization is read: nothing but the refusal on stderr.
    expect(again.stderr).not.toMatch(/read \d+\/\d+/);
    const forced = await exportOrg(["--force", "--match-base-url", emulator.baseUrl], exportDir, {
      DEVICEMGMT_MATCH_API_TOKEN: emulator.tokens.multiOrgAdminSecondary,
    });
    expect(forced.code).toBe(0);
  });
});

describe("the README's staging commands, run literally", () => {
  it("adopts what exists, creates the rest, changes nothing again, and destroy leaves what was there", async () => {
    const readme = read("README.md");
    const section = readme.split(/^## Staging/m)[1];
    const commands = section
      .split("```sh\n")[1]
      .split("```")[0]
      .split("\n")
      .map((line) => line.replace(/#.*$/, "").trim())
      .filter(Boolean);
    expect(commands).toEqual([
      "pulumi stack init staging",
      "pulumi config set --secret devicemgmt:apiToken <token of acme-staging>",
      "pulumi preview",
      "pulumi up",
      "pulumi destroy",
    ]);

    let engine: Engine | undefined;
    const results: Record<string, RunResult[]> = { preview: [], up: [], destroy: [] };
    const secretConfig: Record<string, string> = {};
    const run = async (command: string) => {
      const words = command.split(/\s+/);
      if (words[1] === "stack" && words[2] === "init") {
        expect(fs.existsSync(path.join(exportDir, `Pulumi.${words[3]}.yaml`))).toBe(true);
        return;
      }
      if (words[1] === "config" && words[2] === "set" && words[3] === "--secret") {
        secretConfig[words[4]] = emulator.tokens.multiOrgAdminSecondary;
        return;
      }
      if (!engine) {
        engine = await createEngine({
          cwd: repoRoot,
          project: PROJECT,
          stack: "staging",
          config: stagingConfig("Pulumi.staging.yaml"),
          secretConfig,
        });
        engines.push(engine);
      }
      if (words[1] === "preview") results.preview.push(await engine.preview(program()));
      else if (words[1] === "up") results.up.push(await engine.up(program()));
      else if (words[1] === "destroy") results.destroy.push(await engine.destroy());
      else throw new Error(`the README asks for a command this test does not know: ${command}`);
    };

    for (const command of commands.slice(0, 4)) await run(command);
    const [preview] = results.preview;
    expect(preview.errors).toEqual([]);
    const [up] = results.up;
    expect(up.errors).toEqual([]);
    expect(up.steps.create.map((s) => s.name).sort()).toEqual(DECLARED);
    // Adopted: the same objects as before, not new ones; created: the rest of the tree under them.
    const afterUp = stagingShape();
    expect(afterUp.groups["Acme Training"]).toBe(preExisting.groups["Acme Training"]);
    expect(afterUp.groups["Acme Training > EMEA"]).toBe(preExisting.groups["Acme Training > EMEA"]);
    expect(afterUp.groups["Acme Training > EMEA > Berlin Lab"]).toBeDefined();
    const spares = (await stagingClient.groups.all()).filter((g) => g.name === "Spare");
    expect(spares.map((g) => g.id)).toHaveLength(2);
    expect(spares.map((g) => g.id)).toContain(preExisting.groups["Acme Training > EMEA > Spare"]);
    expect(afterUp.groups["Acme Training > Staging Only"]).toBe(
      preExisting.groups["Acme Training > Staging Only"],
    );
    expect(afterUp.users["morgan.multi@acme.example"]).toBe(preExisting.morgan);
    expect(afterUp.users["emil.lindqvist@acme.example"]).toBeDefined();
    expect(afterUp.groupChannels).toEqual(["Acme Training > EMEA > Berlin Lab"]);
    const emil = (await stagingClient.users.all()).find((u) => u.email === "emil.lindqvist@acme.example")!;
    expect(emil.accessControls.map((ac) => `${ac.role.name}@${ac.protectable.type}`).sort()).toEqual([
      "Group Admin@group",
      "Read Only@organization",
    ]);
    for (const name of ["acme-training", "emea", "emea-spare", "morgan-multi", "acme-brand-theme"]) {
      expect(engine!.resource(name).retainOnDelete).toBe(true);
    }
    expect(engine!.resource("berlin-lab").retainOnDelete ?? false).toBe(false);

    // A second `up`: nothing to do.
    await run("pulumi up");
    const again = results.up[1];
    expect(again.errors).toEqual([]);
    expect(again.steps.same).toHaveLength(DECLARED.length);
    for (const kind of ["create", "update", "replace", "delete"] as const)
      expect(again.steps[kind]).toEqual([]);

    await run(commands[4]);
    const [destroyed] = results.destroy;
    expect(destroyed.errors).toEqual([]);
    const afterDestroy = stagingShape();
    expect(afterDestroy.groups).toEqual(preExisting.groups);
    expect(afterDestroy.users["morgan.multi@acme.example"]).toBe(preExisting.morgan);
    expect(afterDestroy.users["emil.lindqvist@acme.example"]).toBeUndefined();
    expect(afterDestroy.groupChannels).toEqual([]);
    // The adopted theme is left in place.
    expect((await stagingClient.themes.get(preExisting.theme)).name).toBe("Acme Brand");
  });

  it("without the staging config, up stops at the first object that exists instead of taking it over", async () => {
    // The failure the staging config prevents: a plain staging stack, as before --match-base-url.
    const snapshotBefore = stagingShape();
    const engine = await createEngine({
      cwd: repoRoot,
      project: PROJECT,
      stack: "plain",
      config: { "devicemgmt:baseUrl": emulator.baseUrl },
      secretConfig: { "devicemgmt:apiToken": emulator.tokens.multiOrgAdminSecondary },
    });
    engines.push(engine);
    const up = await engine.up(program());
    expect(up.ok).toBe(false);
    expect(up.errors.map((e) => e.message).join("\n")).toMatch(/already exists|set adoptId/);
    await engine.destroy();
    expect(stagingShape().users).toEqual(snapshotBefore.users);
    expect(stagingShape().groups).toEqual(snapshotBefore.groups);
  });
});

describe("exported inside the repository", () => {
  it("is formatted as the repository's prettier wants, and installs the checkout by a file: path", async () => {
    const inside = fs.mkdtempSync(path.join(repoRoot, ".export-check-"));
    try {
      const out = path.join(inside, "acme-org");
      const result = await exportOrg(["--match-base-url", emulator.baseUrl], out, {
        DEVICEMGMT_MATCH_API_TOKEN: emulator.tokens.multiOrgAdminSecondary,
      });
      expect(result.code).toBe(0);
      const pkg = JSON.parse(fs.readFileSync(path.join(out, "package.json"), "utf8"));
      expect(pkg.dependencies["pulumi-devicemgmt"]).toBe("file:../..");
      // The repository's own prettier, with its config and ignore file, as `npm run lint` runs it.
      const check = spawnSync(
        process.execPath,
        [
          path.join(repoRoot, "node_modules/prettier/bin/prettier.cjs"),
          "--check",
          path.relative(repoRoot, out),
        ],
        { cwd: repoRoot, encoding: "utf8" },
      );
      expect(check.stderr + check.stdout).toContain("All matched files use Prettier code style!");
      expect(check.status).toBe(0);
    } finally {
      fs.rmSync(inside, { recursive: true, force: true });
    }
  });
});
