// Bad input is caught by `check` (so at preview), each failure naming the property and the fix; connection rules
// also hold where the stack config / environment connection is resolved.
import { groupHandler } from "../../provider/kinds/group/handler";
import { userHandler } from "../../provider/kinds/user/handler";
import { deviceMigrationHandler } from "../../provider/kinds/deviceMigration/handler";
import {
  deviceReleaseChannelHandler,
  groupReleaseChannelHandler,
} from "../../provider/kinds/attachment/definitions";
import { resolveConnection, stackSettingsFrom } from "../../provider/connection";
import type { ResourceHandler } from "../../provider/framework";
import { getGroup, getRole } from "../../provider";
import { startEmulator } from "../../emulator";
import { ValidationError } from "../../provider/client";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const long = (n: number) => "x".repeat(n);
const TOKEN = "1|token";

const valid: Record<string, { handler: ResourceHandler; inputs: Record<string, unknown> }> = {
  group: { handler: groupHandler, inputs: { name: "Lab" } },
  user: {
    handler: userHandler,
    inputs: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", defaultRoleId: A },
  },
  deviceMigration: {
    handler: deviceMigrationHandler,
    inputs: { deviceId: A, organizationSlug: "acme-staging" },
  },
  groupReleaseChannel: { handler: groupReleaseChannelHandler, inputs: { groupId: A, releaseChannelId: B } },
  deviceReleaseChannel: {
    handler: deviceReleaseChannelHandler,
    inputs: { deviceId: A, releaseChannelId: B },
  },
};

async function failuresOf(kind: string, changes: Record<string, unknown>) {
  const { handler, inputs } = valid[kind];
  const result = await handler.check({}, { ...inputs, ...changes });
  return result.failures ?? [];
}

describe("valid inputs pass", () => {
  it.each(Object.keys(valid))("%s", async (kind) => {
    expect(await failuresOf(kind, {})).toEqual([]);
    expect(
      await failuresOf(kind, {
        connection: { baseUrl: "https://devices.example.com/api/v3", apiToken: TOKEN },
      }),
    ).toEqual([]);
    expect(await failuresOf(kind, { connection: { baseUrl: "http://127.0.0.1:8080/api/v3/" } })).toEqual([]);
  });
});

describe("property values", () => {
  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ["group", "name", { name: long(256) }, /name.*at most 255/],
    ["user", "firstName", { firstName: long(256) }, /firstName.*at most 255.*shorten/],
    ["user", "lastName", { lastName: long(256) }, /lastName.*at most 255/],
    ["user", "email", { email: `${long(250)}@example.com` }, /email.*at most 255/],
    [
      "deviceMigration",
      "organizationSlug",
      { organizationSlug: "ACME-STAGING" },
      /lower-case.*use acme-staging/,
    ],
    ["deviceMigration", "organizationSlug", { organizationSlug: "no spaces!" }, /such as acme-staging/],
  ];
  it.each(cases)("%s %s", async (kind, property, changes, reason) => {
    const failures = await failuresOf(kind, changes);
    expect(failures.map((f) => f.property)).toEqual([property]);
    expect(failures[0].reason).toMatch(reason);
  });

  it("255 characters is still fine", async () => {
    expect(await failuresOf("group", { name: long(255) })).toEqual([]);
    expect(await failuresOf("user", { firstName: long(255), lastName: long(255) })).toEqual([]);
  });
});

describe("connection", () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      "ftp base URL",
      { baseUrl: "ftp://devices.example.com/api/v3" },
      /http\(s\).*\/api\/v3.*such as https:\/\//,
    ],
    [
      "javascript: base URL",
      { baseUrl: "javascript:alert(1)" },
      /connection\.baseUrl must be an http\(s\) URL/,
    ],
    [
      "base URL without /api/v3",
      { baseUrl: "https://devices.example.com" },
      /Use https:\/\/devices\.example\.com\/api\/v3/,
    ],
    [
      "base URL ending in /api/v2",
      { baseUrl: "https://h.example/api/v2" },
      /Use https:\/\/h\.example\/api\/v3/,
    ],
    ["not a URL", { baseUrl: "not a url" }, /connection\.baseUrl.*not a URL/],
    [
      "plain http to another host",
      { baseUrl: "http://devices.example.com/api/v3" },
      /in clear.*https:\/\/devices\.example\.com\/api\/v3.*allowInsecureHttp/s,
    ],
    ["whitespace token", { apiToken: "   " }, /connection\.apiToken is empty or only spaces/],
    ["empty token", { apiToken: "" }, /connection\.apiToken is empty/],
    [
      "non-boolean allowInsecureHttp",
      { allowInsecureHttp: "yes" },
      /allowInsecureHttp must be true or false/,
    ],
  ];
  for (const kind of Object.keys(valid)) {
    it.each(cases)(`${kind}: %s`, async (_name, connection, reason) => {
      const failures = await failuresOf(kind, { connection });
      expect(failures.map((f) => f.property)).toEqual(["connection"]);
      expect(failures[0].reason).toMatch(reason);
      expect(failures[0].reason).toMatch(/connection\.(baseUrl|apiToken|allowInsecureHttp)/);
      expect(failures[0].reason).not.toMatch(/nullalert/);
    });
  }

  it("plain http is fine to loopback, and elsewhere when explicitly allowed", async () => {
    for (const baseUrl of [
      "http://localhost:8080/api/v3",
      "http://127.0.0.5/api/v3",
      "http://[::1]:9000/api/v3",
    ])
      expect(await failuresOf("group", { connection: { baseUrl } })).toEqual([]);
    expect(
      await failuresOf("group", {
        connection: { baseUrl: "http://devices.lan/api/v3", allowInsecureHttp: true },
      }),
    ).toEqual([]);
  });

  it("does not print credentials or a query from the URL", async () => {
    const [failure] = await failuresOf("group", {
      connection: { baseUrl: "https://user:secret@devices.example.com/v1?token=secret" },
    });
    expect(failure.reason).not.toMatch(/secret/);
  });
});

