// A lookup that can never reach the API (no token anywhere) is refused by a synchronous throw at the call, not by
// a rejected promise (a resource is not: its calls run in the plugin, whose environment decides): a rejection inside an `apply` was seen to make a Node.js
// language host (~3.260, built from the engine's source) wait 10 minutes without a word, while every host reports
// an exception thrown as the program runs (provider/connectionAtCall.ts). What a real project-folder `pulumi up`
// with that host does cannot be run here: the host is not installed and cannot be fetched (the Go module proxy
// answers 403), and this build's CLI has no language host at all. So this file asserts the throw itself, for every
// lookup the package exports, and that no resource kind throws, under the SDK's mocks; test/programs/noToken.test.ts runs
// the README's Quick start without a token through the CLI, where the inline host reports the same throw.
import * as pulumi from "@pulumi/pulumi";
import { ConnectionSettingError } from "../../provider/errors";

const BASE_URL = "http://127.0.0.1:1/api/v3";
const SECRET_TOKEN = "43|stackSecretMustNotLeak0123456789abcdefXYZ";

// setMocks installs the mocks before it returns; a failure its promise carries fails the tests (beforeAll).
const mocksSet = pulumi.runtime.setMocks(
  {
    newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
    call: () => ({}),
  },
  "connection-at-call-test",
  "dev",
  false,
);
beforeAll(() => mocksSet);

// Imported after setMocks, as a program would be.
const dm: typeof import("../../provider") = require("../../provider");

/** The package's lookups, both forms: every exported function named get<Something>. */
const lookups = Object.entries(dm as Record<string, unknown>).filter(
  (entry): entry is [string, (...args: unknown[]) => unknown] =>
    /^get[A-Z]/.test(entry[0]) && typeof entry[1] === "function",
);

/** The package's resource classes: every exported subclass of DeviceMgmtResource. */
const kinds = Object.entries(dm as Record<string, unknown>).filter(
  (entry): entry is [string, new (name: string, args: object) => pulumi.CustomResource] =>
    typeof entry[1] === "function" && entry[1].prototype instanceof dm.DeviceMgmtResource,
);

/** What `fn` threw synchronously, or undefined; what it returned is kept so that a promise is not left unhandled. */
function thrownBy(fn: () => unknown): unknown {
  try {
    const result = fn();
    if (result instanceof Promise) result.catch(() => undefined);
  } catch (error) {
    return error;
  }
  return undefined;
}

const saved = { ...process.env };
function useStack(config: Record<string, string>, env: Record<string, string> = {}): void {
  pulumi.runtime.setAllConfig(
    { "devicemgmt:maxRetries": "0", ...config },
    Object.keys(config).filter((key) => key === "devicemgmt:apiToken"),
  );
  for (const key of ["DEVICEMGMT_BASE_URL", "DEVICEMGMT_API_TOKEN"]) delete process.env[key];
  Object.assign(process.env, env);
}
afterEach(() => {
  for (const key of ["DEVICEMGMT_BASE_URL", "DEVICEMGMT_API_TOKEN"]) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

describe("without a token anywhere", () => {
  beforeEach(() => useStack({ "devicemgmt:baseUrl": BASE_URL }));

  it("finds every lookup and resource kind the package exports", () => {
    // 20 lookups in two forms, 22 kinds: a count that drops means the filters above lost some.
    expect(lookups.length).toBeGreaterThanOrEqual(40);
    expect(kinds.length).toBeGreaterThanOrEqual(20);
  });

  it("every lookup, promise and Output form, throws at the call naming the three ways to give one", () => {
    for (const [name, lookup] of lookups) {
      const error = thrownBy(() => lookup({}));
      expect({ name, error }).toEqual({ name, error: expect.any(ConnectionSettingError) });
      expect(error).toMatchObject({ property: "devicemgmt:apiToken" });
      expect((error as Error).message).toMatch(/devicemgmt:apiToken.*DEVICEMGMT_API_TOKEN.*connection/s);
    }
  });

  it("no resource kind throws in its constructor: its calls run in the plugin, whose environment may hold the token", () => {
    // An Automation API program gives the CLI (and so the plugin) DEVICEMGMT_API_TOKEN through the workspace's
    // envVars, which the program's own process does not see: refusing here refused programs that work.
    for (const [name, Kind] of kinds) {
      expect({ name, error: thrownBy(() => new Kind(`no-token-${name}`, {})) }).toEqual({
        name,
        error: undefined,
      });
    }
  });

  it("a resource's or lookup's own plain connection with a token is enough", async () => {
    const connection = { baseUrl: BASE_URL, apiToken: "44|ownToken" };
    expect(thrownBy(() => new dm.Group("own-token", { name: "g", connection }))).toBeUndefined();
    // It passed the call's check: what fails now is the request to a port nobody listens on.
    const error = await dm.getRole({ name: "Admin" }, { connection }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ConnectionSettingError);
  });

  // (An Output form whose apply runs here would reject in it, unhandled, and end jest's worker: only the promise
  // forms are called where the call passes.)
  it("a resource's connection given as an Output is judged when it is known, not at the call", () => {
    const connection = pulumi.output({ baseUrl: BASE_URL });
    expect(thrownBy(() => new dm.Group("output-connection", { name: "g", connection }))).toBeUndefined();
    const promised = { baseUrl: BASE_URL, apiToken: pulumi.output("") };
    expect(thrownBy(() => new dm.Group("output-token", { name: "g", connection: promised }))).toBeUndefined();
  });
});

describe("a token found where the connection's resolution looks", () => {
  it("the environment's DEVICEMGMT_API_TOKEN", () => {
    useStack({ "devicemgmt:baseUrl": BASE_URL }, { DEVICEMGMT_API_TOKEN: "45|envToken" });
    expect(thrownBy(() => new dm.Group("env-token", { name: "g" }))).toBeUndefined();
    expect(thrownBy(() => dm.getCurrentUser())).toBeUndefined();
  });

  it("the stack's secret devicemgmt:apiToken; a refusal for another reason never shows it", () => {
    useStack({ "devicemgmt:baseUrl": BASE_URL, "devicemgmt:apiToken": SECRET_TOKEN });
    expect(thrownBy(() => new dm.Group("stack-token", { name: "g" }))).toBeUndefined();
    // The base URL is missing now: the token was read (synchronously, in plain text) but is in no message.
    useStack({ "devicemgmt:apiToken": SECRET_TOKEN });
    for (const call of [() => dm.getRoleOutput({ name: "Admin" }), () => dm.getCurrentUser()]) {
      const error = thrownBy(call) as ConnectionSettingError;
      expect(error).toBeInstanceOf(ConnectionSettingError);
      expect(error).toMatchObject({ property: "devicemgmt:baseUrl" });
      expect(`${error.message} ${error.fix} ${error.stack}`).not.toContain("stackSecretMustNotLeak");
    }
  });
});
