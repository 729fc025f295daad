/**
 * The Automation API's PulumiCommand for the CLI that tools/pulumi-cli made ready, with every process it starts
 * tracked: a test can kill a running CLI as a crash or `kill -9` would (the CLI and the plugins it started, at
 * once), and the bench can read each process's CPU and memory from /proc before it exits.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { PulumiCommand } from "@pulumi/pulumi/automation";
import { readyPulumiCli } from "../../tools/pulumi-cli";

const { CommandResult } = require("@pulumi/pulumi/automation/cmd") as {
  CommandResult: new (stdout: string, stderr: string, code: number, err?: Error) => unknown;
};
const { createCommandError } = require("@pulumi/pulumi/automation/errors") as {
  createCommandError: (result: unknown) => Error;
};

type Run = (
  args: string[],
  cwd: string,
  env: Record<string, string>,
  onOutput?: (data: string) => void,
  onError?: (data: string) => void,
  signal?: AbortSignal,
) => Promise<unknown>;

export interface TrackedCommand {
  command: PulumiCommand;
  /** The CLI processes running now. */
  running(): ChildProcess[];
  /** SIGKILLs every running CLI and all its descendants (the plugins), as a crashed machine would. */
  killAll(): void;
  /** Called with each CLI process's pid right after it starts. */
  onStart?: (pid: number, args: string[]) => void;
  /** Runs `pulumi <args>` (a command the Automation API has no method for); rejects as the API does. */
  run(args: string[], cwd: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string }>;
}

/** The pids of `pid`'s descendants, read from /proc (children first found, then theirs). */
export function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // the process exited meanwhile
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [child, ppid] of parents)
      if (ppid === parent && !found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
  }
  return found;
}

/** `PulumiCommand.get` runs `pulumi version` to check it: once per process is enough. */
let checked: Promise<PulumiCommand> | undefined;

export async function trackedCommand(): Promise<TrackedCommand> {
  const cli = readyPulumiCli();
  checked ??= PulumiCommand.get({ root: cli.root });
  // Each engine's own command object (its `run` tracks that engine's processes), sharing the checked one's fields.
  const command = Object.create(await checked) as PulumiCommand;
  const processes = new Set<ChildProcess>();
  const tracked: TrackedCommand = {
    command,
    run: (args, cwd, env) => run(args, cwd, env) as Promise<{ stdout: string; stderr: string }>,
    running: () => [...processes],
    killAll() {
      for (const child of processes) {
        if (child.pid === undefined) continue;
        for (const pid of [child.pid, ...descendantsOf(child.pid)]) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // already gone
          }
        }
      }
    },
  };
  // The Automation API's own run (automation/cmd.js, run and exec) with a spawn we can see: the same arguments,
  // environment and error type.
  const run: Run = (args, cwd, additionalEnv, onOutput, onError, signal) => {
    if (!args.includes("--non-interactive")) args.push("--non-interactive");
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...additionalEnv,
      PULUMI_AUTOMATION_API: "true",
      // The plugin script beside the binary, first: the CLI finds pulumi-resource-pulumi-nodejs there.
      PATH: `${cli.root}/bin:${additionalEnv.PATH ?? process.env.PATH}`,
    };
    return new Promise((resolve, reject) => {
      const child = spawn(command.command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
      processes.add(child);
      if (child.pid !== undefined) tracked.onStart?.(child.pid, args);
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (data: string) => {
        stdout += data;
        onOutput?.(data);
      });
      child.stderr.setEncoding("utf8").on("data", (data: string) => {
        stderr += data;
        onError?.(data);
      });
      signal?.addEventListener("abort", () => child.kill("SIGINT"));
      child.on("error", (error) => {
        processes.delete(child);
        reject(createCommandError(new CommandResult(stdout, stderr, -2, error)));
      });
      child.on("close", (code, killedBy) => {
        processes.delete(child);
        const result = new CommandResult(
          stdout,
          stderr,
          code ?? -1,
          killedBy ? new Error(`killed by ${killedBy}`) : undefined,
        );
        if (code === 0) resolve(result);
        else reject(createCommandError(result));
      });
    });
  };
  (command as unknown as { run: Run }).run = run;
  return tracked;
}
