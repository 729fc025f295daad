/**
 * `npm run bench:uploads [-- --sizes 1,256,2048]` (sizes in MiB)
 *
 * Uploads through the emulator's storage endpoint (issue 31, item 8), the emulator in its own process. For each
 * size, a file of random bytes in os.tmpdir() (nothing compresses) goes up twice, each time from a fresh process
 * (uploadChild.ts): through the client's `uploadFile` (5 MiB parts or larger, 4 in flight, each hashed, pre-signed
 * 4 at a time, then complete), and as one plain streamed PUT of the whole file to a URL the API pre-signed on the
 * same endpoint, then its complete. Prints the wall time of both (initiate to the complete's answer: the file is
 * in the organization), their throughput and ratio, each process's resident set idle
 * (client loaded, one API call made) and at its peak, and the File kind's check (preview) of the same file with
 * its hash cache cold (a fresh process) and warm. For the largest size, also the real plugin's peak (pluginUpload.ts:
 * a program's File through the Pulumi CLI; `--no-plugin` skips it; it runs dist/, so `npm run build` first)
 * uploading it, beside its peak uploading 1 MiB. Measured numbers only: no targets, no pass or fail. The files
 * are removed at the end, and the emulator drops each upload's parts when it completes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startEmulatorProcess } from "./emulatorProcess";
import { pluginUploadPeaks, type PluginUploadPeaks } from "./pluginUpload";
import type { ChildJob } from "./uploadChild";
import { measured, randomFile } from "./uploadRun";

const fixed = (n: number | undefined, digits = 2) => (n === undefined ? "—" : n.toFixed(digits));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { sizes: { type: "string", default: "1,256,2048" }, "no-plugin": { type: "boolean" } },
  });
  const sizes = (values.sizes ?? "").split(",").map(Number);
  if (sizes.some((s) => !Number.isInteger(s) || s < 1))
    throw new Error(`--sizes must be whole numbers of MiB separated by commas, got "${values.sizes}"`);

  const folder = mkdtempSync(path.join(os.tmpdir(), "devicemgmt-bench-uploads-"));
  const emulator = await startEmulatorProcess({ rateLimit: { limit: 2000, windowMs: 60_000 }, latencyMs: 0 });
  const started = new Date();
  const load = os.loadavg()[0];
  const rows: string[] = [];
  const largest = Math.max(...sizes);
  let plugin: (PluginUploadPeaks & { sizeMiB: number }) | undefined;
  try {
    for (const sizeMiB of sizes) {
      const source = path.join(folder, `bench-${sizeMiB}MiB.bin`);
      randomFile(source, sizeMiB);
      const job = (mode: ChildJob["mode"]): ChildJob => ({
        mode,
        baseUrl: emulator.baseUrl,
        apiToken: emulator.tokens.admin,
        source,
        filename: `bench-${sizeMiB}MiB-${mode}.bin`,
      });
      // Plain first, so both read the file from the page cache the write left (not from the disk).
      const plain = await measured(job("plain"));
      const client = await measured(job("client"));
      if (sizeMiB === largest && !values["no-plugin"]) {
        const small = path.join(folder, "bench-plugin-1MiB.bin");
        randomFile(small, 1);
        plugin = { sizeMiB, ...(await pluginUploadPeaks(emulator, small, source)) };
      }
      rmSync(source);
      const rate = (s: number) => sizeMiB / s;
      rows.push(
        `| ${sizeMiB} | ${client.parts} | ${client.presignCalls} | ${fixed(client.uploadSeconds)} | ` +
          `${fixed(rate(client.uploadSeconds), 1)} | ${fixed(plain.uploadSeconds)} | ` +
          `${fixed(rate(plain.uploadSeconds), 1)} | ${fixed(client.uploadSeconds / plain.uploadSeconds)} | ` +
          `${fixed(client.idleMiB, 0)} | ${fixed(client.peakMiB, 0)} | ${fixed(client.peakMiB - client.idleMiB, 0)} | ` +
          `${fixed(plain.idleMiB, 0)} | ${fixed(plain.peakMiB, 0)} | ` +
          `${fixed(client.checkColdSeconds, 3)} | ${fixed(client.checkWarmSeconds, 4)} |`,
      );
      console.error(`${sizeMiB} MiB done`);
    }
  } finally {
    await emulator.close();
    rmSync(folder, { recursive: true, force: true });
  }
  const cpu = os.cpus();
  console.log(
    `${started.toISOString()} – ${new Date().toISOString()}, ${cpu.length} × ${cpu[0]?.model ?? "?"}, ` +
      `${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.versions.node}, ` +
      `load average ${load.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log(
    "| MiB | parts | pre-sign calls | client s | client MiB/s | plain PUT s | plain MiB/s | client / plain | " +
      "client idle MiB | client peak MiB | peak − idle MiB | plain idle MiB | plain peak MiB | " +
      "check cold s | check warm s |",
  );
  console.log(`| ${Array(15).fill("---:").join(" | ")} |`);
  for (const row of rows) console.log(row);
  if (plugin)
    console.log(
      `\nThe plugin (real CLI, a File): peak ${fixed(plugin.smallPeakMiB, 0)} MiB in the up of a 1 MiB file, ` +
        `${fixed(plugin.largePeakMiB, 0)} MiB in the up of the ${plugin.sizeMiB} MiB file (` +
        `${fixed(plugin.largePeakMiB - plugin.smallPeakMiB, 0)} MiB more; that up took ` +
        `${fixed(plugin.largeUpSeconds)} s, check's hash and the upload included).`,
    );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
