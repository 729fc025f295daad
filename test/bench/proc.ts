/**
 * Linux /proc readings of processes: CPU time and resident memory, and a meter of the Pulumi CLI processes an
 * Engine starts (test/engine) and of the plugin processes each of them starts. Every CLI command is a process of
 * its own and stops its plugins before it exits, so each process is sampled while it runs, every few tens of
 * milliseconds, and what counts is its last sample: CPU time and peak resident set (VmHWM) only grow, so the last
 * sample before the process exits is its figure, short by at most what it spent in its last interval.
 */
import * as fs from "node:fs";
import { descendantsOf, type TrackedCommand } from "../engine/command";

/** VmHWM (peak resident set) and VmRSS of a process, in MiB. */
export function memoryMiB(pid: number | "self"): { peak: number; current: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { peak: kib("VmHWM") / 1024, current: kib("VmRSS") / 1024 };
  } catch {
    return { peak: NaN, current: NaN };
  }
}

/**
 * User plus system CPU time of a process (`own`) and of its children that it has waited for, with theirs
 * (`children`), in seconds (clock ticks of 1/100 s on Linux); NaN once the process is gone.
 */
export function cpuTimes(pid: number | "self"): { own: number; children: number } {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After "(comm)": state is field 0, utime 11, stime 12, cutime 13, cstime 14.
    return {
      own: (Number(fields[11]) + Number(fields[12])) / 100,
      children: (Number(fields[13]) + Number(fields[14])) / 100,
    };
  } catch {
    return { own: NaN, children: NaN };
  }
}

/** User plus system CPU time a process has used, in seconds. */
export function cpuSeconds(pid: number): number {
  return cpuTimes(pid).own;
}

/** A process's last sample. */
export interface ProcessUsage {
  pid: number;
  /** CPU seconds (user + system) of the process itself. */
  cpu: number;
  /** CPU seconds of its children that it had waited for (and theirs). */
  childrenCpu: number;
  /** Peak resident set (VmHWM), MiB. */
  peakMiB: number;
  /** Its command line when first seen, shortened (descendants only). */
  command?: string;
}

/** One CLI command: the CLI process and the processes it started. */
export interface CliRun {
  /** The command's arguments (`up --yes ...`); `args[0]` is the command. */
  args: string[];
  startedMs: number;
  /** When its process exited (performance.now()); NaN while it runs. */
  endedMs: number;
  cli: ProcessUsage;
  /** The dynamic-provider plugin processes (Node running the SDK's `cmd/dynamic-provider`). */
  plugins: ProcessUsage[];
  /** Its other descendants that lived long enough to be seen (the plugin's shell wrapper, ...). */
  others: ProcessUsage[];
  /** How many times its process was read, and its descendants looked for. */
  readings: number;
  discoveries: number;
}

const sample = (pid: number): ProcessUsage | undefined => {
  const cpu = cpuTimes(pid);
  const memory = memoryMiB(pid);
  if (Number.isNaN(cpu.own) || Number.isNaN(memory.peak)) return undefined;
  return { pid, cpu: cpu.own, childrenCpu: cpu.children, peakMiB: memory.peak };
};

