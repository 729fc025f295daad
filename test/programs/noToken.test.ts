// The README's Quick start with `devicemgmt:apiToken` left out, through the Pulumi CLI: the program stops at its
// first lookup with the documented "No API token" error, and nothing reaches the organization. The lookups and
// resources throw at the call (provider/connectionAtCall.ts) because a Node.js language host (~3.260, built from the
// engine's source) was seen to wait 10 minutes without a word on a rejection inside an `apply`. That host cannot
// run here (not installed; the Go module proxy answers 403 for it; this CLI build has none), so this runs the
// program inline (the Automation API is its host) and test/framework/connectionAtCall.pure.test.ts asserts the
// synchronous throw itself for every lookup and kind; that a throw is reported by every host is the premise.
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine, type RunResult } from "../engine";
import * as dm from "../../provider";

const repoRoot = path.resolve(__dirname, "../..");

/**
 * The README's Quick start program itself (its first TypeScript snippet), compiled to CommonJS and run with
 * `pulumi-devicemgmt` as this checkout's package.
 */
function quickStart(): void {
  const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## Quick start\n"));
  const snippet = /^```ts\n([\s\S]*?)^```$/m.exec(section)![1];
  const { outputText } = ts.transpileModule(snippet, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const load = (name: string): unknown => {
    if (name !== "pulumi-devicemgmt") throw new Error(`the Quick start imports ${name}`);
    return dm;
  };
  // Running the README's Quick start as a program would is the point of this test.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function("require", "exports", outputText)(load, {});
}

let emulator: RunningEmulator;
let engine: Engine;
const saved = process.env.DEVICEMGMT_API_TOKEN;

beforeAll(async () => {
  // The inline program runs in this process: no token may come from its environment either.
  delete process.env.DEVICEMGMT_API_TOKEN;
  emulator = await startEmulator({ port: 0 });
  engine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-no-token",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
  });
});
afterAll(async () => {
  if (saved !== undefined) process.env.DEVICEMGMT_API_TOKEN = saved;
  await engine?.close();
  await emulator?.close();
});

function expectRefusedBeforeAnything(result: RunResult): void {
  expect(result.ok).toBe(false);
  const programErrors = result.errors.filter((error) => error.op === "program");
  expect(programErrors.map((error) => error.message).join("\n")).toMatch(
    /No API token for devicemgmt.*devicemgmt:apiToken.*DEVICEMGMT_API_TOKEN.*connection: \{ apiToken \}/s,
  );
  expect(result.steps.create).toEqual([]);
  // Nothing was asked of the organization: the first lookup stopped the program before any request.
  expect(emulator.stats().requests).toBe(0);
}

it("preview and up of the Quick start without a token stop at once with the documented error", async () => {
  emulator.resetStats();
  expectRefusedBeforeAnything(await engine.preview(quickStart));
  expectRefusedBeforeAnything(await engine.up(quickStart));
  expect(engine.resources().filter((r) => r.type.includes("devicemgmt"))).toEqual([]);
});

it("a program of resources only (no lookup) is refused at the plugin's check, before any request", async () => {
  // A resource's calls run in the plugin, whose environment (the CLI's: a workspace's envVars, a CI job's) may hold
  // the token where the program's does not, so the constructor does not refuse: the engine's check does.
  emulator.resetStats();
  const result = await engine.up(() => {
    new dm.Group("emea", { name: "EMEA" });
  });
  expect(result.ok).toBe(false);
  expect(result.errors.map((error) => error.message).join("\n")).toMatch(
    /No API token for devicemgmt.*devicemgmt:apiToken.*DEVICEMGMT_API_TOKEN/s,
  );
  expect(result.steps.create).toEqual([]);
  expect(emulator.stats().requests).toBe(0);
  expect(engine.resources().filter((r) => r.type.includes("devicemgmt"))).toEqual([]);
});
