/**
 * The upload bench's plugin part: a program declaring one `File`, run by the real Pulumi CLI (test/engine) so the
 * upload happens in the SDK's dynamic-provider plugin, which runs the built package (dist/) as for any user.
 * First `up` with a 1 MiB source (the plugin loads everything, hashes at check, uploads one part), then `up`
 * with the large source (the content changed: a replacement, hashed at check and uploaded), then destroy. The
 * plugin of each CLI command is sampled from outside (proc.ts: VmHWM every 50 ms until it exits).
 */
import * as dm from "../../provider";
import { createEngine } from "../engine";
import type { EmulatorProcess } from "./emulatorProcess";
import { assertFreshBuild } from "./freshBuild";
import { cliMeter, type CliRun } from "./proc";
import { findRepoRoot } from "./repoRoot";

export interface PluginUploadPeaks {
  /** The plugin's peak resident set in the `up` of the 1 MiB file. */
  smallPeakMiB: number;
  /** The plugin's peak resident set in the `up` that uploads the large file. */
  largePeakMiB: number;
  /** Wall time of that `up` (check's hash and the upload, in one plugin), seconds. */
  largeUpSeconds: number;
}

const pluginPeak = (runs: CliRun[]) => Math.max(...runs.flatMap((r) => r.plugins.map((p) => p.peakMiB)));

export async function pluginUploadPeaks(
  emulator: EmulatorProcess,
  smallSource: string,
  largeSource: string,
): Promise<PluginUploadPeaks> {
  assertFreshBuild();
  const engine = await createEngine({
    cwd: findRepoRoot(__dirname),
    project: "devicemgmt-bench-uploads",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });
  const meter = cliMeter(engine.cli);
  const program = (source: string) => () => {
    const file = new dm.File("bench", { source, filename: "bench-plugin.bin", path: "/sdcard/Bench" });
    return { sha512: file.sha512 };
  };
  const up = async (source: string) => {
    const result = await engine.up(program(source));
    if (result.errors.length) throw new Error(JSON.stringify(result.errors));
  };
  try {
    await up(smallSource);
    const smallPeakMiB = pluginPeak(meter.take());
    const started = process.hrtime.bigint();
    await up(largeSource);
    const largeUpSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const largePeakMiB = pluginPeak(meter.take());
    const destroyed = await engine.destroy();
    if (destroyed.errors.length) throw new Error(JSON.stringify(destroyed.errors));
    return { smallPeakMiB, largePeakMiB, largeUpSeconds };
  } finally {
    meter.close();
    await engine.close();
  }
}
