/** What goes on the wire, what comes back parsed, and what the debug log shows (MockAgent). */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import {
  DeviceMgmtClient,
  parentIdOf,
  resolveEndpoints,
  UnauthorizedError,
  ValidationError,
} from "../../provider/client";
import { ConnectionSettingError } from "../../provider/errors";
import { allowV3Token, BASE_URL, group, JSON_HEADERS, mockClient, ORIGIN, uniqueToken } from "./fixtures";

const PACKAGE_VERSION = (
  JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string }
).version;

function headersOf(options: { headers?: unknown }): Record<string, string> {
  const raw = options.headers;
  if (raw === undefined || raw === null) return {};
  if (raw instanceof Headers) return Object.fromEntries(raw.entries());
  return Object.fromEntries(
    Object.entries(raw as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
  );
}

describe("base URL", () => {
  test("with or without a trailing slash; token-info lives at the version-less root", () => {
    expect(resolveEndpoints("http://h:1/api/v3")).toEqual({
      baseUrl: "http://h:1/api/v3",
      apiRoot: "http://h:1/api",
    });
    expect(resolveEndpoints("https://h/x/api/v3/")).toEqual({
      baseUrl: "https://h/x/api/v3",
      apiRoot: "https://h/x/api",
    });
  });

  /** What a base URL is refused with: the one error class of connection settings, naming where it came from. */
  const refusal = (baseUrl: string, source?: string): ConnectionSettingError => {
    try {
      resolveEndpoints(baseUrl, source);
    } catch (error) {
      expect(error).toBeInstanceOf(ConnectionSettingError);
      return error as ConnectionSettingError;
    }
    throw new Error(`${baseUrl} was accepted`);
  };

  test("anything else is refused with a ConnectionSettingError naming the setting and the URL to use", () => {
    expect(refusal("http://h/api/v2")).toMatchObject({
      property: "baseUrl",
      fix: expect.stringContaining("Use http://h/api/v3 (v2 is not supported)"),
    });
    expect(refusal("http://h/", "devicemgmt:baseUrl")).toMatchObject({
      property: "devicemgmt:baseUrl",
      fix: expect.stringContaining("Use http://h/api/v3."),
    });
    expect(refusal("ftp://h/api/v3").fix).toMatch(/got a "ftp:" URL/);
    expect(refusal("not a url").fix).toMatch(/the value given is not a URL/);
    // Credentials and the query string stay out of the message.
    expect(refusal("https://user:secret@h/x?token=secret").message).not.toContain("secret");
  });

  test("a client without a token cannot be created", () => {
    expect(() => new DeviceMgmtClient({ baseUrl: BASE_URL, apiToken: " " })).toThrow(ConnectionSettingError);
    expect(() => new DeviceMgmtClient({ baseUrl: BASE_URL, apiToken: " " })).toThrow(
      expect.objectContaining({
        property: "apiToken",
        fix: expect.stringMatching(/Settings > Access Tokens/),
      }),
    );
  });
});

describe("request headers", () => {
  test("authenticated calls send Accept, Bearer authorization and the package User-Agent", async () => {
    const { client, pool, token } = mockClient({ baseUrl: `${BASE_URL}/` });
    let seen: Record<string, string> = {};
    pool.intercept({ path: "/api/v3/current-organization" }).reply((options) => {
      seen = headersOf(options);
      return {
        statusCode: 200,
        data: {
          id: "45c48cce-2e2d-4fbd-a7a6-4a3e2b1c0d9e",
          name: "Org",
          slug: "org",
          createdAt: "2024-05-01T10:00:00.000Z",
          updatedAt: "2024-05-01T10:00:00.000Z",
        },
        responseOptions: { headers: JSON_HEADERS },
      };
    });
    await client.currentOrganization();
    expect(seen.accept).toBe("application/json");
    expect(seen.authorization).toBe(`Bearer ${token}`);
    expect(seen["user-agent"]).toBe(`pulumi-devicemgmt/${PACKAGE_VERSION}`);
  });

  test("GET / is sent without authorization", async () => {
    const { client, pool } = mockClient();
    let seen: Record<string, string> = {};
    pool.intercept({ path: "/api/v3/" }).reply((options) => {
      seen = headersOf(options);
      return {
        statusCode: 200,
        data: {
          name: "Device Management API",
          version: "v3",
          documentation: "https://docs.example",
          authentication: "Bearer",
          rateLimiting: "2000 requests per minute per organization.",
          contact: "support@example.com",
          termsOfService: "https://example.com/terms",
          somethingNew: { nested: true },
        },
        responseOptions: { headers: JSON_HEADERS },
      };
    });
    const info = await client.apiInfo();
    expect(info.version).toBe("v3");
    expect(seen.authorization).toBeUndefined();
    expect(seen.accept).toBe("application/json");
    // Unknown fields are tolerated and not passed on.
    expect(info).not.toHaveProperty("somethingNew");
  });

  test("writes send a JSON body; 204 answers resolve to undefined", async () => {
    const { client, pool } = mockClient();
    allowV3Token(pool);
    const groupId = "d3d94468-02a4-4b1f-8e2d-9c1f0a7b6e5d";
    const channelId = "6512bd43-d9ca-46e0-8b7e-1a2b3c4d5e6f";
    let body = "";
    let contentType = "";
    pool
      .intercept({ path: `/api/v3/groups/${groupId}/release-channels`, method: "POST" })
      .reply((options) => {
        body = String(options.body);
        contentType = headersOf(options)["content-type"];
        return { statusCode: 204, data: "" };
      });
    await expect(client.groups.addReleaseChannel(groupId, channelId)).resolves.toBeUndefined();
    expect(JSON.parse(body)).toEqual({ releaseChannelId: channelId });
    expect(contentType).toBe("application/json");
  });

  test("group create sends parentId null explicitly for a root group; parentIdOf reads the expanded parent", async () => {
    const { client, pool } = mockClient();
    allowV3Token(pool);
    let sent: unknown;
    const parent = group({ name: "Folder" });
    pool.intercept({ path: "/api/v3/groups", method: "POST" }).reply((options) => {
      sent = JSON.parse(String(options.body));
      return {
        statusCode: 201,
        data: group({ name: "Leaf", parent }),
        responseOptions: { headers: JSON_HEADERS },
      };
    });
    const created = await client.groups.create({ name: "Leaf", parentId: null });
    expect(sent).toEqual({ name: "Leaf", parentId: null });
    expect(created.parent?.id).toBe(parent.id);
    expect(parentIdOf(created)).toBe(parent.id);
    expect(parentIdOf({ parent: null })).toBeNull();
  });

  test("path segments are escaped", async () => {
    const { client, pool } = mockClient();
    pool.intercept({ path: "/api/v3/groups/a%2F..%2Fusers" }).reply(404, { message: "Not Found" });
    await expect(client.groups.get("a/../users")).rejects.toThrow(/404/);
  });
});

describe("debug log and token secrecy", () => {
  const original = process.env.DEVICEMGMT_LOG;
  afterEach(() => {
    if (original === undefined) delete process.env.DEVICEMGMT_LOG;
    else process.env.DEVICEMGMT_LOG = original;
    jest.restoreAllMocks();
  });

  function captureStderr(): string[] {
    const lines: string[] = [];
    jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    return lines;
  }

  test("DEVICEMGMT_LOG=debug writes one line per attempt to stderr: method, path, status, ms, retry", async () => {
    const { client, pool } = mockClient();
    const id = "c9f0f895-fb98-4b91-9f2b-0e1d2c3b4a59";
    pool.intercept({ path: `/api/v3/groups/${id}` }).reply(503, { message: "Service Unavailable" });
    pool.intercept({ path: `/api/v3/groups/${id}` }).reply(200, group({ id }), { headers: JSON_HEADERS });
    const lines = captureStderr();
    process.env.DEVICEMGMT_LOG = "debug"; // read at call time
    await client.groups.get(id);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^devicemgmt: GET /api/v3/groups/${id} 503 \\d+ms retry=0\\n$`));
    expect(lines[1]).toMatch(new RegExp(`^devicemgmt: GET /api/v3/groups/${id} 200 \\d+ms retry=1\\n$`));
  });

  test("DEVICEMGMT_LOG=retries writes only the attempts of retried requests: the failed one and the retry", async () => {
    const { client, pool } = mockClient();
    const [retried, once, missing] = [
      "c9f0f895-fb98-4b91-9f2b-0e1d2c3b4a59",
      "45c48cce-2e2d-4fbd-aa1a-f0e4f1e5a6b7",
      "d3d94468-02a4-4b8e-9c1a-6f2b3c4d5e6f",
    ];
    pool.intercept({ path: `/api/v3/groups/${retried}` }).reply(503, { message: "Service Unavailable" });
    pool
      .intercept({ path: `/api/v3/groups/${retried}` })
      .reply(200, group({ id: retried }), { headers: JSON_HEADERS });
    pool
      .intercept({ path: `/api/v3/groups/${once}` })
      .reply(200, group({ id: once }), { headers: JSON_HEADERS });
    pool.intercept({ path: `/api/v3/groups/${missing}` }).reply(404, { message: "Not Found" });
    const lines = captureStderr();
    process.env.DEVICEMGMT_LOG = "retries";
    await client.groups.get(once);
    await expect(client.groups.get(missing)).rejects.toThrow(/404/);
    expect(lines).toEqual([]); // a success at once and an answer that is not retried
    await client.groups.get(retried);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^devicemgmt: GET /api/v3/groups/${retried} 503 \\d+ms retry=0\\n$`));
    expect(lines[1]).toMatch(new RegExp(`^devicemgmt: GET /api/v3/groups/${retried} 200 \\d+ms retry=1\\n$`));
  });

  test("nothing is logged without DEVICEMGMT_LOG=debug", async () => {
    delete process.env.DEVICEMGMT_LOG;
    const { client, pool } = mockClient();
    pool.intercept({ path: "/api/v3/groups?page=1&per_page=100" }).reply(401, { message: "Unauthorized" });
    allowV3Token(pool);
    const lines = captureStderr();
    await expect(client.groups.all()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(lines).toEqual([]);
  });

  test("the token appears in no error message and no debug line, even when the server echoes it", async () => {
    const token = uniqueToken();
    const secretPart = token.slice(token.indexOf("|") + 1);
    const { client, pool } = mockClient({ apiToken: token });
    const echo = `Invalid token ${token} (secret ${secretPart}); header was Bearer ${token}`;
    pool.intercept({ path: "/api/token-info" }).reply(401, { message: echo });
    pool.intercept({ path: "/api/v3/current-user" }).reply(401, { message: echo });
    pool
      .intercept({ path: "/api/v3/users?page=1&per_page=100" })
      .reply(422, { message: echo, errors: { [`field_${secretPart}`]: [echo] } });
    pool.intercept({ path: "/api/v3/users?page=1" }).reply(422, { message: echo, errors: { token: [echo] } });
    pool.intercept({ path: (p) => p.startsWith("/api/v3/roles/") }).reply(404, { message: echo });

    const lines = captureStderr();
    process.env.DEVICEMGMT_LOG = "debug";
    const errors = await Promise.all([
      client.currentUser().catch((e: unknown) => e),
      client.users.all().catch((e: unknown) => e),
      client.roles.get(`x${token}`).catch((e: unknown) => e),
      client.assertV3Token().catch((e: unknown) => e),
    ]);
    expect(errors[1]).toBeInstanceOf(ValidationError);
    const texts = [
      ...lines,
      ...errors.flatMap((e) => {
        const error = e as Error & { cause?: unknown };
        return [
          error.message,
          String(error.stack),
          JSON.stringify(error),
          JSON.stringify(error.cause ?? null),
        ];
      }),
    ];
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(texts.join("\n")).toContain("[REDACTED]");
    for (const text of texts) {
      expect(text).not.toContain(secretPart);
      expect(text).not.toContain(token);
    }
  });

  test("the client does not expose the token through JSON or enumerable properties", () => {
    const token = uniqueToken();
    const client = new DeviceMgmtClient({ baseUrl: `${ORIGIN}/api/v3`, apiToken: token });
    expect(JSON.stringify(client)).not.toContain(token.slice(token.indexOf("|") + 1));
  });
});
