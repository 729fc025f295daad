/** Linux /proc readings of the plugin process: which process it is, and its resident memory. */
import * as fs from "node:fs";

function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")".
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** The dynamic-provider plugin process started by this process (the harness's current plugin). */
export function pluginPid(): number | undefined {
  for (const entry of fs.readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || parentOf(pid) !== process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("dynamic-provider")) return pid;
    } catch {
      // exited meanwhile
    }
  }
  return undefined;
}

/** VmHWM (peak resident set) and VmRSS of a process, in MiB. */
export function memoryMiB(pid: number): { peak: number; current: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { peak: kib("VmHWM") / 1024, current: kib("VmRSS") / 1024 };
}

/** Resets VmHWM to the current RSS (Linux: "5" to clear_refs), so the next reading is the peak since now. */
export function resetPeakMemory(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
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
