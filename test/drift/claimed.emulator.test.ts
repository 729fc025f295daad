// Issue 32, item 2 (drift side): the API records no owner of an object, so two stacks that both declare one (the
// second adopted it) each make it theirs on `up`, and a `destroy` of either deletes it from under the other. The
// report names such objects from the real stack exports, whether the two resources are in two stacks or in one.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine } from "../engine";
import * as dm from "../../provider";
import { DeviceMgmtClient } from "../../provider/client";
import { EXIT } from "../../provider/drift/cli";
import { brief, runDrift } from "./support";

const repoRoot = path.resolve(__dirname, "../..");

let emulator: RunningEmulator;
let workDir: string;
const engines: Engine[] = [];

async function exportOf(project: string, program: () => void): Promise<string> {
  const engine = await createEngine({
    cwd: repoRoot,
    project,
    stack: "production",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.multiOrgAdmin },
  });
  engines.push(engine);
  expect((await engine.up(program)).errors).toEqual([]);
  const file = path.join(workDir, `${project}.json`);
  await engine.saveState(file);
  return file;
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-claimed-"));
});

afterAll(async () => {
  for (const engine of engines) await engine.close();
  await emulator?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

it("names an object two stacks declare, and one two resources of a stack declare", async () => {
  const core = await exportOf("acme-core", () => {
    new dm.Group("lab", { name: "Shared Lab", configured: true });
    new dm.Group("own", { name: "Core Only" });
  });
  const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  const lab = (await admin.groups.all()).find((g) => g.name === "Shared Lab")!.id;
  // A second stack adopts the same group: one resource of another stack.
  const sites = await exportOf("acme-sites", () => {
    new dm.Group("site-lab", { name: "Shared Lab", configured: true, adoptId: lab });
    new dm.Group("site-own", { name: "Sites Only" });
  });
  // Two resources of one stack for one group: the provider now refuses the second at preview (claims.ts), but
  // state written by 0.1.0, which let both adopt it, still has them. That state is this real export with the
  // resource recorded a second time under another name.
  const exported = JSON.parse(fs.readFileSync(sites, "utf8")) as {
    deployment: { resources: { urn: string; type: string }[] };
  };
  const siteLab = exported.deployment.resources.find((r) => r.urn.endsWith("::site-lab"))!;
  exported.deployment.resources.push({ ...siteLab, urn: `${siteLab.urn}-again` });
  fs.writeFileSync(sites, JSON.stringify(exported));
  const env = { DEVICEMGMT_BASE_URL: emulator.baseUrl, DEVICEMGMT_API_TOKEN: emulator.tokens.readOnly };

  const both = await runDrift(workDir, ["--kinds", "group", core, sites], env);
  expect(both.report.findings.map((f) => [brief(f), f.managedBy])).toEqual([
    [
      'claimed group "Shared Lab" (configured)',
      [
        "acme-core/production: lab",
        "acme-sites/production: site-lab",
        "acme-sites/production: site-lab-again",
      ],
    ],
  ]);
  expect(both.code).toBe(EXIT.found);
  expect(both.markdown).toContain("### Declared by more than one resource (1)");
  expect(both.markdown).toContain("**1 declared more than once**");

  // One stack alone still has two resources for the group; the same export twice is one claim each.
  const alone = await runDrift(workDir, ["--kinds", "group", sites, sites], env);
  expect(alone.report.findings.filter((f) => f.category === "claimed").map((f) => f.managedBy)).toEqual([
    ["acme-sites/production: site-lab", "acme-sites/production: site-lab-again"],
  ]);
  const once = await runDrift(workDir, ["--kinds", "group", core, core], env);
  expect(once.report.findings.filter((f) => f.category === "claimed")).toEqual([]);
});