function commandLine(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * `node <...>/cmd/dynamic-provider/index.js <engine address>`; the wrapper's `node -e "require.resolve(...)"`
 * names it too, but as an argument of -e.
 */
const isPlugin = (argv: string[]) =>
  argv[1] !== "-e" && argv.some((arg) => /dynamic-provider(\/index\.js)?$/.test(arg));

const shortened = (argv: string[]) =>
  argv
    .slice(0, 3)
    .map((arg) => (arg.length > 60 ? `…${arg.slice(-59)}` : arg))
    .join(" ");

export interface CliMeter {
  /** The CLI commands started since the last take() (finished or not), and forgets them. */
  take(): CliRun[];
  close(): void;
}

/**
 * Samples every CLI process `cli` starts, and its descendants, every `intervalMs` (descendants are looked for
 * every `discoverMs`, since that reads all of /proc) until it exits.
 */
export function cliMeter(cli: TrackedCommand, intervalMs = 50, discoverMs = 200): CliMeter {
  let runs: CliRun[] = [];
  const live = new Map<number, { run: CliRun; known: Map<number, ProcessUsage>; plugins: Set<number> }>();
  let lastDiscovery = 0;

  const tick = () => {
    const discover = performance.now() - lastDiscovery >= discoverMs;
    if (discover) lastDiscovery = performance.now();
    for (const [pid, entry] of live) {
      const own = sample(pid);
      if (own) {
        entry.run.cli = own;
        entry.run.readings += 1;
      }
      if (discover && own) {
        entry.run.discoveries += 1;
        for (const child of descendantsOf(pid)) {
          if (entry.known.has(child)) continue;
          const first = sample(child);
          if (!first) continue;
          const argv = commandLine(child);
          entry.known.set(child, { ...first, command: shortened(argv) });
          if (isPlugin(argv)) entry.plugins.add(child);
        }
      }
      for (const [child, last] of entry.known) {
        const next = sample(child);
        if (next) entry.known.set(child, { ...next, command: last.command });
      }
      entry.run.plugins = [...entry.plugins].map((p) => entry.known.get(p)!);
      entry.run.others = [...entry.known.entries()].filter(([p]) => !entry.plugins.has(p)).map(([, u]) => u);
    }
  };
  const timer = setInterval(tick, intervalMs);

  cli.onStart = (pid, args) => {
    const run: CliRun = {
      args: [...args],
      startedMs: performance.now(),
      endedMs: NaN,
      cli: sample(pid) ?? { pid, cpu: 0, childrenCpu: 0, peakMiB: 0 },
      plugins: [],
      others: [],
      readings: 0,
      discoveries: 0,
    };
    runs.push(run);
    live.set(pid, { run, known: new Map(), plugins: new Set() });
    const child = cli.running().find((c) => c.pid === pid);
    child?.once("exit", () => {
      run.endedMs = performance.now();
      live.delete(pid);
    });
  };

  return {
    take() {
      const taken = runs;
      runs = runs.filter((r) => Number.isNaN(r.endedMs));
      return taken;
    },
    close() {
      clearInterval(timer);
      cli.onStart = undefined;
    },
  };
}

/** What the CLI commands of a phase used. */
export interface PhaseUsage {
  /** The operation's own CLI command (`up`, `refresh`, `destroy`): its process's wall time, CPU and peak. */
  operation: { command: string; wallMs: number; cpu: number; peakMiB: number };
  /** Any other CLI command of the phase (the harness starts none since it stopped the Automation API's follow-ups). */
  otherCommands: { count: number; wallMs: number; cpu: number };
  /** The dynamic-provider plugin process(es) of the operation: CPU summed, the largest peak. */
  plugin: { processes: number; cpu: number; peakMiB: number; source: string };
  /** CPU of the operation's CLI's children it had waited for when last sampled (the plugins with their wrapper). */
  cliReapedChildrenCpu: number;
  /** Every process of the operation seen, and how often the CLI process was read and its children looked for. */
  seen: { processes: ProcessUsage[]; readings: number; discoveries: number };
}

const OPERATIONS = new Set(["up", "preview", "refresh", "destroy"]);

export function phaseUsage(runs: CliRun[]): PhaseUsage {
  const operations = runs.filter((r) => OPERATIONS.has(r.args[0]));
  const others = runs.filter((r) => !OPERATIONS.has(r.args[0]));
  const wall = (r: CliRun) => (Number.isNaN(r.endedMs) ? performance.now() : r.endedMs) - r.startedMs;
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const plugins = operations.flatMap((r) => r.plugins);
  const reaped = sum(operations.map((r) => r.cli.childrenCpu));
  return {
    operation: {
      command: operations.map((r) => r.args[0]).join("+"),
      wallMs: sum(operations.map(wall)),
      cpu: sum(operations.map((r) => r.cli.cpu)),
      peakMiB: Math.max(0, ...operations.map((r) => r.cli.peakMiB)),
    },
    otherCommands: {
      count: others.length,
      wallMs: sum(others.map(wall)),
      cpu: sum(others.map((r) => r.cli.cpu)),
    },
    // When no plugin process was seen, its CPU is what the CLI had waited for of its children (the plugin with
    // its wrapper, 0.05-0.1 s more) if that is known, and its peak NaN: never a plugin that cost nothing.
    plugin: plugins.length
      ? {
          processes: plugins.length,
          cpu: sum(plugins.map((p) => p.cpu)),
          peakMiB: Math.max(...plugins.map((p) => p.peakMiB)),
          source: "sampled",
        }
      : {
          processes: 0,
          cpu: reaped > 0 ? reaped : NaN,
          peakMiB: NaN,
          source: "reaped children of the CLI",
        },
    cliReapedChildrenCpu: reaped,
    seen: {
      processes: operations.flatMap((r) => [...r.plugins, ...r.others]),
      readings: sum(operations.map((r) => r.readings)),
      discoveries: sum(operations.map((r) => r.discoveries)),
    },
  };
}
