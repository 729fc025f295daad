/**
 * Waiting for uploaded content to be processed: an image or a custom 3D environment answers `pending` at its
 * complete and becomes `available` later (the OpenAPI's statuses). The wait reads the object again with a growing
 * pause (250 ms doubling to 10 s) until it is `available`, fails at once on any other status than `pending`
 * (the documents name none, but a service that can fail processing says so in the status) with that status and
 * a `statusReason` when the object carries one (the documents name no such field: the schemas read none today,
 * so a real answer fails with the status alone), and gives up after `timeoutMs` (default 30 minutes: large environments
 * take long; the stack config `devicemgmt:processingTimeoutSeconds` sets it for every kind that waits).
 */
import { DeviceMgmtProblem } from "../errors";

export const DEFAULT_PROCESSING_TIMEOUT_MS = 30 * 60_000;

/** The stack config that sets how long every processing wait lasts (connection.ts reads it). */
export const PROCESSING_TIMEOUT_SETTING = "devicemgmt:processingTimeoutSeconds";

/**
 * A processing wait that gave up while the object was still on its way: the upload is done and the object exists,
 * so the create that failed with it leaves its note (framework/interruptedCreates.ts) and the next `up` waits for
 * that same object instead of uploading again. Each kind's wait throws its own subclass, with its fields.
 */
export abstract class ProcessingTimeoutError extends DeviceMgmtProblem {
  /** The setting to raise. */
  readonly setting = PROCESSING_TIMEOUT_SETTING;
}

/** How every processing timeout's message ends: the setting that bounded the wait, and the two repairs. */
export const PROCESSING_TIMEOUT_ADVICE =
  `The wait is bounded by the stack config ${PROCESSING_TIMEOUT_SETTING}. Run \`pulumi up\` again later (it ` +
  `waits for this same object; nothing is uploaded twice), or raise the bound: \`pulumi config set ` +
  `${PROCESSING_TIMEOUT_SETTING} <seconds>\`.`;
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
export class ContentProcessingTimeoutError extends ProcessingTimeoutError {
  constructor(
    readonly what: string,
    readonly id: string,
    readonly timeoutMs: number,
  ) {
    const waited = Math.round(timeoutMs / 1000);
    super(`${what} ${id} was uploaded but is still pending after ${waited} s. ${PROCESSING_TIMEOUT_ADVICE}`, {
      property: PROCESSING_TIMEOUT_SETTING,
      fix: `run pulumi up again later, or raise ${PROCESSING_TIMEOUT_SETTING}`,
    });
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
