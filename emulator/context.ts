/** What a route handler sees of a request, and what it returns. */
import { Access } from "./access";
import { badRequest, unauthorized } from "./errors";
import type { AuditRecord, User } from "./model";
import { paginate, parsePageRequest, type Page, type PageQuerySchema } from "./pagination";
import type { TokenRecord } from "./seed";
import type { OrgState, Store } from "./store";
import type { PendingInvitation, StrictOptions } from "./types";
import type { Uploads } from "./uploads";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** none: no token (GET /); token: any known token, v2 included (token-info); user: a v3 token of a live user. */
export type AuthMode = "none" | "token" | "user";

export interface HandlerResult {
  status: number;
  body?: unknown;
}

export type Handler = (ctx: RequestContext) => HandlerResult;

export interface RouteDefinition {
  method: HttpMethod;
  /** fastify syntax (":groupId"), relative to /api/v3, or to /api when `underApiRoot` is set. */
  path: string;
  auth: AuthMode;
  underApiRoot?: boolean;
  /**
   * An upload's initiate or complete: the fault `loseInitiateAnswers` / `loseCompleteAnswers` may drop its answer
   * once it is applied.
   */
  answerMayBeLost?: "initiate" | "complete";
  /** The route's example requests, which the tests that run every route read from here (`RouteExamples`). */
  examples?: RouteExamples;
  handler: Handler;
}

/**
 * A route's example requests, declared where it is registered, so that a new route's probes are written once:
 * test/emulator/contract.test.ts sends both and checks the answers against the OpenAPI document, and
 * test/emulator/audit.test.ts sends the success of a write and checks the record `audit` describes. A path
 * parameter names one of the objects those tests make first (`ExampleObject`).
 */
export interface RouteExamples {
  /** A request the route answers with success (2xx). */
  success: ExampleRequest;
  /** A request it refuses (4xx). */
  error: ExampleRequest;
  /** For a write: the audit record its success adds. */
  audit?: {
    type: "created" | "updated" | "deleted";
    action: string;
    resourceType: string;
    /** The path parameter naming the resource recorded; absent, the object the write made (a new id). */
    resourceIdParam?: string;
    resourceName?: string;
    /** `{<ExampleObject>}` in it stands for that object's name. */
    description?: string;
  };
}

export interface ExampleRequest {
  /** Each path parameter, as the object of the tests' it names. */
  params?: Record<string, ExampleObject>;
  body?: unknown;
}

/** The objects the tests make before they run the routes' examples: a group configured, and one not. */
export type ExampleObject = "configuredGroup" | "unconfiguredGroup";

export const ok = (body: unknown): HandlerResult => ({ status: 200, body });
export const created = (body: unknown): HandlerResult => ({ status: 201, body });
export const noContent = (): HandlerResult => ({ status: 204 });

export interface SharedServices {
  store: Store;
  pageQuery: PageQuerySchema;
  describeRateLimit(): string;
  strict: Required<StrictOptions>;
  /** Pending invitations by organization id (used only with strict.pendingInvitations). */
  invitations: Map<string, PendingInvitation[]>;
  /** Pending uploads and the storage endpoint their part URLs point at. */
  uploads: Uploads;
}

/**
 * What a successful write records in the audit log (the server adds id, user, IP address and timestamps). `org`
 * and `user` default to the caller's; a migration also records in the target organization as the user there.
 */
export interface AuditEntry {
  type: "created" | "updated" | "deleted";
  action: string;
  resourceType: string;
  resourceId: string;
  resourceName: string | null;
  description: string;
  org?: OrgState;
  user?: User;
}

export type Query = Record<string, string | string[] | undefined>;

export class RequestContext {
  tokenRecord: TokenRecord | undefined;
  orgState: OrgState | undefined;
  userRecord: User | undefined;
  rawBody: unknown;
  /** The client's address, for audit records. */
  ip: string | null = null;
  /** Audit entries of this request; written only if the write succeeds. */
  readonly auditEntries: AuditEntry[] = [];
  private accessCache: Access | undefined;
  private nowCache: string | undefined;

  constructor(
    readonly services: SharedServices,
    readonly params: Record<string, string>,
    readonly query: Query,
    /** "http://host:port" as the client addressed us, for pagination links. */
    readonly origin: string,
    /** The request path without query. */
    readonly path: string,
  ) {}

  get store(): Store {
    return this.services.store;
  }

  get token(): TokenRecord {
    if (!this.tokenRecord) throw unauthorized();
    return this.tokenRecord;
  }

  get org(): OrgState {
    if (!this.orgState) throw unauthorized();
    return this.orgState;
  }

  get user(): User {
    if (!this.userRecord) throw unauthorized();
    return this.userRecord;
  }

  get access(): Access {
    return (this.accessCache ??= new Access(this.org, this.user));
  }

  /**
   * One timestamp per request, so every record a request touches shows the same instant; on the emulator clock
   * (wall time plus what the control endpoint advanced it by), which also drives simulated rollouts.
   */
  get now(): string {
    return (this.nowCache ??= this.store.rollouts.nowIso());
  }

  /** Record what this write did; kept only if the request succeeds (reads and refused requests record nothing). */
  audit(entry: AuditEntry): void {
    this.auditEntries.push(entry);
  }

  /** Turn the queued entries into audit records (after a successful write, before it is made durable). */
  commitAudit(): void {
    for (const entry of this.auditEntries) {
      const org = entry.org ?? this.org;
      const user = entry.user ?? this.user;
      const record: AuditRecord = {
        id: this.store.nextAuditId(),
        description: entry.description,
        action: entry.action,
        type: entry.type,
        resourceId: entry.resourceId,
        resourceType: entry.resourceType,
        resourceName: entry.resourceName,
        userId: user.id,
        userEmail: user.email,
        userIpAddress: this.ip,
        createdAt: this.now,
        updatedAt: this.now,
      };
      org.appendAudit(record);
    }
    this.auditEntries.length = 0;
  }

  /** The JSON body as an object; no body counts as an empty object, any other JSON value is a bad request. */
  get body(): Record<string, unknown> {
    const body = this.rawBody;
    if (body === undefined || body === null) return {};
    if (typeof body !== "object" || Array.isArray(body)) throw badRequest();
    return body as Record<string, unknown>;
  }

  page<T, R>(items: readonly T[], render: (item: T) => R): Page<R> {
    const request = parsePageRequest(this.services.pageQuery, this.query);
    return paginate(items, request, this.origin + this.path, this.query, render);
  }
}
