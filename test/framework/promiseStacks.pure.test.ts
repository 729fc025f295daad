// While a resource of the package is constructed, the SDK's promise stacks (debuggablePromise) are left
// unformatted; every other stack reads as Node writes it, also for an error made then and read later, and a
// program's own formatting hook keeps formatting them and is there again afterwards.
import * as pulumi from "@pulumi/pulumi";
import { UNRECORDED_STACK, withoutPromiseStacks } from "../../provider/framework";

const registered: Array<{ name: string; inputs: Record<string, unknown> }> = [];
// setMocks installs the mocks before it returns; a failure its promise carries fails the tests (beforeAll).
const mocksSet = pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      registered.push({ name: args.name, inputs: args.inputs });
      return { id: `${args.name}-id`, state: { ...args.inputs, createdAt: "2026-11-28T00:00:00Z" } };
    },
    call: () => ({}),
  },
  "promise-stacks-test",
  "test",
  false,
);
beforeAll(() => mocksSet);

function debuggablePromise(): Error {
  return new Error("made as the SDK's debuggablePromise makes it");
}
function somewhereElse(): Error {
  return new Error("any other");
}

describe("withoutPromiseStacks", () => {
  it("leaves only the SDK's promise stacks unformatted, and restores the hook", () => {
    const before = Error.prepareStackTrace;
    const restore = withoutPromiseStacks();
    let promiseStack: string | undefined;
    let otherStack: string | undefined;
    let readLater: Error;
    try {
      promiseStack = debuggablePromise().stack;
      otherStack = somewhereElse().stack;
      readLater = somewhereElse();
    } finally {
      restore();
    }
    expect(Error.prepareStackTrace).toBe(before);
    expect(promiseStack).toBe(UNRECORDED_STACK);
    expect(otherStack).toMatch(
      /^Error: any other\n    at somewhereElse \(.*promiseStacks\.pure\.test\.ts:\d+:\d+\)\n    at /,
    );
    // V8 formats a stack when it is first read: the SDK's error for a failed registration keeps its frames.
    expect(readLater.stack).toMatch(
      /^Error: any other\n    at somewhereElse \(.*promiseStacks\.pure\.test\.ts/,
    );
  });

  it("recognises the SDK's own debuggablePromise (an SDK that renamed it would make this a no-op)", async () => {
    const { debuggablePromise: sdkDebuggable } = require("@pulumi/pulumi/runtime/debuggable");
    const promise = Promise.resolve(1);
    const restore = withoutPromiseStacks();
    try {
      await sdkDebuggable(promise, "test");
    } finally {
      restore();
    }
    expect((promise as unknown as { _debugStackTrace: string })._debugStackTrace).toBe(UNRECORDED_STACK);
  });

  it("hands every other stack to the program's own hook, and puts it back", () => {
    const own = (error: Error) => `own: ${error.message}`;
    Error.prepareStackTrace = own;
    try {
      const restore = withoutPromiseStacks();
      let promiseStack: string | undefined;
      let otherStack: string | undefined;
      try {
        promiseStack = debuggablePromise().stack;
        otherStack = somewhereElse().stack;
      } finally {
        restore();
      }
      expect(promiseStack).toBe(UNRECORDED_STACK);
      expect(otherStack).toBe("own: any other");
      expect(Error.prepareStackTrace).toBe(own);
    } finally {
      delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace;
    }
  });
});

describe("a resource's registration", () => {
  // A resource with no token anywhere is refused at construction (connectionAtCall.ts): give it one.
  const connectionKeys = ["DEVICEMGMT_BASE_URL", "DEVICEMGMT_API_TOKEN"] as const;
  const saved = connectionKeys.map((key) => process.env[key]);
  beforeAll(() => {
    process.env.DEVICEMGMT_BASE_URL = "https://mdm.example/api/v3";
    process.env.DEVICEMGMT_API_TOKEN = "1|promise-stacks-test";
  });
  afterAll(() =>
    connectionKeys.forEach((key, i) =>
      saved[i] === undefined ? delete process.env[key] : (process.env[key] = saved[i]),
    ),
  );

  it("registers no absent adoption id or connection, and every output the class shows", async () => {
    // Imported after setMocks, as a program would be.
    const dm: typeof import("../../provider") = require("../../provider");
    const before = Error.prepareStackTrace;
    const group = new dm.Group("lobby", { name: "Lobby" });
    expect(Error.prepareStackTrace).toBe(before);
    const name = await new Promise((resolve) => group.name.apply(resolve));
    const createdAt = await new Promise((resolve) => group.createdAt.apply(resolve));
    expect([name, createdAt]).toEqual(["Lobby", "2026-11-28T00:00:00Z"]);
    expect("adoptId" in group || "connection" in group).toBe(false);
    const inputs = registered.find((r) => r.name === "lobby")!.inputs;
    expect(Object.keys(inputs)).not.toContain("adoptId");
    expect(Object.keys(inputs)).not.toContain("connection");

    const adopted = new dm.Group("adopted", { name: "Adopted", adoptId: "g-1" });
    await new Promise((resolve) => adopted.id.apply(resolve));
    expect(registered.find((r) => r.name === "adopted")!.inputs.adoptId).toBe("g-1");
  });
});
