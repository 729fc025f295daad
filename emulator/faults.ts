/** Seedable fault injection: the same seed and the same request sequence give the same faults. */
import { z } from "zod";
import type { FaultConfig, FaultStats } from "./types";

export const NO_FAULTS: FaultConfig = {
  latencyMs: 0,
  errorRate: 0,
  rateLimitBurst: null,
  dropBeforeWriteRate: 0,
  dropAfterWriteRate: 0,
  seed: 1,
  expireUploadUrls: 0,
  failUploadParts: 0,
  loseInitiateAnswers: 0,
  loseCompleteAnswers: 0,
  failAppBuilds: 0,
  failContentProcessing: 0,
  failBundleProcessing: 0,
};

const share = z.number().min(0).max(1);
const count = z.number().int().min(0).max(1_000_000);

export const faultConfigPatchSchema = z
  .object({
    latencyMs: z.number().int().min(0).max(60_000),
    errorRate: share,
    rateLimitBurst: z
      .object({ every: z.number().int().min(1), length: z.number().int().min(1) })
      .refine((b) => b.length <= b.every, { message: "length must not exceed every", path: ["length"] })
      .nullable(),
    dropBeforeWriteRate: share,
    dropAfterWriteRate: share,
    seed: z.number().int(),
    expireUploadUrls: count,
    failUploadParts: count,
    loseInitiateAnswers: count,
    loseCompleteAnswers: count,
    failAppBuilds: count,
    failContentProcessing: count,
    failBundleProcessing: count,
  })
  .partial()
  .strict();

/** mulberry32: small, fast, good enough for dice (and for tests that sample with a fixed seed). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type InjectedError = 500 | 502 | 503;

export interface RequestFaults {
  latencyMs: number;
  error: InjectedError | null;
  rateLimitBurst: boolean;
}

const INJECTED_ERRORS: readonly InjectedError[] = [500, 502, 503];

export class FaultInjector {
  private current: FaultConfig;
  private random: () => number;
  private requestCount = 0;
  readonly stats: FaultStats = emptyFaultStats();

  constructor(initial: Partial<FaultConfig> = {}) {
    this.current = { ...NO_FAULTS, ...faultConfigPatchSchema.parse(initial) };
    this.random = prng(this.current.seed);
  }

  get config(): FaultConfig {
    return { ...this.current };
  }

  /** Throws a ZodError on an invalid patch. Setting `seed` restarts the dice and the burst cycle. */
  update(patch: Partial<FaultConfig>): FaultConfig {
    const valid = faultConfigPatchSchema.parse(patch);
    this.current = { ...this.current, ...valid };
    if (valid.seed !== undefined || valid.rateLimitBurst !== undefined) this.requestCount = 0;
    if (valid.seed !== undefined) this.random = prng(valid.seed);
    return this.config;
  }

  /** Dice for one /api request, drawn in a fixed order so a seed replays exactly. */
  forRequest(): RequestFaults {
    const { latencyMs, errorRate, rateLimitBurst } = this.current;
    const position = this.requestCount++;
    let error: InjectedError | null = null;
    if (errorRate > 0 && this.random() < errorRate) {
      error = INJECTED_ERRORS[Math.floor(this.random() * INJECTED_ERRORS.length)];
    }
    const burst =
      error === null &&
      rateLimitBurst !== null &&
      position % rateLimitBurst.every >= rateLimitBurst.every - rateLimitBurst.length;
    if (latencyMs > 0) this.stats.latencyApplied++;
    if (error) this.stats.errorsInjected++;
    if (burst) this.stats.rateLimitBursts++;
    return { latencyMs, error, rateLimitBurst: burst };
  }

  dropBeforeWrite(): boolean {
    const drop = this.current.dropBeforeWriteRate > 0 && this.random() < this.current.dropBeforeWriteRate;
    if (drop) this.stats.droppedBeforeWrite++;
    return drop;
  }

  dropAfterWrite(): boolean {
    const drop = this.current.dropAfterWriteRate > 0 && this.random() < this.current.dropAfterWriteRate;
    if (drop) this.stats.droppedAfterWrite++;
    return drop;
  }

  /**
   * Upload faults are counts, not dice: each call takes one from its count while any is left, so a test says
   * exactly which URL, part or answer the fault hits (the next ones).
   */
  private take(
    fault:
      | "expireUploadUrls"
      | "failUploadParts"
      | "loseInitiateAnswers"
      | "loseCompleteAnswers"
      | "failAppBuilds"
      | "failContentProcessing"
      | "failBundleProcessing",
  ): boolean {
    if (this.current[fault] <= 0) return false;
    this.current[fault]--;
    return true;
  }

  /** Whether the URL pre-sign is handing out now is to be already expired. */
  expireUploadUrl(): boolean {
    const expired = this.take("expireUploadUrls");
    if (expired) this.stats.uploadUrlsExpired++;
    return expired;
  }

  /** Whether the part PUT that storage is receiving now is to fail (500, the part not stored). */
  failUploadPart(): boolean {
    const failed = this.take("failUploadParts");
    if (failed) this.stats.uploadPartsFailed++;
    return failed;
  }

  /** Whether the answer of the upload `initiate` or `complete` just applied is to be lost (the connection dropped). */
  loseAnswer(of: "initiate" | "complete"): boolean {
    const lost = this.take(of === "initiate" ? "loseInitiateAnswers" : "loseCompleteAnswers");
    if (lost && of === "initiate") this.stats.initiateAnswersLost++;
    if (lost && of === "complete") this.stats.completeAnswersLost++;
    return lost;
  }

  /** Whether the app build just completed is to end its processing in `error`. */
  failAppBuild(): boolean {
    const failed = this.take("failAppBuilds");
    if (failed) this.stats.appBuildsFailed++;
    return failed;
  }

  /** Whether the image or 3D environment just completed is to end its processing in `failed`. */
  failContentProcessing(): boolean {
    const failed = this.take("failContentProcessing");
    if (failed) this.stats.contentProcessingFailed++;
    return failed;
  }

  /** Whether the app bundle just finalized is to end its processing in `failed`. */
  failBundleProcessing(): boolean {
    const failed = this.take("failBundleProcessing");
    if (failed) this.stats.bundleProcessingFailed++;
    return failed;
  }

  resetStats(): void {
    Object.assign(this.stats, emptyFaultStats());
  }
}

function emptyFaultStats(): FaultStats {
  return {
    latencyApplied: 0,
    errorsInjected: 0,
    rateLimitBursts: 0,
    droppedBeforeWrite: 0,
    droppedAfterWrite: 0,
    uploadUrlsExpired: 0,
    uploadPartsFailed: 0,
    initiateAnswersLost: 0,
    completeAnswersLost: 0,
    appBuildsFailed: 0,
    contentProcessingFailed: 0,
    bundleProcessingFailed: 0,
  };
}
