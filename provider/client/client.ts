/**
 * DeviceMgmtClient: the typed v3 API. Cheap to construct — sockets, the rate limiter and the v3-token check
 * are shared per process and organization — so callers may create one per operation or cache one. The token
 * sits in a closure of the request chain; the client is never meant to be serialized.
 */
import type { Dispatcher } from "undici";
import { dispatcherFor, resolveEndpoints } from "./connection";
import { ConnectionSettingError } from "../errors";
import { UnauthorizedError, UnsupportedTokenError } from "./errors";
import {
  type AppOperations,
  type AuditLogOperations,
  createOperations,
  type DeviceModelOperations,
  type DeviceOperations,
  type FileOperations,
  type GroupOperations,
  type RoleOperations,
  type UserOperations,
  type VideoOperations,
} from "./operations";
import type {
  Custom3DEnvironmentOperations,
  DeviceExperienceOperations,
  HeadsetExperienceOperations,
  ImageOperations,
  ThemeOperations,
} from "./experienceOperations";
import type {
  AppBundleOperations,
  DeviceContentOperations,
  ReleaseOperations,
  TagOperations,
} from "./contentOperations";
import type { Invalidates, WriteNotice } from "./invalidates";
import { pageSizeMemory } from "./pagination";
import { secretsOf } from "./redact";
import { type BackoffSettings, DEFAULT_BACKOFF } from "./retry";
import * as s from "./schemas";
import type { RequestFn } from "./chain";
import { STORAGE_BACKOFF, storageChain } from "./storage";
import { downloadToFile, type DownloadOptions, type DownloadResult } from "./download";
import { DEFAULT_PROCESSING_TIMEOUT_MS, type ProcessingOptions, waitUntilAvailable } from "./processing";
import type {
  ApiInfo,
  AppBuild,
  Custom3DEnvironment,
  DeviceFile,
  Image,
  Organization,
  TokenInfo,
  User,
  Video,
} from "./types";
import {
  type AppVersionUploadOptions,
  appVersionUploadProtocol,
  awaitBuild,
  type BundleFileUploadOptions,
  bundleFileUploadProtocol,
  type FileUploadOptions,
  fileUploadProtocol,
  type UploadResult,
  uploadInParts,
  type VideoUploadOptions,
  videoUploadProtocol,
  custom3DEnvironmentUploadProtocol,
  imageUploadProtocol,
  type NamedUploadOptions,
} from "./upload";
import {
  DEFAULT_RATE_LIMIT,
  limiterFor,
  organizationKey,
  organizationLimiterKey,
  type RateLimiter,
  type RateLimitSettings,
} from "./throttle";
import { attemptChains, type ClientStats, type RequestSpec, TrafficCounters, Transport } from "./transport";

export interface DeviceMgmtClientOptions {
  /** The v3 base URL, ending in /api/v3 (a trailing slash is fine). */
  baseUrl: string;
  apiToken: string;
  /** Per-attempt timeout for the response headers and for each gap while reading the body. Default 30 s. */
  timeoutMs?: number;
  /** Bound on retrying one call, counted from its first send. Default 3 minutes. */
  deadlineMs?: number;
  /** The organization's allowance per minute (default 2000). Shorthand for `rateLimit` with a 60 s window. */
  requestsPerMinute?: number;
  /** Full throttle settings (overrides `requestsPerMinute`), e.g. for a server with a shorter window. */
  rateLimit?: RateLimitSettings;
  retry?: Partial<BackoffSettings>;
  /**
   * The organization the token belongs to, when the caller already knows it. The throttle budget is shared
   * per organization, which the client otherwise learns with one token-info call per token and process.
   */
  organizationId?: string;
  /** Sink for the request log (DEVICEMGMT_LOG=debug or retries, ./attemptLog.ts). Default: stderr. */
  logger?: (line: string) => void;
  /** Replaces the shared keep-alive dispatcher (tests pass a mock agent); see {@link HttpDispatcher}. */
  dispatcher?: HttpDispatcher;
  /** Replaces the wait between retries (tests). */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Per-attempt timeout of a part sent to a storage host, for the answer's headers and each gap while sending:
   * a part is megabytes, so it is longer than `timeoutMs`. Default 2 minutes.
   */
  storageTimeoutMs?: number;
  /**
   * How long an upload waits for the service to process what it sent (a build, an image, a 3D environment, a
   * bundle) before it gives up with a `ProcessingTimeoutError`. Default 30 minutes.
   */
  processingTimeoutMs?: number;
}

