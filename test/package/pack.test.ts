// The package as a user gets it: `npm pack`, installed from the tarball into a fresh folder beside
// @pulumi/pulumi, type-checked with the tsconfig `pulumi new typescript` writes (strict, no skipLibCheck), and
// run by the real Pulumi CLI against the emulator. Nothing here resolves from this repository's node_modules
// except the compiler, the emulator and the CLI lookup (tools/pulumi-cli).
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { offlineEnvironment, readyPulumiCli } from "../../tools/pulumi-cli";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const rootPackage = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8"));
const installedVersion = (name: string): string => lock.packages[`node_modules/${name}`].version;
const TSC = require.resolve("typescript/bin/tsc");

/** What `pulumi new typescript` writes as tsconfig.json. */
const PULUMI_NEW_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

/** Every resource and every lookup, in both forms; the API client beside them; the runtime entry's types. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as dm from "pulumi-devicemgmt";
import { DeviceMgmtClient, NotFoundError, type Group, type Role, type TokenInfo } from "pulumi-devicemgmt/client";
import type { handler } from "pulumi-devicemgmt/runtime";

/** The CRUD methods the plugin calls through the runtime entry point. */
const handlerMethods: Array<keyof ReturnType<typeof handler>> = ["check", "diff", "create", "read", "update", "delete"];

