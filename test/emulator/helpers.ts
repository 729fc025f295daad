/** Real-HTTP helpers for the emulator suite: every call goes through a socket to 127.0.0.1. */
import { request } from "undici";
import { startEmulator } from "../../emulator";
import type { EmulatorOptions, RunningEmulator } from "../../emulator";

/** Response bodies are asserted field by field in the tests, so they are typed loosely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiResponse<T = Json> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

export interface CallOptions {
  token?: string | null;
  accept?: string | null;
  body?: unknown;
  rawBody?: string;
  query?: Record<string, string | number | (string | number)[]>;
}

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function queryString(query: CallOptions["query"]): string {
  if (!query) return "";
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value])
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

/** Call `url` (absolute) and parse a JSON answer; an empty body comes back as undefined. */
export async function call<T = Json>(
  method: string,
  url: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {};
  if (options.accept !== null) headers.accept = options.accept ?? "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await request(url + queryString(options.query), {
    method: method as "GET",
    headers,
    body,
  });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as T,
  };
}

/** A client bound to one emulator and one token; paths are relative to /api/v3. */
export function client(emulator: RunningEmulator, token: string) {
  const at = (path: string) => emulator.baseUrl + path;
  return {
    token,
    get: <T = Json>(path: string, options: CallOptions = {}) =>
      call<T>("GET", at(path), { token, ...options }),
    post: <T = Json>(path: string, body?: unknown, options: CallOptions = {}) =>
      call<T>("POST", at(path), { token, body, ...options }),
    put: <T = Json>(path: string, body?: unknown, options: CallOptions = {}) =>
      call<T>("PUT", at(path), { token, body, ...options }),
    patch: <T = Json>(path: string, body?: unknown, options: CallOptions = {}) =>
      call<T>("PATCH", at(path), { token, body, ...options }),
    delete: <T = Json>(path: string, options: CallOptions = {}) =>
      call<T>("DELETE", at(path), { token, ...options }),
  };
}

export type Client = ReturnType<typeof client>;

export async function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ quiet: true, ...options });
}

/** Runs `run` against an emulator of its own, started with `options`, with an admin client; closes it after. */
export async function withEmulator(
  options: EmulatorOptions,
  run: (emulator: RunningEmulator, admin: Client) => Promise<void>,
): Promise<void> {
  const emulator = await start(options);
  try {
    await run(emulator, client(emulator, emulator.tokens.admin));
  } finally {
    await emulator.close();
  }
}

/** Every item of a list endpoint, following `links.next`. */
export async function listAll<T = Json>(api: Client, path: string): Promise<T[]> {
  const items: T[] = [];
  let response = await api.get(path, { query: { per_page: 100 } });
  for (;;) {
    expect(response.status).toBe(200);
    items.push(...response.body.data);
    const next: string | null = response.body.links.next;
    if (!next) return items;
    response = await call("GET", next, { token: api.token });
  }
}

/** A group tree helper: create a group and return its id. */
export async function createGroup(api: Client, name: string, parentId: string | null): Promise<string> {
  const response = await api.post("/groups", { name, parentId });
  expect(response.status).toBe(201);
  return response.body.id as string;
}

export async function createConfiguredGroup(
  api: Client,
  name: string,
  parentId: string | null,
): Promise<string> {
  const id = await createGroup(api, name, parentId);
  const response = await api.patch(`/groups/${id}/configure`);
  expect(response.status).toBe(200);
  return id;
}

export function validationErrors(response: ApiResponse): Record<string, string[]> {
  expect(response.status).toBe(422);
  expect(response.body.message).toBe("Unprocessable Entity");
  return response.body.errors;
}