/**
 * What the `dispatcher` option takes: a `Dispatcher` (an `Agent`, `Pool` or `MockAgent`) of the HTTP library
 * this package depends on, at the version it depends on. Described by two of its methods only, so that these
 * declarations do not depend on that library's.
 */
export interface HttpDispatcher {
  dispatch(options: object, handler: object): boolean;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_DEADLINE_MS = 180_000;
const DEFAULT_STORAGE_TIMEOUT_MS = 120_000;
/** How long one part may be retried, from its first send. */
const STORAGE_DEADLINE_MS = 600_000;
/** The storage hosts' sockets: one shared agent, apart from the API's (it reaches any host a URL names). */
const STORAGE_DISPATCHER = "storage hosts";

/** Token info per token key: one token-info call per process and token (failures other than 401 retried). */
const tokenInfos = new Map<string, Promise<TokenInfo>>();
/** The v3 check built on it, so a v2 refusal is one shared rejection. */
const tokenChecks = new Map<string, Promise<TokenInfo>>();

/** Write listeners per base URL: a write through any client of a service may change what another one read. */
const writeListenersByBaseUrl = new Map<string, Set<(write: WriteNotice) => void>>();

export class DeviceMgmtClient {
  readonly users: UserOperations;
  readonly roles: RoleOperations;
  readonly groups: GroupOperations;
  readonly devices: DeviceOperations;
  readonly apps: AppOperations;
  readonly deviceModels: DeviceModelOperations;
  readonly files: FileOperations;
  readonly videos: VideoOperations;
  readonly auditLogs: AuditLogOperations;
  readonly themes: ThemeOperations;
  readonly images: ImageOperations;
  readonly custom3DEnvironments: Custom3DEnvironmentOperations;
  readonly headsetExperiences: HeadsetExperienceOperations;
  readonly deviceExperiences: DeviceExperienceOperations;
  readonly tags: TagOperations;
  readonly deviceContent: DeviceContentOperations;
  readonly releases: ReleaseOperations;
  readonly appBundles: AppBundleOperations;

  /** The v3 API: with the token, through the organization's throttle. */
  readonly #transport: Transport;
  /** token-info below the API root: with the token, through the token's own throttle (see #limiter). */
  readonly #tokenInfoTransport: Transport;
  /** `GET /`, the one operation without authentication: no token, outside the rate budget. */
  readonly #publicTransport: Transport;
  /** Parts of uploads to the pre-signed URLs of a storage host: no token, outside the rate budget (./storage). */
  readonly #storage: RequestFn;
  readonly #counters: TrafficCounters;
  readonly #organizationKey: string;
  readonly #tokenInfoPath: string;
  readonly #baseUrl: string;
  readonly #rateLimit: RateLimitSettings;
  readonly #writeListeners: Set<(write: WriteNotice) => void>;
  #organizationLimiter: Promise<RateLimiter> | undefined;
  /** How long waits for processing last (`processingTimeoutMs`): read by the kinds that wait outside an upload. */
  readonly processingTimeoutMs: number;
  /** The per-attempt timeout of a part sent to a storage host (`storageTimeoutMs`). */
  readonly storageTimeoutMs: number;

