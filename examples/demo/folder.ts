/** Where the demo keeps what it leaves behind: the emulator's state file, the stack's workspace and backend. */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const EMULATOR_STATE_FILE = "emulator-state.json";

/** DEVICEMGMT_DEMO_STATE (created if missing), else a fresh temporary folder. */
export function stateFolder(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env.DEVICEMGMT_DEMO_STATE;
  if (!chosen) return mkdtempSync(join(tmpdir(), "devicemgmt-demo-"));
  mkdirSync(chosen, { recursive: true });
  return resolve(chosen);
}
