// What the flag safety tests share (continue-on-error, target, deleted-with, ignore-changes): a fresh emulator and
// engine stand-in per test, configured with the admin token, and the ids their programs refer to.
import * as path from "path";
import { startEmulator, type OrgSnapshot, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine } from "../../engine-stand-in";
import { DeviceMgmtClient } from "../../provider/client";

const repoRoot = path.resolve(__dirname, "../..");

export interface FlagStack {
  emulator: RunningEmulator;
  engine: Engine;
  /** The organization role "Admin". */
  adminRole: string;
  /** Training Simulator's "Production" and "Beta" channels. */
  production: string;
  beta: string;
  /** The organization as the emulator holds it now. */
  org(): OrgSnapshot;
}

/** Registers beforeEach/afterEach in the calling scope; the returned object is filled afresh for every test. */
export function useFlagStack(): FlagStack {
  const stack = { org: () => stack.emulator.snapshot() } as FlagStack;
  beforeEach(async () => {
    stack.emulator = await startEmulator({ port: 0 });
    const admin = new DeviceMgmtClient({
      baseUrl: stack.emulator.baseUrl,
      apiToken: stack.emulator.tokens.admin,
    });
    stack.adminRole = (await admin.roles.all()).find((r) => r.name === "Admin")!.id;
    const app = (await admin.apps.all()).find((a) => a.name === "Training Simulator")!;
    for await (const channel of admin.apps.releaseChannels(app.id)) {
      if (channel.name === "Production") stack.production = channel.id;
      if (channel.name === "Beta") stack.beta = channel.id;
    }
    stack.engine = await createEngine({
      cwd: repoRoot,
      config: { "devicemgmt:baseUrl": stack.emulator.baseUrl },
      secretConfig: { "devicemgmt:apiToken": stack.emulator.tokens.admin },
    });
  });
  afterEach(async () => {
    await stack.engine?.close();
    await stack.emulator?.close();
  });
  return stack;
}
