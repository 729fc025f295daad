/**
 * Linux /proc readings of processes: CPU time and resident memory, and a meter of the plugin processes the engine
 * stand-in starts. The engine starts a plugin per operation (as every CLI command does) and stops it before the
 * operation returns, so each plugin is read just before it is stopped, while its /proc entry is still there.
 */
import * as fs from "node:fs";
import { observePlugins } from "../../engine-stand-in";

/** VmHWM (peak resident set) and VmRSS of a process, in MiB. */
export function memoryMiB(pid: number): { peak: number; current: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { peak: kib("VmHWM") / 1024, current: kib("VmRSS") / 1024 };
  } catch {
    return { peak: NaN, current: NaN };
  }
}

/** User plus system CPU time a process has used, in seconds (clock ticks of 1/100 s on Linux). */
export function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After "(comm)": state is field 0, utime 11, stime 12.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** What the plugin processes that stopped since the last reading used. */
export interface PluginUsage {
  /** How many plugin processes stopped. */
  processes: number;
  /** CPU seconds of those processes, from their start to just before their stop signal. */
  cpu: number;
  /** Of that, CPU seconds until they listened (starting Node and loading the SDK). */
  startCpu: number;
  /** The largest peak resident set (VmHWM) among them, in MiB. */
  peakMiB: number;
}

/** Meters every plugin process started while it is open; `take()` returns the usage since the last `take()`. */
export function pluginMeter(): { take(): PluginUsage; close(): void } {
  const startCpu = new Map<number, number>();
  let usage: PluginUsage = { processes: 0, cpu: 0, startCpu: 0, peakMiB: 0 };
  const close = observePlugins({
    started: (pid) => startCpu.set(pid, cpuSeconds(pid)),
    stopping: (pid) => {
      usage.processes += 1;
      usage.cpu += cpuSeconds(pid);
      usage.startCpu += startCpu.get(pid) ?? NaN;
      usage.peakMiB = Math.max(usage.peakMiB, memoryMiB(pid).peak);
      startCpu.delete(pid);
    },
  });
  return {
    take() {
      const taken = usage;
      usage = { processes: 0, cpu: 0, startCpu: 0, peakMiB: 0 };
      return taken;
    },
    close,
  };
}
