/**
 * `npm run bench:upload-tuning [-- --size-mib 512 --part-mib 5,16,32 --concurrency 4,8 --presign-ahead 0,1
 * --repeat 3 --latency-ms 0]`
 *
 * The client's multipart upload against a plain streamed PUT of the same file (issue 39, item 6), for every
 * combination of part size, parts in flight and pre-sign calls asked for ahead, measured rather than guessed.
 * Each round uploads the file once as a plain PUT and then once with every setting, each in a fresh process
 * (./uploadChild.ts, as `npm run bench:uploads` does), so each setting's ratio is to the plain PUT of its own
 * round, seconds apart on the same machine: that ratio is what to read on a shared machine. `--latency-ms` adds
 * that much to every API call (initiate, pre-sign, complete; not the storage host's PUTs), as a remote API would.
 * Prints every round's ratio, the median per setting, and the largest resident-set growth of a setting's
 * process. Measured numbers only.
 */
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startEmulatorProcess } from "./emulatorProcess";
import type { ChildJob, ChildReport, UploadTuning } from "./uploadChild";
import { measured, randomFile } from "./uploadRun";

const list = (name: string, raw: string) => {
  const values = raw.split(",").map(Number);
  if (values.some((v) => !Number.isInteger(v) || v < 0))
    throw new Error(`--${name} takes whole numbers separated by commas, got "${raw}"`);
  return values;
};

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "size-mib": { type: "string", default: "512" },
      "part-mib": { type: "string", default: "5,16" },
      concurrency: { type: "string", default: "4" },
      "presign-ahead": { type: "string", default: "0,1" },
      repeat: { type: "string", default: "3" },
      "latency-ms": { type: "string", default: "0" },
    },
  });
  const [sizeMiB] = list("size-mib", values["size-mib"]);
  const [repeat] = list("repeat", values.repeat);
  const [latencyMs] = list("latency-ms", values["latency-ms"]);
  const settings: UploadTuning[] = [];
  for (const partMiB of list("part-mib", values["part-mib"]))
    for (const concurrency of list("concurrency", values.concurrency))
      for (const presignAhead of list("presign-ahead", values["presign-ahead"]))
        settings.push({ partMiB, concurrency, presignAhead });

  const folder = mkdtempSync(path.join(os.tmpdir(), "devicemgmt-bench-upload-tuning-"));
  const emulator = await startEmulatorProcess({ rateLimit: { limit: 2000, windowMs: 60_000 }, latencyMs });
  const started = new Date();
  const load = os.loadavg()[0];
  const plain: ChildReport[] = [];
  const runs = settings.map(() => [] as ChildReport[]);
  try {
    const source = path.join(folder, `bench-${sizeMiB}MiB.bin`);
    randomFile(source, sizeMiB);
    const job = (mode: ChildJob["mode"], label: string, tuning?: UploadTuning): ChildJob => ({
      mode,
      baseUrl: emulator.baseUrl,
      apiToken: emulator.tokens.admin,
      source,
      filename: `tuning-${label}.bin`,
      ...(tuning ? { tuning } : {}),
    });
    for (let round = 0; round < repeat; round++) {
      plain.push(await measured(job("plain", `plain-${round}`)));
      for (const [i, tuning] of settings.entries()) {
        runs[i].push(await measured(job("client", `${i}-${round}`, tuning)));
      }
      console.error(`round ${round + 1} of ${repeat} done`);
    }
  } finally {
    await emulator.close();
    rmSync(folder, { recursive: true, force: true });
  }
  console.log(
    `${started.toISOString()} – ${new Date().toISOString()}, ${sizeMiB} MiB, API latency ${latencyMs} ms, ` +
      `${os.cpus().length} CPUs, Node ${process.versions.node}, load average ${load.toFixed(1)} → ` +
      `${os.loadavg()[0].toFixed(1)}`,
  );
  console.log(
    `plain PUT s per round: ${plain.map((p) => p.uploadSeconds.toFixed(2)).join(", ")}; its CPU s: ` +
      `${plain.map((p) => p.uploadCpuSeconds.toFixed(2)).join(", ")}`,
  );
  console.log(
    "| part MiB | in flight | pre-sign ahead | parts | pre-sign calls | client s per round | " +
      "client / plain per round | median client / plain | median client CPU s | max peak − idle MiB |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: |");
  for (const [i, tuning] of settings.entries()) {
    const ratios = runs[i].map((r, round) => r.uploadSeconds / plain[round].uploadSeconds);
    const growth = Math.max(...runs[i].map((r) => r.peakMiB - r.idleMiB));
    console.log(
      `| ${tuning.partMiB} | ${tuning.concurrency} | ${tuning.presignAhead} | ${runs[i][0].parts} | ` +
        `${runs[i][0].presignCalls} | ${runs[i].map((r) => r.uploadSeconds.toFixed(2)).join(", ")} | ` +
        `${ratios.map((r) => r.toFixed(2)).join(", ")} | ${median(ratios).toFixed(2)} | ` +
        `${median(runs[i].map((r) => r.uploadCpuSeconds)).toFixed(2)} | ${growth.toFixed(0)} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
