// What the program tests of one organization share: an emulator, an admin client on it, and an engine (the real
// Pulumi CLI, test/engine) configured with its URL and admin token, started before the tests of the calling scope
// and closed after them, with a folder of their own for sources.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine, type Program, type RunResult } from "../engine";
import { runDrift, type DriftRun } from "../drift/support";

export const repoRoot = path.resolve(__dirname, "../..");

export interface ProgramStack {
  emulator: RunningEmulator;
  /** A client with the organization's admin token, to read (and change, as the portal would) the organization. */
  admin: DeviceMgmtClient;
  engine: Engine;
  /** A fresh folder, removed afterwards: where the tests write their sources. */
  dir: string;
}

export interface ProgramStackOptions {
  /** The Pulumi project name; distinct per stack, so that stacks in the file backend do not meet. */
  project: string;
  /** Emulator options beside `port` (always 0: a free port). */
  emulator?: Omit<EmulatorOptions, "port">;
}

/** Registers beforeAll/afterAll in the calling scope; the returned object is filled before its first test. */
export function useProgramStack(options: ProgramStackOptions): ProgramStack {
  const stack = {} as ProgramStack;
  beforeAll(async () => {
    stack.dir = fs.mkdtempSync(path.join(os.tmpdir(), `${options.project}-`));
    stack.emulator = await startEmulator({ ...options.emulator, port: 0 });
    stack.admin = new DeviceMgmtClient({
      baseUrl: stack.emulator.baseUrl,
      apiToken: stack.emulator.tokens.admin,
    });
    stack.engine = await createEngine({
      cwd: repoRoot,
      project: options.project,
      config: { "devicemgmt:baseUrl": stack.emulator.baseUrl },
      secretConfig: { "devicemgmt:apiToken": stack.emulator.tokens.admin },
    });
  });
  afterAll(async () => {
    await stack.engine?.close();
    await stack.emulator?.close();
    if (stack.dir) fs.rmSync(stack.dir, { recursive: true, force: true });
  });
  return stack;
}

/** Runs `program` up again and asserts it plans no step and writes nothing to the organization. */
export async function expectUpChangesNothing(stack: ProgramStack, program: Program): Promise<RunResult> {
  stack.emulator.resetStats();
  const again = await stack.engine.up(program);
  expect(again.errors).toEqual([]);
  for (const kind of ["create", "update", "replace", "delete"] as const)
    expect(again.steps[kind]).toEqual([]);
  expect(stack.emulator.stats().writes).toBe(0);
  return again;
}

/** The drift report (`devicemgmt-drift --kinds <kinds>`) on the stack's saved state, read with the read-only token. */
export async function driftReport(stack: ProgramStack, kinds: string): Promise<DriftRun> {
  const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-"));
  try {
    const stateFile = path.join(reportDir, "state.json");
    await stack.engine.saveState(stateFile);
    const env = {
      DEVICEMGMT_BASE_URL: stack.emulator.baseUrl,
      DEVICEMGMT_API_TOKEN: stack.emulator.tokens.readOnly,
    };
    return await runDrift(reportDir, ["--kinds", kinds, stateFile], env);
  } finally {
    fs.rmSync(reportDir, { recursive: true, force: true });
  }
}
