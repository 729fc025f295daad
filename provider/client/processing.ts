/**
 * Waiting for uploaded content to be processed: an image or a custom 3D environment answers `pending` at its
 * complete and becomes `available` later (the OpenAPI's statuses). The wait reads the object again with a growing
 * pause (250 ms doubling to 10 s) until it is `available`, fails at once on any other status than `pending`
 * (the documents name none, but a service that can fail processing says so in the status) with that status and
 * a `statusReason` when the object carries one (the documents name no such field: the schemas read none today,
 * so a real answer fails with the status alone), and gives up after `timeoutMs` (default 30 minutes: large environments
 * take long, and a wait that gives up too early leaves a finished upload the stack does not record).
 */
import { DeviceMgmtProblem } from "../errors";

export const DEFAULT_PROCESSING_TIMEOUT_MS = 30 * 60_000;
const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 10_000;

/** The service ended processing in another status than `available`. */
export class ContentProcessingFailedError extends DeviceMgmtProblem {
  constructor(
    readonly what: string,
    readonly id: string,
    readonly status: string,
    readonly reason: string | undefined,
  ) {
    super(
      `${what} ${id} was uploaded, but the service ended its processing as "${status}"` +
        `${reason ? `: ${reason}` : ""}. Check the file (format, size), then replace the resource to upload again.`,
      { property: "source", fix: "check the file, then upload it again" },
    );
  }
}

/** Still `pending` after the configured time. */
export class ContentProcessingTimeoutError extends DeviceMgmtProblem {
  constructor(
    readonly what: string,
    readonly id: string,
    readonly timeoutMs: number,
  ) {
    super(
      `${what} ${id} was uploaded but is still pending after ${Math.round(timeoutMs / 1000)} s. Run the ` +
        "operation again later (the upload is found, not repeated), or raise the processing timeout.",
      { property: "source", fix: "run again later, or raise the processing timeout" },
    );
  }
}

export interface ProcessingOptions {
  /** How long to wait for `available` (default 30 minutes). */
  timeoutMs?: number;
  /** Called with each status read while waiting. */
  onStatus?: (status: string) => void;
  /** Injected by tests; defaults to a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** Reads `read()` until its status is `available` (absent counts as available: older answers carry none). */
export async function waitUntilAvailable<
  T extends { id: string; status?: string; statusReason?: string | null },
>(what: string, first: T, read: () => Promise<T>, options: ProcessingOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROCESSING_TIMEOUT_MS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = Date.now() + timeoutMs;
  let current = first;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    const status = current.status ?? "available";
    options.onStatus?.(status);
    if (status === "available") return current;
    if (status !== "pending")
      throw new ContentProcessingFailedError(what, current.id, status, current.statusReason ?? undefined);
    const left = deadline - Date.now();
    if (left <= 0) throw new ContentProcessingTimeoutError(what, current.id, timeoutMs);
    await sleep(Math.min(pause, left));
    current = await read();
  }
}
