/** Run the emulator CLI as a child process (from the TypeScript sources) and find its address. */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const REGISTER = path.join(__dirname, "fixtures/register-ts.js");
const CLI = path.join(ROOT, "emulator/cli.ts");

export interface EmulatorProcess {
  child: ChildProcessWithoutNullStreams;
  /** http://127.0.0.1:PORT/api/v3 as printed on start. */
  baseUrl: string;
  output: () => string;
}

export function runCli(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ["-r", REGISTER, CLI, ...args], { cwd: ROOT });
}

/** Start the CLI and resolve once it printed its listening line. */
export function startCli(args: string[]): Promise<EmulatorProcess> {
  const child = runCli(["--port", "0", ...args]);
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator did not start:\n${output}`)), 20_000);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^listening on (http:\/\/\S+\/api\/v3)$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, baseUrl: match[1], output: () => output });
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with ${code}:\n${output}`));
    });
  });
}

export function exited(
  child: ChildProcessWithoutNullStreams,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}
