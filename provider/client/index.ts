/** The typed v3 API client: `import { DeviceMgmtClient, NotFoundError } from "pulumi-devicemgmt/client"`. */
export { DeviceMgmtClient, type DeviceMgmtClientOptions } from "./client";
export type {
  CreateUserBody,
  DeviceFilter,
  GroupBody,
  InviteUserBody,
  Operations,
  UpdateDeviceBody,
  UpdateUserBody,
} from "./operations";
export {
  AmbiguousWriteError,
  BadRequestError,
  DeviceMgmtError,
  errorFromResponse,
  type ErrorDetails,
  type ErrorResponse,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ResponseShapeError,
  ServerError,
  UnauthorizedError,
  UnsupportedTokenError,
  ValidationError,
} from "./errors";
export {
  PageIterator,
  type PageFetcher,
  type PageRequest,
  type PageSizeMemory,
  pageSizeMemory,
  PREFERRED_PAGE_SIZE,
  smallerPageSize,
} from "./pagination";
export {
  type AttemptOutcome,
  type BackoffSettings,
  DEFAULT_BACKOFF,
  DEFAULT_MAX_RETRY_AFTER_MS,
  decideRetry,
  isIdempotent,
  jitteredBackoff,
  MAX_TIMER_MS,
  parseRetryAfter,
  type RetryDecision,
  type RetryInput,
} from "./retry";
export {
  type Clock,
  DEFAULT_RATE_LIMIT,
  limiterFor,
  organizationKey,
  organizationLimiterKey,
  RateLimiter,
  type RateLimitObservation,
  type RateLimitSettings,
  RESET_MARGIN_MS,
  type SendDecision,
  type SendTicket,
  ServerBudget,
  TokenBucket,
} from "./throttle";
export { type ClientStats, type HttpMethod, organizationStats } from "./transport";
export { closeDispatchers, resolveEndpoints, userAgent } from "./connection";
export * from "./schemas";