describe("connection resolution (stack config, environment, resource)", () => {
  const stack = { baseUrl: "https://stack.example/api/v3", apiToken: "2|stack" };

  it("an explicitly blank token is an error, not a fallback to the stack token", () => {
    expect(() => resolveConnection({ apiToken: "   " }, stack, {})).toThrow(/connection\.apiToken is empty/);
    expect(() => resolveConnection({ apiToken: "" }, stack, {})).toThrow(/connection\.apiToken is empty/);
    expect(resolveConnection({}, stack, {}).apiToken).toBe("2|stack");
  });

  it("a bad resource base URL is refused with the same message as check", () => {
    expect(() => resolveConnection({ baseUrl: "javascript:alert(1)" }, stack, {})).toThrow(
      /^connection\.baseUrl must be an http\(s\) URL ending in \/api\/v3, such as https:\/\//,
    );
    expect(() => resolveConnection({ baseUrl: "http://devices.example.com/api/v3" }, stack, {})).toThrow(
      /in clear/,
    );
    expect(
      resolveConnection({ baseUrl: "http://devices.lan/api/v3", allowInsecureHttp: true }, stack, {}).baseUrl,
    ).toBe("http://devices.lan/api/v3");
  });

  it.each([
    ["ftp://h.example/api/v3", /devicemgmt:baseUrl must be an http\(s\) URL.*"ftp:"/],
    ["javascript:alert(1)", /devicemgmt:baseUrl must be an http\(s\) URL/],
    ["https://h.example/", /devicemgmt:baseUrl.*Use https:\/\/h\.example\/api\/v3/],
  ])("a bad devicemgmt:baseUrl %s is refused when the stack config is read", (baseUrl, reason) => {
    expect(() => stackSettingsFrom((k) => ({ "devicemgmt:baseUrl": baseUrl })[k])).toThrow(reason);
    expect(() => resolveConnection(undefined, { baseUrl, apiToken: TOKEN }, {})).toThrow(reason);
  });

  it("a bad DEVICEMGMT_BASE_URL is named as such", () => {
    expect(() =>
      resolveConnection(
        undefined,
        {},
        { DEVICEMGMT_BASE_URL: "ftp://h/api/v3", DEVICEMGMT_API_TOKEN: TOKEN },
      ),
    ).toThrow(/^DEVICEMGMT_BASE_URL must be an http\(s\) URL/);
  });

  it("a connection without a token (an unset secret) falls back to the stack's token, then the environment's", async () => {
    const connection = { baseUrl: "https://other.example/api/v3", apiToken: undefined };
    expect(await failuresOf("user", { connection })).toEqual([]);
    expect(resolveConnection(connection, stack, {})).toEqual({
      baseUrl: "https://other.example/api/v3",
      apiToken: "2|stack",
    });
    expect(resolveConnection(connection, {}, { DEVICEMGMT_API_TOKEN: "3|env" }).apiToken).toBe("3|env");
  });
});

