/**
 * The typed v3 API client: `import { DeviceMgmtClient, NotFoundError } from "pulumi-devicemgmt/client"`.
 *
 * Everything exported here is declared in this package's own types: the validation schemas and the HTTP
 * library stay internal, so the published declarations do not depend on zod's or undici's.
 */
export { DeviceMgmtClient, type DeviceMgmtClientOptions, type HttpDispatcher } from "./client";
export type { CachedList, CachedListScope, Invalidates, WriteNotice } from "./invalidates";
export type {
  AppOperations,
  AuditLogFilter,
  AuditLogOperations,
  CreateAppBody,
  CreateUserBody,
  DeleteGroupOptions,
  DeviceFilter,
  DeviceModelOperations,
  DeviceOperations,
  FileOperations,
  GroupBody,
  GroupOperations,
  InviteUserBody,
  MigrateDeviceOptions,
  Operations,
  RoleOperations,
  UpdateAppBody,
  UpdateDeviceBody,
  UpdateUserBody,
  UserOperations,
  VideoOperations,
} from "./operations";
export type {
  Custom3DEnvironmentOperations,
  DeviceExperienceOperations,
  DeviceExperiencePath,
  ExperienceHolder,
  ExperienceOperations,
  HeadsetExperienceOperations,
  HeadsetExperiencePath,
  ImageOperations,
  ThemeOperations,
} from "./experienceOperations";
export type {
  ChannelTarget,
  ContentOperations,
  CustomField,
  CustomFieldAction,
  DeviceContentOperations,
  ReleaseOperations,
  TagOperations,
  TagOwnerType,
} from "./contentOperations";
export type { AppBundle, ShareResult, Tag } from "./types";
export type {
  Custom3DEnvironment,
  DeviceExperience,
  ExperienceBackground,
  ExperienceContent,
  HeadsetExperience,
  Image,
  ImageType,
  MetaHmsSettings,
  SharedModeSettings,
  Theme,
  ThemeBody,
} from "./types";
export {
  type AccessControl,
  type ApiInfo,
  type App,
  type AppBuild,
  type AuditRecord,
  type Checksum,
  type ComplianceStatus,
  type ContentDeviceStatus,
  type Device,
  type DeviceFile,
  type DeviceModel,
  type Group,
  type GroupHierarchyNode,
  type GroupParent,
  type Organization,
  type Page,
  parentIdOf,
  type ReleaseChannel,
  type ReleaseChannelDeviceStatus,
  type Role,
  type RoleType,
  type Timestamps,
  type TokenInfo,
  type User,
  type Video,
} from "./types";
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
} from "./throttle";
export { TokenBucket } from "./tokenBucket";
export { type ClientStats, type HttpMethod, organizationStats } from "./transport";
export { closeDispatchers, parseBaseUrl, resolveEndpoints, userAgent } from "./connection";
