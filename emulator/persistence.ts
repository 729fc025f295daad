/**
 * Durable state file. A write is acknowledged only after the state that contains it is on disk; writes that
 * arrive while a flush is running share the next flush (group commit), so throughput does not collapse to one
 * fsync per request. Each flush writes a temp file, fsyncs it and renames it over the state file, so a kill at
 * any moment leaves either the previous or the new state, never a torn file.
 */
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import type { StoredState } from "./storedState";

const storedStateHeader = z
  .object({ format: z.literal("devicemgmt-emulator-state"), version: z.literal(1) })
  .loose();

export async function readStateFile(file: string): Promise<StoredState | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const parsed = storedStateHeader.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file} is not a devicemgmt emulator state file`);
  return parsed.data as unknown as StoredState;
}

export class StateFile {
  private changes = 0;
  private durable = 0;
  private running: Promise<void> | null = null;
  private readonly tempFile: string;

  constructor(
    private readonly file: string,
    private readonly serialize: () => StoredState,
  ) {
    this.tempFile = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  }

  /** Record that the in-memory state changed and resolve once that change is on disk. */
  async commit(): Promise<void> {
    const wanted = ++this.changes;
    while (this.durable < wanted) {
      // One flush at a time; whoever finds none running starts the next one, which covers every change so far.
      if (!this.running) this.running = this.flushOnce().finally(() => (this.running = null));
      await this.running;
    }
  }

  private async flushOnce(): Promise<void> {
    const covered = this.changes;
    const text = JSON.stringify(this.serialize());
    const handle = await fs.open(this.tempFile, "w");
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(this.tempFile, this.file);
    // The rename itself is only durable once the directory entry is on disk.
    const directory = await fs.open(path.dirname(this.file), "r");
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
    this.durable = covered;
  }

  /** Wait for a running flush (on shutdown). */
  async settle(): Promise<void> {
    while (this.running) await this.running;
  }
}
