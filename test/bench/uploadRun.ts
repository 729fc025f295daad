/** The upload benches' shared steps: a file of random bytes, and one upload measured in a fresh process. */
import { fork } from "node:child_process";
import { randomFillSync } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import * as path from "node:path";
import type { ChildJob, ChildReport } from "./uploadChild";

const MiB = 1024 * 1024;

/** `sizeMiB` of random bytes, written 8 MiB at a time (never the whole file in the bench's memory). */
export function randomFile(file: string, sizeMiB: number): void {
  const chunk = Buffer.allocUnsafe(8 * MiB);
  const fd = openSync(file, "w");
  try {
    for (let left = sizeMiB * MiB; left > 0; left -= chunk.length) {
      const part = chunk.subarray(0, Math.min(chunk.length, left));
      randomFillSync(part);
      writeSync(fd, part);
    }
  } finally {
    closeSync(fd);
  }
}

export function measured(job: ChildJob): Promise<ChildReport> {
  const child = fork(path.join(__dirname, "uploadChild.js"), [], {
    execArgv: ["--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (message: { report?: ChildReport; error?: string }) =>
      message.report ? resolve(message.report) : reject(new Error(message.error)),
    );
    child.once("exit", (code) => reject(new Error(`the upload process exited (code ${code})`)));
    child.send(job);
  });
}
