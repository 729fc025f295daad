/**
 * The emulator in a process of its own for the benchmark: a real API server does not share the engine's CPU,
 * so neither does this one. The child mirrors the rate limiter's window (WindowShadow) so each phase's floor
 * can account for the budget earlier phases used. Parent and child talk over the fork IPC channel.
 */
import { fork, type ChildProcess } from "node:child_process";
import {
  startEmulator,
  type EmulatorOptions,
  type EmulatorStats,
  type OrgSnapshot,
  type SeedTokens,
} from "../../emulator";
import { WindowShadow } from "./floor";

type Request =
  | { id: number; op: "window" }
  | { id: number; op: "stats" }
  | { id: number; op: "snapshot" }
  | { id: number; op: "close" };

interface Ready {
  type: "ready";
  baseUrl: string;
  tokens: SeedTokens;
}

export interface WindowNow {
  remaining: number;
  untilResetMs: number;
}

export interface EmulatorProcess {
  baseUrl: string;
  tokens: SeedTokens;
  pid: number;
  window(): Promise<WindowNow>;
  stats(): Promise<EmulatorStats>;
  snapshot(): Promise<OrgSnapshot>;
  close(): Promise<void>;
}

export interface EmulatorProcessOptions {
  rateLimit: { limit: number; windowMs: number };
  latencyMs: number;
  seed?: EmulatorOptions["seed"];
  /** Start from (and keep writing) this state file: an organization built once, measured from copies. */
  statePath?: string;
}

export async function startEmulatorProcess(options: EmulatorProcessOptions): Promise<EmulatorProcess> {
  const child: ChildProcess = fork(__filename, ["--child", JSON.stringify(options)], {
    execArgv: ["-r", "ts-node/register/transpile-only"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const pending = new Map<number, (value: unknown) => void>();
  let nextId = 1;
  const ready = new Promise<Ready>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the emulator process exited (code ${code})`)));
    child.on("message", (message: { type?: string; id?: number; result?: unknown }) => {
      if (message.type === "ready") resolve(message as Ready);
      else if (message.id !== undefined) {
        pending.get(message.id)?.(message.result);
        pending.delete(message.id);
      }
    });
  });
  const { baseUrl, tokens } = await ready;
  const ask = <T>(op: Request["op"]) =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve as (value: unknown) => void);
      child.send({ id, op });
    });
  return {
    baseUrl,
    tokens,
    pid: child.pid ?? -1,
    window: () => ask<WindowNow>("window"),
    stats: () => ask<EmulatorStats>("stats"),
    snapshot: () => ask<OrgSnapshot>("snapshot"),
    async close() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await ask("close");
      await exited;
    },
  };
}

async function runChild(options: EmulatorProcessOptions): Promise<void> {
  const shadow = new WindowShadow(options.rateLimit.limit, options.rateLimit.windowMs);
  const emulator = await startEmulator({
    port: 0,
    rateLimit: options.rateLimit,
    faults: { latencyMs: options.latencyMs },
    ...(options.seed ? { seed: options.seed } : {}),
    ...(options.statePath ? { statePath: options.statePath } : {}),
    now: () => shadow.hit(Date.now()),
  });
  const send = (message: object) => process.send?.(message);
  process.on("message", (request: Request) => {
    switch (request.op) {
      case "window":
        return send({ id: request.id, result: shadow.at(Date.now()) });
      case "stats":
        return send({ id: request.id, result: emulator.stats() });
      case "snapshot":
        return send({ id: request.id, result: emulator.snapshot() });
      case "close":
        // A close that fails ends the child as a failed start does: the bench sees it exit, not a silent hang.
        emulator.close().then(() => {
          send({ id: request.id, result: null });
          process.disconnect();
        }, exitWith);
    }
  });
  // A bench that dies must not leave its emulator behind: the IPC channel closes with it.
  process.on("disconnect", () => process.exit(0));
  send({ type: "ready", baseUrl: emulator.baseUrl, tokens: emulator.tokens });
}

function exitWith(error: unknown): never {
  console.error(error);
  process.exit(1);
}

if (process.argv[2] === "--child") {
  runChild(JSON.parse(process.argv[3]) as EmulatorProcessOptions).catch(exitWith);
}