describe("plain http to another machine, from each source", () => {
  const SECRET = "7|do-not-print-me";
  const secretPart = "do-not-print-me";
  const config = (values: Record<string, string>) => (key: string) => values[key];

  it("stack config devicemgmt:baseUrl: refused when the config is read, naming the property and the opt-in", () => {
    const get = config({ "devicemgmt:baseUrl": "http://devices.lan/api/v3", "devicemgmt:apiToken": SECRET });
    let message = "";
    try {
      stackSettingsFrom(get, {});
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^devicemgmt:baseUrl "http:\/\/devices\.lan\/api\/v3" uses plain http/);
    expect(message).toMatch(/Use https:\/\/devices\.lan\/api\/v3/);
    expect(message).toMatch(/pulumi config set devicemgmt:allowInsecureHttp true/);
    expect(message).toMatch(/DEVICEMGMT_ALLOW_INSECURE_HTTP=true/);
    expect(message).not.toContain(secretPart);
    expect(() =>
      resolveConnection(undefined, { baseUrl: "http://devices.lan/api/v3", apiToken: SECRET }, {}),
    ).toThrow(/^devicemgmt:baseUrl .*in clear/);
  });

  it("environment DEVICEMGMT_BASE_URL: refused where the connection is resolved", () => {
    const env = { DEVICEMGMT_BASE_URL: "http://10.0.0.7:8080/api/v3", DEVICEMGMT_API_TOKEN: SECRET };
    let message = "";
    try {
      resolveConnection(undefined, {}, env);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^DEVICEMGMT_BASE_URL "http:\/\/10\.0\.0\.7:8080\/api\/v3" uses plain http/);
    expect(message).toMatch(/devicemgmt:allowInsecureHttp/);
    expect(message).not.toContain(secretPart);
  });

  it("resource connection.baseUrl: refused at check, naming the connection's own opt-in", async () => {
    const [failure] = await failuresOf("user", {
      connection: { baseUrl: "http://devices.lan/api/v3", apiToken: SECRET },
    });
    expect(failure.property).toBe("connection");
    expect(failure.reason).toMatch(/connection\.baseUrl .*allowInsecureHttp: true/);
    expect(failure.reason).not.toContain(secretPart);
  });

  it("loopback is always allowed, from every source, without an opt-in", () => {
    for (const baseUrl of [
      "http://127.0.0.1:8080/api/v3",
      "http://127.1.2.3/api/v3",
      "http://[::1]:9000/api/v3",
      "http://localhost/api/v3",
    ]) {
      expect(stackSettingsFrom(config({ "devicemgmt:baseUrl": baseUrl }), {}).baseUrl).toBe(baseUrl);
      expect(
        resolveConnection(undefined, { apiToken: TOKEN }, { DEVICEMGMT_BASE_URL: baseUrl }).baseUrl,
      ).toBe(baseUrl);
      expect(resolveConnection({ baseUrl }, { apiToken: TOKEN }, {}).baseUrl).toBe(baseUrl);
    }
  });

  it("the opt-in must be true or false", () => {
    expect(() => stackSettingsFrom(config({ "devicemgmt:allowInsecureHttp": "yes" }), {})).toThrow(
      /^devicemgmt:allowInsecureHttp must be true or false, got "yes"/,
    );
    expect(() =>
      resolveConnection(
        undefined,
        { apiToken: TOKEN },
        { DEVICEMGMT_BASE_URL: "http://devices.lan/api/v3", DEVICEMGMT_ALLOW_INSECURE_HTTP: "1" },
      ),
    ).toThrow(/^DEVICEMGMT_ALLOW_INSECURE_HTTP must be true or false, got "1"/);
  });
});

describe("lookup misuse is refused before any request", () => {
  // A connection that passes the call's check (connectionAtCall.ts) and reaches nothing: a request would fail otherwise.
  const options = { connection: { baseUrl: "http://127.0.0.1:1/api/v3", apiToken: "1|unused" } };

  it("getRole({})", async () => {
    await expect(getRole({} as never, options)).rejects.toThrow(
      /getRole: argument "name" must be the role's name/,
    );
  });

  it('getGroup({ id: ".." })', async () => {
    await expect(getGroup({ id: ".." }, options)).rejects.toThrow(
      /argument "id" must be the UUID of a group.*got "\.\."/s,
    );
  });
});

describe("a migration to a group the target organization does not have", () => {
  it("fails with the server's reason naming groupId, and the device stays", async () => {
    const emulator = await startEmulator({ port: 0 });
    try {
      const [device] = emulator.snapshot().devices;
      const inputs = {
        deviceId: device.id,
        organizationSlug: "acme-staging",
        groupId: "34343434-3434-4343-8343-343434343434",
        connection: { baseUrl: emulator.baseUrl, apiToken: emulator.tokens.multiOrgAdmin },
      };
      const checked = await deviceMigrationHandler.check({}, inputs);
      expect(checked.failures ?? []).toEqual([]);
      const error = await deviceMigrationHandler.create(checked.inputs!).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ status: 422, fieldErrors: { groupId: expect.any(Array) } });
      expect(error?.message).toMatch(/422/);
      expect(error?.message).toMatch(/groupId/);
      expect(error?.message).not.toContain(emulator.tokens.multiOrgAdmin.split("|")[1]);
      expect(emulator.snapshot().devices.find((d) => d.id === device.id)).toBeDefined();
    } finally {
      await emulator.close();
    }
  });
});