export = async () => {
  const org = dm.getCurrentOrganizationOutput();
  const me = await dm.getCurrentUser();
  const meAgain = dm.getCurrentUserOutput();
  const token = await dm.getTokenInfo();
  const tokenAgain = dm.getTokenInfoOutput();
  const orgAgain = await dm.getCurrentOrganization();
  const admin = dm.getRoleOutput({ name: "Admin", type: "organization" });
  const groupAdmin = await dm.getRole({ name: "Group Admin", type: "group" });
  const production = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Production" });
  const beta = await dm.getReleaseChannel({ appName: "Training Simulator", channelName: "Beta" });
  const headset = dm.getDeviceOutput({ name: "Headset 01" });
  const spare = await dm.getDevice({ name: "Headset 02" });
  // The migrated device leaves the organization, so a lookup by name would fail on the next run: its id is config.
  const loanerId = new pulumi.Config("packed").require("loanerDeviceId");

  const folder = new dm.Group("folder", { name: "Packed EMEA" });
  const site = new dm.Group("site", { name: "Packed Berlin", parentId: folder.id, configured: true });
  const byName = dm.getGroupOutput({ name: site.name, parentId: site.parentId });
  const byId = site.id.apply((id) => dm.getGroup({ id }));
  new dm.GroupReleaseChannel("site-production", { groupId: site.id, releaseChannelId: production.id });
  new dm.DeviceReleaseChannel("headset-beta", { deviceId: headset.id, releaseChannelId: beta.id });
  const user = new dm.User("packed-user", {
    firstName: "Pat",
    lastName: "Packed",
    email: "pat.packed@acme.example",
    defaultRoleId: admin.id,
    groupRoles: [{ roleId: groupAdmin.id, groupId: site.id }],
  });
  const migration = new dm.DeviceMigration("loaner", { deviceId: loanerId, organizationSlug: "acme-staging" });

  // The typed client, with the stack's own connection.
  const devicemgmt = new pulumi.Config("devicemgmt");
  const viaClient = devicemgmt.requireSecret("apiToken").apply(async (apiToken) => {
    const client = new DeviceMgmtClient({ baseUrl: devicemgmt.require("baseUrl"), apiToken });
    const info: TokenInfo = await client.tokenInfo();
    const roles: Role[] = await client.roles.all();
    const missing = await client.groups.get("00000000-0000-4000-8000-000000000000").then(
      (group: Group) => group.name,
      (error: unknown) => (error instanceof NotFoundError ? "not found" : String(error)),
    );
    return { sameOrg: info.organization_id === token.organizationId, roles: roles.length > 0, missing };
  });

  const configured: pulumi.Output<boolean> = byName.configured;
  return {
    orgSlug: org.slug,
    sameOrg: orgAgain.id === token.organizationId,
    me: me.email,
    spare: spare.serialNumber.length > 0,
    meAgain: meAgain.email,
    apiVersion: tokenAgain.apiVersion,
    siteName: byId.name,
    siteConfigured: configured,
    userRoles: user.groupRoles.apply((roles) => roles.length),
    migratedTo: migration.organizationSlug,
    client: pulumi.unsecret(viaClient),
    handlerMethods: handlerMethods.length,
  };
};
`;

/** A misspelt lookup key and a misspelt resource argument: both must be compile errors. */
const MISSPELT_LOOKUP = `import * as dm from "pulumi-devicemgmt";
export const group = dm.getGroupOutput({ parentID: "x" });
`;
const MISSPELT_RESOURCE = `import * as dm from "pulumi-devicemgmt";
export const group = new dm.Group("g", { name: "x", parentID: "y" });
`;

/**
 * Runs in the program's folder with the program's own @pulumi/pulumi (the one its resources register with): the
 * real Pulumi CLI through the Automation API, the program inline (the CLI here has no Node.js language host), the
 * plugin started in the program's folder so it resolves pulumi-devicemgmt from the installed tarball.
 */
const RUNNER = `const { LocalWorkspace, PulumiCommand } = require("@pulumi/pulumi/automation");
const program = require("./bin/index.js");
(async () => {
  const { baseUrl, token, loanerDeviceId, cliRoot, env, workDir } = JSON.parse(process.env.PACK_TEST_EMULATOR);
  const pulumiCommand = await PulumiCommand.get({ root: cliRoot });
  const stack = await LocalWorkspace.createOrSelectStack(
    { projectName: "packed", stackName: "test", program },
    { pulumiCommand, envVars: env, workDir, projectSettings: { name: "packed", runtime: "nodejs", main: __dirname } },
  );
  await stack.setAllConfig({
    "devicemgmt:baseUrl": { value: baseUrl },
    "devicemgmt:apiToken": { value: token, secret: true },
    "packed:loanerDeviceId": { value: loanerDeviceId },
  });
  // The names of the program's resources per step kind, from the engine's events (the stack and provider left out).
  const run = async (operation) => {
    const steps = {};
    const onEvent = (event) => {
      const done = event.resOutputsEvent;
      if (!done || done.metadata.type === "pulumi:pulumi:Stack" || done.metadata.type.startsWith("pulumi:providers:")) return;
      (steps[done.metadata.op] ??= []).push(done.metadata.urn.split("::").pop());
      steps[done.metadata.op].sort();
    };
    const result = await operation({ onEvent, onOutput: () => undefined });
    const outputs = Object.fromEntries(Object.entries(result.outputs ?? {}).map(([k, v]) => [k, v.value]));
    return { ok: true, errors: [], steps, outputs };
  };
  const up = await run((options) => stack.up(options));
  const again = await run((options) => stack.up(options));
  const types = (await stack.exportStack()).deployment.resources.map((r) => r.type).sort();
  const destroy = await run((options) => stack.destroy(options));
  console.log(JSON.stringify({ up, again, types, destroy }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

/** The environment of a nested npm without this repository's npm_* variables (prefix, config, lifecycle). */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
}

let work: string;
let program: string;
let tarball: string;
let packedFiles: string[];
let compile: { index: string; misspelt: string };
/** What `npm install` of the tarball printed on stderr (warnings included). */
let installWarnings: string;

beforeAll(async () => {
  if (!fs.existsSync(path.join(ROOT, "dist/provider/index.d.ts"))) {
    throw new Error("dist/ is missing: run `npm run build` first (npm test does)");
  }
  work = fs.mkdtempSync(path.join(os.tmpdir(), "devicemgmt-pack-"));
  // The build ran already (npm test builds first); --ignore-scripts keeps `prepack` from building again.
  const packed = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
    cwd: ROOT,
    env: cleanEnv(),
  });
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(work, info.filename);
  packedFiles = info.files.map((f) => f.path).sort();

  program = path.join(work, "program");
  fs.mkdirSync(program);
  fs.writeFileSync(
    path.join(program, "package.json"),
    JSON.stringify(
      {
        name: "packed-program",
        private: true,
        main: "index.ts",
        dependencies: {
          "@pulumi/pulumi": `^${installedVersion("@pulumi/pulumi")}`,
          "pulumi-devicemgmt": `file:${tarball}`,
        },
        devDependencies: { "@types/node": installedVersion("@types/node") },
      },
      null,
      2,
    ),
  );
  const installed = await run(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=warn"],
    {
      cwd: program,
      env: cleanEnv(),
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  installWarnings = installed.stderr;

  fs.writeFileSync(path.join(program, "tsconfig.json"), JSON.stringify(PULUMI_NEW_TSCONFIG, null, 2));
  fs.writeFileSync(
    path.join(program, "tsconfig.misspelt.json"),
    JSON.stringify(
      { ...PULUMI_NEW_TSCONFIG, files: ["misspelt-lookup.ts", "misspelt-resource.ts"] },
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(program, "index.ts"), PROGRAM);
  fs.writeFileSync(path.join(program, "misspelt-lookup.ts"), MISSPELT_LOOKUP);
  fs.writeFileSync(path.join(program, "misspelt-resource.ts"), MISSPELT_RESOURCE);
  const tsc = (project: string, noEmit: boolean) =>
    run(process.execPath, [TSC, "-p", project, "--pretty", "false", ...(noEmit ? ["--noEmit"] : [])], {
      cwd: program,
    }).then(
      (r) => r.stdout + r.stderr,
      (e: { stdout: string; stderr: string }) => e.stdout + e.stderr,
    );
  const [index, misspelt] = await Promise.all([
    tsc("tsconfig.json", false),
    tsc("tsconfig.misspelt.json", true),
  ]);
  compile = { index, misspelt };
}, 300_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("holds the compiled provider, its declarations and the documents, and nothing else", () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "LICENSE",
        "CHANGELOG.md",
        "dist/provider/index.js",
        "dist/provider/index.d.ts",
        "dist/provider/runtime.js",
        "dist/provider/client/index.js",
        "dist/provider/export/cli.js",
      ]),
    );
    const unexpected = packedFiles.filter(
      (f) =>
        !/^dist\/provider\/.*\.(js|d\.ts)$/.test(f) &&
        !["package.json", "README.md", "LICENSE", "CHANGELOG.md"].includes(f),
    );
    expect(unexpected).toEqual([]);
    expect(
      packedFiles.filter(
        (f) => /\.map$|\.test\.|(^|\/)test\/|emulator|\.ts$/.test(f) && !f.endsWith(".d.ts"),
      ),
    ).toEqual([]);
  });

  it("declares a publishable package whose README links resolve on the registry page", () => {
    expect(rootPackage.private).toBeUndefined();
    expect(rootPackage.license).toBe("Apache-2.0");
    expect(rootPackage.engines.node).toBe(">=22");
    expect(rootPackage.peerDependencies["@pulumi/pulumi"]).toMatch(/^\^3\./);
    expect(rootPackage.dependencies["@pulumi/pulumi"]).toBeUndefined();
    expect(rootPackage.dependencies.fastify).toBeUndefined();
    expect(rootPackage.keywords).toEqual(expect.arrayContaining(["pulumi", "pulumi-provider"]));
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const relative = [...readme.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)]
      .map((m) => m[1])
      .filter((href) => !/^[a-z]+:/.test(href));
    expect(relative).toEqual([]);
  });

  it("ships built and runs nothing on install: no install script, no install-scripts warning naming it", () => {
    // npm 11 warns about every dependency with an install script (prepare included) that the program has not
    // approved; the package is built before it is packed (prepack), so it has none to approve.
    expect(installWarnings.split("\n").filter((line) => line.includes("pulumi-devicemgmt"))).toEqual([]);
    const installed = JSON.parse(
      fs.readFileSync(path.join(program, "node_modules/pulumi-devicemgmt/package.json"), "utf8"),
    ) as { scripts?: Record<string, string> };
    const onInstall = ["preinstall", "install", "postinstall", "prepare"].filter(
      (script) => installed.scripts?.[script] !== undefined,
    );
    expect(onInstall).toEqual([]);
    expect(installed.scripts?.prepack).toBe("npm run build");
    expect(fs.existsSync(path.join(program, "node_modules/pulumi-devicemgmt/dist/provider/index.js"))).toBe(
      true,
    );
  });

  it("installs beside the program's SDK without a second SDK copy and without the emulator's server", () => {
    const copies: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (!entry.isDirectory()) continue;
        const full = path.join(dir, entry.name);
        if (
          entry.name === "pulumi" &&
          path.basename(dir) === "@pulumi" &&
          fs.existsSync(path.join(full, "package.json"))
        )
          copies.push(path.relative(program, full));
        walk(full);
      }
    };
    walk(path.join(program, "node_modules"));
    expect(copies).toEqual(["node_modules/@pulumi/pulumi"]);
    expect(fs.existsSync(path.join(program, "node_modules/fastify"))).toBe(false);
    expect(fs.existsSync(path.join(program, "node_modules/pulumi-devicemgmt/node_modules/@pulumi"))).toBe(
      false,
    );
  });

  it("type-checks a program using every resource, lookup, the client and the runtime types with the pulumi new tsconfig (strict, no skipLibCheck)", () => {
    expect(compile.index.trim()).toBe("");
  });

  it("publishes one rolled-up declaration file per export, naming no internal library (zod, undici)", () => {
    const installed = path.join(program, "node_modules/pulumi-devicemgmt");
    const declarationFiles = packedFiles.filter((f) => f.endsWith(".d.ts"));
    // Every export's types entry, and nothing else: no per-module .d.ts that could import an internal library.
    const exportTypes = Object.values(rootPackage.exports as Record<string, string | { types?: string }>)
      .map((target) => (typeof target === "object" ? target.types : undefined))
      .filter((types): types is string => types !== undefined)
      .map((types) => path.posix.normalize(types))
      .sort();
    expect(exportTypes).toEqual([
      "dist/provider/client/index.d.ts",
      "dist/provider/index.d.ts",
      "dist/provider/runtime.d.ts",
    ]);
    expect(declarationFiles).toEqual(exportTypes);
    for (const file of declarationFiles) {
      const text = fs.readFileSync(path.join(installed, file), "utf8");
      expect({ file, internal: text.match(/zod|undici/g) ?? [] }).toEqual({ file, internal: [] });
      const imported = [...text.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
      expect({ file, imported: imported.filter((m) => m !== "@pulumi/pulumi") }).toEqual({
        file,
        imported: [],
      });
    }
  });

  it("refuses to compile a misspelt lookup key or resource argument", () => {
    const errors = compile.misspelt.split("\n").filter((line) => /error TS\d+/.test(line));
    expect(errors.some((e) => e.startsWith("misspelt-lookup.ts") && e.includes("parentID"))).toBe(true);
    expect(errors.some((e) => e.startsWith("misspelt-resource.ts") && e.includes("parentID"))).toBe(true);
    expect(errors.filter((e) => !e.startsWith("misspelt-"))).toEqual([]);
  });

  describe("through the Pulumi CLI", () => {
    let emulator: RunningEmulator;

    beforeAll(async () => {
      emulator = await startEmulator({ port: 0 });
    });
    afterAll(async () => {
      await emulator?.close();
    });

    it("runs the program: up creates everything, a second up changes nothing, destroy removes it", async () => {
      fs.writeFileSync(path.join(program, "run.js"), RUNNER);
      const workDir = path.join(work, "stack");
      fs.mkdirSync(workDir);
      const { stdout } = await run(process.execPath, ["run.js"], {
        cwd: program,
        env: {
          ...process.env,
          PACK_TEST_EMULATOR: JSON.stringify({
            baseUrl: emulator.baseUrl,
            token: emulator.tokens.multiOrgAdmin,
            loanerDeviceId: emulator.snapshot().devices.find((d) => d.name === "Headset 08")!.id,
            cliRoot: readyPulumiCli().root,
            env: offlineEnvironment(workDir, "packed"),
            workDir,
          }),
        },
        maxBuffer: 16 * 1024 * 1024,
      });
      const result = JSON.parse(stdout.trim().split("\n").pop()!);
      expect(result.up.errors).toEqual([]);
      expect(result.up.steps.create).toEqual([
        "folder",
        "headset-beta",
        "loaner",
        "packed-user",
        "site",
        "site-production",
      ]);
      expect(result.up.outputs).toMatchObject({
        orgSlug: "acme",
        sameOrg: true,
        spare: true,
        apiVersion: "v3",
        siteName: "Packed Berlin",
        siteConfigured: true,
        userRoles: 1,
        migratedTo: "acme-staging",
        client: { sameOrg: true, roles: true, missing: "not found" },
        handlerMethods: 6,
      });
      expect(result.again.errors).toEqual([]);
      expect(result.again.steps.create ?? []).toEqual([]);
      expect(result.again.steps.update ?? []).toEqual([]);
      expect(result.again.steps.replace ?? []).toEqual([]);
      expect(result.types).toEqual(
        expect.arrayContaining([
          "pulumi-nodejs:dynamic/devicemgmt:Group",
          "pulumi-nodejs:dynamic/devicemgmt:User",
          "pulumi-nodejs:dynamic/devicemgmt:GroupReleaseChannel",
          "pulumi-nodejs:dynamic/devicemgmt:DeviceReleaseChannel",
          "pulumi-nodejs:dynamic/devicemgmt:DeviceMigration",
        ]),
      );
      expect(result.destroy.errors).toEqual([]);
      expect(emulator.snapshot().groups.filter((g) => g.name.startsWith("Packed"))).toEqual([]);
    }, 180_000);
  });
});
