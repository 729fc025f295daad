/**
 * One measured upload in a process of its own (forked by uploads.ts, compiled, plain node): the process loads
 * the provider's client as the plugin does, talks to the API once, and reports its idle resident set; then it
 * uploads one file — through the client's `uploadFile` (parts, pre-signs, hashes) or as one plain streamed PUT
 * to a URL the API pre-signed for the same storage endpoint — and reports the wall time and its peak resident
 * set (VmHWM, the kernel's figure for this process alone); for the client, then the File kind's check of the
 * same file with its hash cache cold and warm. One process per upload, so each peak is that upload's.
 */
import { createReadStream, statSync } from "node:fs";
import { request } from "node:http";
import { closeDispatchers, DeviceMgmtClient } from "../../provider/client";
import { fileHandler } from "../../provider/kinds/file/handler";
import { memoryMiB } from "./proc";

export interface ChildJob {
  mode: "client" | "plain";
  baseUrl: string;
  apiToken: string;
  source: string;
  filename: string;
  /** The client's upload settings to measure (./uploadTuning.ts); none: its defaults. */
  tuning?: UploadTuning;
}

export interface UploadTuning {
  partMiB?: number;
  concurrency?: number;
  presignAhead?: number;
}

export interface ChildReport {
  idleMiB: number;
  peakMiB: number;
  uploadSeconds: number;
  /** CPU seconds of this process in the upload (initiate to the complete's answer). */
  uploadCpuSeconds: number;
  parts: number;
  presignCalls: number;
  /** The File kind's check of the same file: a fresh process (cache cold), then again (warm). */
  checkColdSeconds?: number;
  checkWarmSeconds?: number;
}

const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;
const cpuSince = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

/** The whole file in one PUT, streamed from disk: what a plain client would send the storage host. */
function plainPut(url: string, source: string, sizeBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const put = request(url, { method: "PUT", headers: { "content-length": sizeBytes } }, (res) => {
      res.resume();
      res.on("end", () =>
        res.statusCode === 200
          ? resolve(String(res.headers.etag))
          : reject(new Error(`storage answered ${res.statusCode}`)),
      );
    });
    put.on("error", reject);
    createReadStream(source, { highWaterMark: 1024 * 1024 }).pipe(put);
  });
}

async function run(job: ChildJob): Promise<ChildReport> {
  const client = new DeviceMgmtClient({ baseUrl: job.baseUrl, apiToken: job.apiToken });
  // What an idle plugin has done: loaded the code and spoken to the API once.
  await client.tokenInfo();
  global.gc?.();
  const idleMiB = memoryMiB("self").current;
  const sizeBytes = statSync(job.source).size;
  const path = "/sdcard/Bench";
  const started = process.hrtime.bigint();
  const cpuAtStart = process.cpuUsage();
  if (job.mode === "plain") {
    const upload = await client.files.initiateUpload({ filename: job.filename, path });
    const [signed] = await client.files.presignUpload(upload.fileId, {
      key: upload.key,
      uploadId: upload.uploadId,
      partNumbers: [1],
    });
    const eTag = await plainPut(signed.url, job.source, sizeBytes);
    // Completed, as the client's upload is (the emulator then hashes the bytes and drops its copy of the part).
    await client.files.completeUpload(upload.fileId, {
      key: upload.key,
      uploadId: upload.uploadId,
      parts: [{ partNumber: 1, eTag }],
    });
    const uploadSeconds = seconds(started);
    const uploadCpuSeconds = cpuSince(cpuAtStart);
    const peakMiB = memoryMiB("self").peak;
    return { idleMiB, peakMiB, uploadSeconds, uploadCpuSeconds, parts: 1, presignCalls: 1 };
  }
  const { partMiB, concurrency, presignAhead } = job.tuning ?? {};
  const result = await client.uploadFile({
    source: job.source,
    filename: job.filename,
    path,
    ...(partMiB ? { partSizeBytes: partMiB * 1024 * 1024 } : {}),
    ...(concurrency ? { concurrency } : {}),
    ...(presignAhead !== undefined ? { presignAhead } : {}),
  });
  const uploadSeconds = seconds(started);
  const uploadCpuSeconds = cpuSince(cpuAtStart);
  const peakMiB = memoryMiB("self").peak;
  const check = async () => {
    const at = process.hrtime.bigint();
    const checked = await fileHandler.check({}, { source: job.source, path });
    if (checked.failures.length) throw new Error(JSON.stringify(checked.failures));
    if (checked.inputs.sha512 !== result.checksum) throw new Error("check's hash is not the upload's");
    return seconds(at);
  };
  const uploaded = { idleMiB, peakMiB, uploadSeconds, uploadCpuSeconds };
  if (job.tuning) return { ...uploaded, parts: result.parts, presignCalls: result.presignCalls };
  const checkColdSeconds = await check();
  const checkWarmSeconds = await check();
  return {
    ...uploaded,
    parts: result.parts,
    presignCalls: result.presignCalls,
    checkColdSeconds,
    checkWarmSeconds,
  };
}

if (require.main === module) {
  process.once("message", (job: ChildJob) => {
    run(job)
      .then(async (report) => {
        await closeDispatchers();
        process.send?.({ report }, () => process.disconnect());
      })
      .catch((error: unknown) => {
        process.send?.({ error: String((error as Error)?.stack ?? error) }, () => process.exit(1));
      });
  });
}
