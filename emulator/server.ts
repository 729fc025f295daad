/**
 * The HTTP layer: fastify routes for the API, with the checks every request goes through in the service's
 * order — route and path ids (404), Accept (400), token (401), rate limit (429) — then body parsing, injected
 * faults (latency, errors, 429 bursts), the handler, audit records, durability, and the reply.
 *
 * Injected latency is served after the body has been read: a request the server has fully received is
 * processed even if the client hangs up while it waits (as a real server does), every time — not only when
 * the socket happened to be read before it closed.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { z } from "zod";
import { ApiError, statusPhrase } from "./errors";
import type { FaultInjector, RequestFaults } from "./faults";
import type { StateFile } from "./persistence";
import type { FixedWindowRateLimiter } from "./rateLimit";
import {
  RequestContext,
  type AuthMode,
  type HandlerResult,
  type Query,
  type RouteDefinition,
  type SharedServices,
} from "./context";
import type { TokenRecord } from "./seed";
import type { StatsCollector } from "./stats";

export const API_V3_PREFIX = "/api/v3";
const API_ROOT = "/api";
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const pathId = z.guid();

interface RouteConfig {
  /** Stats key, e.g. "GET /groups/{groupId}". */
  key: string;
  auth: AuthMode;
  idParams: string[];
  /**
   * The OpenAPI declares no error for GET / and only 401 for token-info (spec part 7), so neither may answer
   * 400 for a missing or other Accept header.
   */
  acceptOptional: boolean;
}

declare module "fastify" {
  interface FastifyRequest {
    apiContext: RequestContext | null;
    injectedFaults: RequestFaults | null;
  }
}

export interface ServerParts {
  services: SharedServices;
  tokens: ReadonlyMap<string, TokenRecord>;
  limiter: FixedWindowRateLimiter;
  faults: FaultInjector;
  stats: StatsCollector;
  stateFile: StateFile | undefined;
  routes: readonly RouteDefinition[];
  registerControl(app: FastifyInstance): void;
}

