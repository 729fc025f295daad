// A resource's connection without Pulumi or HTTP: a move to another organization of a kind replaced delete-first,
// the connection a resource carries (connectionOf), and the connection settings from stack config and environment.
import { UNKNOWN, connectionOf, diffKind } from "../../provider/framework";
import { clientFor, resolveConnection, stackSettingsFrom } from "../../provider/connection";
import { DEFAULT_PROCESSING_TIMEOUT_MS } from "../../provider/client";
import { groupFileKind } from "../../provider/kinds/attachment/definitions";
import { ConnectionSettingError, OrganizationMoveError } from "../../provider/errors";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";

describe("a connection move to another organization of a kind replaced delete-first", () => {
  const olds = { groupId: A, fileId: B, connection: { baseUrl: "http://x/api/v3", apiToken: "1|old" } };
  const moved = { ...olds, connection: { baseUrl: "http://x/api/v3", apiToken: "2|other" } };

  it("is refused (delete-first would detach in the first organization before the other attaches)", () => {
    let refused: unknown;
    try {
      diffKind(groupFileKind, olds, moved, false);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(OrganizationMoveError);
    expect(refused).toMatchObject({
      kind: "GroupFile",
      property: "connection",
      fix: "declare it under a new resource name with the new connection",
    });
    // A changed base URL the API could not judge counts as another organization too.
    const otherUrl = { ...olds, connection: { baseUrl: "http://y/api/v3", apiToken: "1|old" } };
    expect(() => diffKind(groupFileKind, olds, otherUrl)).toThrow(OrganizationMoveError);
  });

  it("a new token of the same organization stays an in-place update", () => {
    expect(diffKind(groupFileKind, olds, moved, true)).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("a resource's own connection (connectionOf)", () => {
  it("reads what check left, keeps a value not known yet, and is none where no object is", () => {
    const connection = { baseUrl: "https://h.example/api/v3", apiToken: "1|t", allowInsecureHttp: true };
    expect(connectionOf({ connection })).toEqual(connection);
    expect(connectionOf({ connection: { baseUrl: UNKNOWN } })).toEqual({ baseUrl: UNKNOWN });
    expect(connectionOf({ connection: UNKNOWN })).toBeUndefined();
    expect(connectionOf({ connection: null })).toBeUndefined();
    expect(connectionOf({})).toBeUndefined();
  });
});

describe("connection settings", () => {
  const env = { DEVICEMGMT_BASE_URL: "http://127.0.0.1:8080/api/v3", DEVICEMGMT_API_TOKEN: "9|env" };

  it("prefers the resource's connection, then stack config, then the environment", () => {
    expect(
      resolveConnection(
        { apiToken: "1|res" },
        { baseUrl: "https://stack.example/api/v3", apiToken: "2|stack" },
        env,
      ),
    ).toEqual({
      baseUrl: "https://stack.example/api/v3",
      apiToken: "1|res",
    });
    expect(resolveConnection(undefined, {}, env)).toEqual({
      baseUrl: "http://127.0.0.1:8080/api/v3",
      apiToken: "9|env",
    });
  });

  it("plain http to another machine from stack config or environment needs the stack-wide opt-in", () => {
    const stack = { baseUrl: "http://stack/api/v3", apiToken: "2|stack" };
    expect(() => resolveConnection(undefined, stack, {})).toThrow(/devicemgmt:allowInsecureHttp/);
    expect(resolveConnection(undefined, { ...stack, allowInsecureHttp: true }, {})).toEqual({
      baseUrl: "http://stack/api/v3",
      apiToken: "2|stack",
    });
    expect(resolveConnection(undefined, stack, { DEVICEMGMT_ALLOW_INSECURE_HTTP: "true" }).baseUrl).toBe(
      "http://stack/api/v3",
    );
    const fromEnv = { DEVICEMGMT_BASE_URL: "http://env/api/v3", DEVICEMGMT_API_TOKEN: "9|env" };
    expect(() => resolveConnection(undefined, {}, fromEnv)).toThrow(/^DEVICEMGMT_BASE_URL .*in clear/);
    expect(
      resolveConnection(undefined, {}, { ...fromEnv, DEVICEMGMT_ALLOW_INSECURE_HTTP: "TRUE" }).baseUrl,
    ).toBe("http://env/api/v3");
    expect(resolveConnection(undefined, { allowInsecureHttp: true }, fromEnv).baseUrl).toBe(
      "http://env/api/v3",
    );
    // The stack-wide opt-in does not reach a resource's own connection: that one has its own flag.
    expect(() =>
      resolveConnection({ baseUrl: "http://res/api/v3" }, { ...stack, allowInsecureHttp: true }, {}),
    ).toThrow(/connection\.baseUrl .*allowInsecureHttp: true/);
  });

  it("a missing token names all three ways to give one", () => {
    expect(() => resolveConnection(undefined, { baseUrl: "http://127.0.0.1/api/v3" }, {})).toThrow(
      /devicemgmt:apiToken.*DEVICEMGMT_API_TOKEN.*connection/s,
    );
  });

  it("reads stack config by its full namespaced keys and validates requestsPerMinute", () => {
    const config: Record<string, string> = {
      "devicemgmt:baseUrl": "http://localhost:8080/api/v3",
      "devicemgmt:requestsPerMinute": "500",
    };
    expect(stackSettingsFrom((k) => config[k], {})).toEqual({
      baseUrl: "http://localhost:8080/api/v3",
      requestsPerMinute: 500,
    });
    expect(() => stackSettingsFrom((k) => ({ "devicemgmt:requestsPerMinute": "fast" })[k])).toThrow(
      /whole number of at least 1/,
    );
  });

  it("reads the upload part and processing timeouts in seconds, refusing what is not a whole number from 1", () => {
    const config: Record<string, string> = {
      "devicemgmt:uploadPartTimeoutSeconds": "600",
      "devicemgmt:processingTimeoutSeconds": "7200",
    };
    expect(stackSettingsFrom((k) => config[k], {})).toEqual({
      uploadPartTimeoutSeconds: 600,
      processingTimeoutSeconds: 7200,
    });
    for (const key of ["devicemgmt:uploadPartTimeoutSeconds", "devicemgmt:processingTimeoutSeconds"])
      for (const bad of ["0", "-5", "1.5", "ten", "30s"]) {
        const refused = (() => {
          try {
            stackSettingsFrom((k) => ({ [key]: bad })[k], {});
          } catch (error) {
            return error;
          }
        })();
        expect(refused).toBeInstanceOf(ConnectionSettingError);
        expect(refused).toMatchObject({
          property: key,
          message: `${key} must be a whole number of at least 1, got "${bad}".`,
        });
      }
  });

  it("gives the client the stack's timeouts (a client per setting, the default without one)", () => {
    const settings = { baseUrl: "http://localhost:8080/api/v3", apiToken: "t-timeouts" };
    expect(clientFor(settings).processingTimeoutMs).toBe(DEFAULT_PROCESSING_TIMEOUT_MS);
    expect(clientFor({ ...settings, processingTimeoutSeconds: 5 }).processingTimeoutMs).toBe(5000);
    expect(clientFor({ ...settings, uploadPartTimeoutSeconds: 9 }).storageTimeoutMs).toBe(9000);
  });

  it("reads devicemgmt:allowInsecureHttp as true or false", () => {
    const config: Record<string, string> = {
      "devicemgmt:baseUrl": "http://devices.lan/api/v3",
      "devicemgmt:allowInsecureHttp": "true",
    };
    expect(stackSettingsFrom((k) => config[k], {})).toEqual({
      baseUrl: "http://devices.lan/api/v3",
      allowInsecureHttp: true,
    });
    expect(
      stackSettingsFrom((k) => ({ "devicemgmt:baseUrl": "http://devices.lan/api/v3" })[k], {
        DEVICEMGMT_ALLOW_INSECURE_HTTP: "true",
      }).baseUrl,
    ).toBe("http://devices.lan/api/v3");
    expect(() => stackSettingsFrom((k) => ({ "devicemgmt:allowInsecureHttp": "yes" })[k], {})).toThrow(
      /devicemgmt:allowInsecureHttp must be true or false, got "yes"/,
    );
  });
});