  constructor(options: DeviceMgmtClientOptions) {
    const endpoints = resolveEndpoints(options.baseUrl);
    if (typeof options.apiToken !== "string" || options.apiToken.trim() === "") {
      const fix = "Create a v3 token in the portal under Settings > Access Tokens";
      throw new ConnectionSettingError(`No API token given for ${endpoints.baseUrl}. ${fix}.`, {
        property: "apiToken",
        fix,
      });
    }
    const backoff = { ...DEFAULT_BACKOFF, ...options.retry };
    const rateLimit: RateLimitSettings = {
      maxPauseMs: backoff.maxRetryAfterMs,
      ...(options.rateLimit ??
        (options.requestsPerMinute === undefined
          ? DEFAULT_RATE_LIMIT
          : { limit: options.requestsPerMinute, windowMs: 60_000 })),
    };
    this.#baseUrl = endpoints.baseUrl;
    this.processingTimeoutMs = options.processingTimeoutMs ?? DEFAULT_PROCESSING_TIMEOUT_MS;
    this.storageTimeoutMs = options.storageTimeoutMs ?? DEFAULT_STORAGE_TIMEOUT_MS;
    this.#rateLimit = rateLimit;
    let writeListeners = writeListenersByBaseUrl.get(endpoints.baseUrl);
    if (writeListeners === undefined) {
      writeListeners = new Set();
      writeListenersByBaseUrl.set(endpoints.baseUrl, writeListeners);
    }
    this.#writeListeners = writeListeners;
    if (options.organizationId !== undefined) {
      this.#organizationLimiter = Promise.resolve(
        limiterFor(organizationLimiterKey(endpoints.baseUrl, options.organizationId), rateLimit),
      );
    }
    this.#organizationKey = organizationKey(endpoints.baseUrl, options.apiToken);
    this.#tokenInfoPath = `${new URL(endpoints.apiRoot).pathname}/token-info`;
    this.#counters = new TrafficCounters(this.#organizationKey);
    const secrets = secretsOf(options.apiToken);
    const log = { logger: options.logger ?? ((line: string) => process.stderr.write(`${line}\n`)), secrets };
    const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    // An HttpDispatcher is an undici Dispatcher described structurally (see there).
    const dispatcher = options.dispatcher as Dispatcher | undefined;
    const chains = attemptChains({
      dispatcher: dispatcher ?? dispatcherFor(endpoints.baseUrl),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      counters: this.#counters,
      log,
      retry: {
        backoff,
        deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS,
        sleep,
        rng: Math.random,
      },
    });
    this.#storage = storageChain({
      dispatcher: dispatcher ?? dispatcherFor(STORAGE_DISPATCHER),
      timeoutMs: this.storageTimeoutMs,
      log,
      retry: { backoff: STORAGE_BACKOFF, deadlineMs: STORAGE_DEADLINE_MS, sleep, rng: Math.random },
    });
    const token = options.apiToken;
    this.#transport = new Transport(
      endpoints.baseUrl,
      chains.authenticated(token, () => this.#limiter()),
      secrets,
    );
    this.#tokenInfoTransport = new Transport(
      endpoints.apiRoot,
      chains.authenticated(token, () => this.#ownLimiter()),
      secrets,
    );
    this.#publicTransport = new Transport(endpoints.baseUrl, chains.unthrottled(), secrets);

    const operations = createOperations({
      get: (path, schema, query) => this.#call({ method: "GET", path, schema, query }),
      write: (method, path, invalidates, body, schema, query, options) =>
        this.#write({ method, path, body, schema, query, repeatable: options?.repeatable }, invalidates),
      pageSizes: pageSizeMemory(endpoints.baseUrl),
    });
    this.users = operations.users;
    this.roles = operations.roles;
    this.groups = operations.groups;
    this.devices = operations.devices;
    this.apps = operations.apps;
    this.deviceModels = operations.deviceModels;
    this.files = operations.files;
    this.videos = operations.videos;
    this.auditLogs = operations.auditLogs;
    this.themes = operations.themes;
    this.images = operations.images;
    this.custom3DEnvironments = operations.custom3DEnvironments;
    this.headsetExperiences = operations.headsetExperiences;
    this.deviceExperiences = operations.deviceExperiences;
    this.tags = operations.tags;
    this.deviceContent = operations.deviceContent;
    this.releases = operations.releases;
    this.appBundles = operations.appBundles;
  }

  /**
   * Calls `listener` for every write sent by any client of this base URL in this process: once before it is
   * sent and once when it settled (answered or failed, after any retries), with what it may make stale as its
   * operation declares it. Adding the same function twice adds it once. Returns the function that removes it.
   */
  onWrite(listener: (write: WriteNotice) => void): () => void {
    const listeners = this.#writeListeners;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /**
   * Uploads a local file in parts (./upload.ts): initiate, pre-sign (API calls, in the rate budget), each part
   * PUT to storage (no token, no budget, retried alone, a new URL when one expired), complete; then the checksum
   * the API answers is compared with the SHA-512 of the bytes sent (`UploadChecksumError` when they differ).
   */
  uploadFile(options: FileUploadOptions): Promise<UploadResult<DeviceFile>> {
    return uploadInParts(fileUploadProtocol(this.files, options), this.#storage, options);
  }

  /** Uploads a data file into a pending app bundle, as `uploadFile` does (a lost complete looked for among the app's). */
  uploadBundleFile(options: BundleFileUploadOptions): Promise<UploadResult<DeviceFile>> {
    return uploadInParts(
      bundleFileUploadProtocol(this.files, this.appBundles, options),
      this.#storage,
      options,
    );
  }

  /** Uploads a local video in parts, as `uploadFile` does (SHA-512 compared the same way). */
  uploadVideo(options: VideoUploadOptions): Promise<UploadResult<Video>> {
    return uploadInParts(videoUploadProtocol(this.videos, options), this.#storage, options);
  }

  /**
   * Downloads content from the signed `downloadUrl` the API answered to a local file (./download.ts): through
   * the storage chain (no token, no budget, retried), streamed to disk, verified against `expected` (the
   * checksum the API answers; `DownloadChecksumError` when the bytes differ, and nothing is written).
   */
  download(options: DownloadOptions): Promise<DownloadResult> {
    return downloadToFile(this.#storage, options);
  }

  /**
   * Uploads an app build (.apk) in parts, as `uploadFile` does (SHA-256 compared), then waits until the API has
   * processed it: answers the build once `available`; a build that ends in `error` fails with the API's reason
   * (`AppBuildFailedError`).
   */
  async uploadAppVersion(options: AppVersionUploadOptions): Promise<UploadResult<AppBuild>> {
    const uploaded = await uploadInParts(
      appVersionUploadProtocol(this.releases, options),
      this.#storage,
      options,
    );
    const made = await awaitBuild(this.releases, options.appId, uploaded.made, {
      ...options,
      processingTimeoutMs: options.processingTimeoutMs ?? this.processingTimeoutMs,
    });
    return { ...uploaded, made };
  }

  /**
   * Uploads a local image in parts, as `uploadFile` does, then waits until the service has processed it
   * (`available`; ./processing.ts). The API answers no checksum for images: the result's `checksum` is the
   * SHA-512 of the bytes sent, which only the caller can keep.
   */
  async uploadImage(options: NamedUploadOptions & ProcessingOptions): Promise<UploadResult<Image>> {
    const result = await uploadInParts(imageUploadProtocol(this.images, options), this.#storage, options);
    const made = await waitUntilAvailable("Image", result.made, () => this.images.get(result.made.id), {
      ...options,
      timeoutMs: options.timeoutMs ?? this.processingTimeoutMs,
    });
    return { ...result, made };
  }

  /** Uploads a local `.glb` as a custom 3D environment and waits until it is `available`, as `uploadImage`. */
  async uploadCustom3DEnvironment(
    options: NamedUploadOptions & ProcessingOptions,
  ): Promise<UploadResult<Custom3DEnvironment>> {
    const protocol = custom3DEnvironmentUploadProtocol(this.custom3DEnvironments, options);
    const result = await uploadInParts(protocol, this.#storage, options);
    const made = await waitUntilAvailable(
      "Custom 3D environment",
      result.made,
      () => this.custom3DEnvironments.get(result.made.id),
      { ...options, timeoutMs: options.timeoutMs ?? this.processingTimeoutMs },
    );
    return { ...result, made };
  }

  /** Counters of this client's traffic (read by the benchmark). */
  stats(): ClientStats {
    return this.#counters.stats();
  }

  /** Token information from `{api_root}/token-info`. */
  tokenInfo(): Promise<TokenInfo> {
    return this.#tokenInfoTransport.send({ method: "GET", path: "/token-info", schema: s.tokenInfoSchema });
  }

  /** API information from `GET /`, the one operation without authentication. */
  apiInfo(): Promise<ApiInfo> {
    return this.#publicTransport.send({ method: "GET", path: "/", schema: s.apiInfoSchema });
  }

  currentOrganization(): Promise<Organization> {
    return this.#call({ method: "GET", path: "/current-organization", schema: s.organizationSchema });
  }

  currentUser(): Promise<User> {
    return this.#call({ method: "GET", path: "/current-user", schema: s.userSchema });
  }

  /**
   * Resolves with the token info when the token is a v3 token and rejects with UnsupportedTokenError for a
   * v2 token. token-info is asked once per process and token (concurrent callers share the answer); a
   * transient failure is not remembered. Every write method calls this first, so a v2 token changes nothing.
   */
  assertV3Token(): Promise<TokenInfo> {
    const key = this.#organizationKey;
    let check = tokenChecks.get(key);
    if (check === undefined) {
      check = this.#tokenInfoOnce().then((info) => {
        if (info.api_version !== "v3" || info.base_path !== "/api/v3") {
          throw new UnsupportedTokenError(
            { method: "GET", path: this.#tokenInfoPath },
            `The API token "${info.token_name}" is a ${info.api_version} token (base path ${info.base_path}).`,
          );
        }
        return info;
      });
      tokenChecks.set(key, check);
      check.catch((error: unknown) => {
        const definitive = error instanceof UnsupportedTokenError || error instanceof UnauthorizedError;
        if (!definitive && tokenChecks.get(key) === check) tokenChecks.delete(key);
      });
    }
    return check;
  }

  /** token-info once per process and token; a 401 is remembered (the token will not become valid). */
  #tokenInfoOnce(): Promise<TokenInfo> {
    const key = this.#organizationKey;
    let info = tokenInfos.get(key);
    if (info === undefined) {
      info = this.tokenInfo();
      tokenInfos.set(key, info);
      info.catch((error: unknown) => {
        if (!(error instanceof UnauthorizedError) && tokenInfos.get(key) === info) tokenInfos.delete(key);
      });
    }
    return info;
  }

  /**
   * The organization's limiter, shared by every token of it. token-info itself (and any request while the
   * organization cannot be learnt, e.g. for a rejected token) goes through the token's own limiter.
   */
  #limiter(): RateLimiter | Promise<RateLimiter> {
    const own = () => this.#ownLimiter();
    if (this.#organizationLimiter === undefined) {
      const resolving = this.#tokenInfoOnce().then((info) =>
        limiterFor(organizationLimiterKey(this.#baseUrl, info.organization_id), this.#rateLimit),
      );
      this.#organizationLimiter = resolving;
      // Not learnt this time: use the token's own limiter for this request and ask again next time.
      return resolving.catch(() => {
        if (this.#organizationLimiter === resolving) this.#organizationLimiter = undefined;
        return own();
      });
    }
    return this.#organizationLimiter.catch(own);
  }

  #ownLimiter(): RateLimiter {
    return limiterFor(this.#organizationKey, this.#rateLimit);
  }

  async #write<T>(spec: RequestSpec<T>, invalidates: Invalidates): Promise<T> {
    // Announced before and after: a cached read that began while the write was in flight is stale as well.
    this.#announce(spec, invalidates, false);
    try {
      await this.assertV3Token();
      return await this.#call(spec);
    } finally {
      this.#announce(spec, invalidates, true);
    }
  }

  #announce(spec: RequestSpec<unknown>, invalidates: Invalidates, settled: boolean): void {
    for (const listener of this.#writeListeners) {
      listener({ method: spec.method, path: spec.path, invalidates, settled });
    }
  }

  /** A v3 call; a 401 is explained as a v2-token refusal when token-info says the token is v2. */
  async #call<T>(spec: RequestSpec<T>): Promise<T> {
    try {
      return await this.#transport.send(spec);
    } catch (error) {
      if (error instanceof UnauthorizedError) {
        const refusal = await this.assertV3Token().then(
          () => undefined,
          (tokenError: unknown) => (tokenError instanceof UnsupportedTokenError ? tokenError : undefined),
        );
        if (refusal) throw refusal;
      }
      throw error;
    }
  }
}