function acceptsJson(header: string | undefined): boolean {
  if (!header) return false;
  for (const range of header.split(",")) {
    if (range.split(";")[0].trim().toLowerCase() === "application/json") return true;
  }
  return false;
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function sendError(reply: FastifyReply, status: number): FastifyReply {
  return reply.code(status).send({ message: statusPhrase(status) });
}

/** Destroy the connection without answering (a load balancer dropping it, a crash mid-request). */
function dropConnection(request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  request.raw.socket?.destroy();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function buildServer(parts: ServerParts): FastifyInstance {
  const { services, tokens, limiter, faults, stats, stateFile } = parts;
  const app = Fastify({ logger: false, exposeHeadRoutes: false, bodyLimit: 1024 * 1024 });
  app.decorateRequest("apiContext", null);
  app.decorateRequest("injectedFaults", null);

  // An empty body is no body (clients send Content-Type on bodiless DELETEs); malformed JSON is a 400.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(400), undefined);
    }
  });

  app.addHook("onRequest", async (request) => {
    if (!request.url.startsWith(API_ROOT + "/") && request.url !== API_ROOT) return;
    const config = request.routeOptions.config as Partial<RouteConfig>;
    stats.countRequest(config.key ?? `${request.method} (unmatched)`, WRITE_METHODS.has(request.method));
  });
  app.addHook("onResponse", async (request, reply) => {
    if (!request.url.startsWith(API_ROOT + "/") && request.url !== API_ROOT) return;
    stats.countStatus(reply.statusCode);
    const [path, query] = request.url.split("?", 2);
    stats.record({
      route: (request.routeOptions.config as Partial<RouteConfig>).key ?? `${request.method} (unmatched)`,
      path: path.startsWith(API_V3_PREFIX + "/") ? path.slice(API_V3_PREFIX.length) : path,
      query: query ?? "",
      body: request.body,
      status: reply.statusCode,
    });
  });

  app.setNotFoundHandler((_request, reply) => sendError(reply, 404));
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof ApiError) return reply.code(error.status).send(error.body);
    const status = (error as { statusCode?: number }).statusCode;
    // fastify's own client errors (body too large, unsupported media type...) keep their status class.
    if (status && status >= 400 && status < 500) return sendError(reply, status === 415 ? 400 : status);
    return sendError(reply, 500);
  });

  async function guard(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    const config = request.routeOptions.config as unknown as RouteConfig;
    const params = request.params as Record<string, string>;
    for (const name of config.idParams) {
      if (!pathId.safeParse(params[name]).success) return sendError(reply, 404);
      params[name] = params[name].toLowerCase();
    }
    if (!config.acceptOptional && !acceptsJson(request.headers.accept)) return sendError(reply, 400);

    const path = request.url.split("?", 1)[0];
    const ctx = new RequestContext(
      services,
      params,
      request.query as Query,
      `${request.protocol}://${request.host}`,
      path,
    );

    if (config.auth !== "none") {
      const presented = bearerToken(request.headers.authorization);
      const token = presented === undefined ? undefined : tokens.get(presented);
      const org = token && services.store.orgById(token.orgId);
      if (!token || !org) return sendError(reply, 401);
      if (config.auth === "user") {
        // v3 refuses v2 (organization-wide) tokens, and tokens whose user is gone.
        const user = token.kind === "v3" ? org.users.get(token.userId) : undefined;
        if (!user) return sendError(reply, 401);
        ctx.userRecord = user;
      }
      ctx.tokenRecord = token;
      ctx.orgState = org;

      const decision = limiter.hit(org.org.id);
      reply.header("X-RateLimit-Limit", decision.limit);
      reply.header("X-RateLimit-Remaining", decision.remaining);
      if (!decision.allowed) {
        stats.rateLimited++;
        if (decision.retryAfterSeconds !== undefined) reply.header("Retry-After", decision.retryAfterSeconds);
        if (decision.resetAt !== undefined) reply.header("X-RateLimit-Reset", decision.resetAt);
        return sendError(reply, 429);
      }
    }

    ctx.ip = request.ip ?? null;
    // The dice are drawn here, in request order; their effect waits until the body is in (applyFaults).
    request.injectedFaults = faults.forRequest();
    request.apiContext = ctx;
  }

  async function applyFaults(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    const injected = request.injectedFaults;
    if (!injected) return;
    if (injected.latencyMs > 0) await sleep(injected.latencyMs);
    if (injected.error) return sendError(reply, injected.error);
    if (injected.rateLimitBurst) {
      reply.header("X-RateLimit-Remaining", 0);
      reply.header("Retry-After", 1);
      return sendError(reply, 429);
    }
  }

  function register(route: RouteDefinition): void {
    const url = (route.underApiRoot ? API_ROOT : API_V3_PREFIX) + route.path;
    const write = WRITE_METHODS.has(route.method);
    const config: RouteConfig = {
      key: `${route.method} ${(route.path || "/").replace(/:(\w+)/g, "{$1}")}`,
      auth: route.auth,
      idParams: [...route.path.matchAll(/:(\w+Id)\b/g)].map((m) => m[1]),
      acceptOptional: route.auth === "none" || route.underApiRoot === true,
    };
    app.route({
      method: route.method,
      url,
      config,
      onRequest: guard,
      preHandler: applyFaults,
      handler: async (request, reply) => {
        const ctx = request.apiContext as RequestContext;
        ctx.rawBody = request.body;
        if (write && faults.dropBeforeWrite()) return dropConnection(request, reply);
        let result: HandlerResult;
        try {
          result = route.handler(ctx);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          result = { status: error.status, body: error.body };
        }
        if (write && result.status < 300) {
          ctx.commitAudit();
          await stateFile?.commit();
        }
        if (write && faults.dropAfterWrite()) return dropConnection(request, reply);
        if (route.answerMayBeLost && result.status < 300 && faults.loseAnswer(route.answerMayBeLost))
          return dropConnection(request, reply);
        reply.code(result.status);
        return result.body === undefined ? reply.send() : reply.send(result.body);
      },
    });
  }

  for (const route of parts.routes) register(route);
  // GET {base_url}/ is reachable with and without the trailing slash.
  const apiInfo = parts.routes.find((r) => r.method === "GET" && r.path === "/" && !r.underApiRoot);
  if (apiInfo) register({ ...apiInfo, path: "" });
  parts.registerControl(app);
  return app;
}
