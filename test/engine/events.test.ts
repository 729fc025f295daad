// The fold of the CLI's engine events into a RunResult, on events shaped as the CLI v3.274.1 sends them (recorded
// from real runs of this provider and trimmed): no CLI runs here.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { foldEvents, plainOutputs, runResult } from "./events";
import { UNKNOWN } from "./types";

const STACK = "urn:pulumi:test::p::pulumi:pulumi:Stack::p-test";
const GROUP = "pulumi-nodejs:dynamic/devicemgmt:Group";
const urn = (name: string) => `urn:pulumi:test::p::${GROUP}::${name}`;
const state = (name: string, id: string | undefined, inputs: Record<string, unknown>) => ({
  type: GROUP,
  urn: urn(name),
  custom: true,
  ...(id ? { id } : {}),
  parent: STACK,
  inputs: { __provider: "exports.handler = …", ...inputs },
  outputs: { ...inputs },
  provider: "",
});

let sequence = 0;
function event(kind: "resourcePreEvent" | "resOutputsEvent", op: string, name: string, extra: object = {}) {
  return {
    sequence: sequence++,
    timestamp: 0,
    [kind]: { metadata: { op, urn: urn(name), type: GROUP, provider: "", ...extra } },
  } as unknown as EngineEvent;
}
const both = (op: string, name: string, extra: object = {}) => [
  event("resourcePreEvent", op, name, extra),
  event("resOutputsEvent", op, name, extra),
];
const diagnostic = (severity: string, message: string, name?: string) =>
  ({
    sequence: sequence++,
    timestamp: 0,
    diagnosticEvent: { ...(name ? { urn: urn(name) } : {}), prefix: "", message, color: "never", severity },
  }) as unknown as EngineEvent;

test("an up's creates, updates and sames become steps, and the finished calls operations in order", () => {
  const events = [
    ...both("create", "a", { new: state("a", "id-a", { name: "A" }) }),
    ...both("update", "b", {
      old: state("b", "id-b", { name: "B", configured: false }),
      new: state("b", "id-b", { name: "B", configured: true }),
      diffs: ["configured"],
    }),
    ...both("same", "c", { old: state("c", "id-c", {}), new: state("c", "id-c", {}) }),
  ];
  const run = foldEvents(events, "none");
  expect(run.steps.create.map((s) => [s.name, s.id])).toEqual([["a", "id-a"]]);
  expect(run.steps.update[0]).toMatchObject({
    name: "b",
    changedKeys: ["configured"],
    changedValues: { configured: { old: false, new: true } },
  });
  expect(run.steps.same.map((s) => s.name)).toEqual(["c"]);
  expect(run.operations).toEqual([
    { op: "create", urn: urn("a"), id: "id-a" },
    { op: "update", urn: urn("b"), id: "id-b" },
  ]);
});

test("a replacement is one replace step with both ids; delete-first when the delete came before the create", () => {
  const old = state("r", "old-id", { name: "R" });
  const created = state("r", "new-id", { name: "R2" });
  const createFirst = foldEvents(
    [
      ...both("create-replacement", "r", { old, new: created, keys: ["name"] }),
      ...both("replace", "r", { old, new: created, keys: ["name"] }),
      ...both("delete-replaced", "r", { old, new: created }),
    ],
    "none",
  );
  expect(createFirst.steps.replace).toEqual([
    expect.objectContaining({ name: "r", id: "new-id", oldId: "old-id", replaceKeys: ["name"] }),
  ]);
  expect(createFirst.steps.replace[0].deleteBeforeReplace).toBeUndefined();
  expect(createFirst.operations.map((o) => [o.op, o.id])).toEqual([
    ["create", "new-id"],
    ["delete", "old-id"],
  ]);
  const deleteFirst = foldEvents(
    [
      ...both("delete-replaced", "r", { old, new: created }),
      ...both("create-replacement", "r", { old, new: created, keys: ["name"] }),
      ...both("replace", "r", { old, new: created, keys: ["name"] }),
    ],
    "none",
  );
  expect(deleteFirst.steps.replace[0].deleteBeforeReplace).toBe(true);
});

test("a preview's planned steps come from its pre-events, and secrets are shown as [secret]", () => {
  const secret = {
    "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    ciphertext: "[secret]",
  };
  const planned = event("resourcePreEvent", "update", "u", {
    old: state("u", "id-u", { pin: secret, name: "U" }),
    new: state("u", "id-u", { pin: secret, name: "V" }),
  });
  (planned.resourcePreEvent as { planning?: boolean }).planning = true;
  const run = foldEvents([planned], "none");
  expect(run.steps.update[0].changedValues).toEqual({ name: { old: "U", new: "V" } });
  expect(run.operations).toEqual([]);
});

test("check failures group by resource with their properties; other errors take the failed step's operation", () => {
  const failed = {
    sequence: sequence++,
    timestamp: 0,
    resOpFailedEvent: {
      metadata: { op: "create", urn: urn("x"), type: GROUP, provider: "" },
      status: 0,
      steps: 0,
    },
  } as unknown as EngineEvent;
  const run = foldEvents(
    [
      diagnostic(
        "error",
        `${GROUP} resource 'bad': property name value {} has a problem: name must not be empty\n`,
        "bad",
      ),
      diagnostic(
        "error",
        `${GROUP} resource 'bad': property parentId value "x" has a problem: unknown group\n`,
        "bad",
      ),
      diagnostic("error", 'A group named "X" already exists\n', "x"),
      failed,
      diagnostic("warning", "Attempting to deploy or update resources with 1 pending operations\n"),
      diagnostic("info#err", "GET /api/v3/groups 200\n", "x"),
      diagnostic("error", "update failed\n"),
    ],
    "none",
  );
  expect(run.errors).toEqual([
    expect.objectContaining({
      urn: urn("bad"),
      op: "check",
      failures: [
        { property: "name", reason: "name must not be empty" },
        { property: "parentId", reason: "unknown group" },
      ],
    }),
    { urn: urn("x"), op: "create", message: 'A group named "X" already exists' },
  ]);
  expect(run.warnings).toEqual(["Attempting to deploy or update resources with 1 pending operations"]);
  expect(run.diagnostics).toContain("GET /api/v3/groups 200");
});

test("a failed CLI with no error event still fails the result with its message", () => {
  const result = runResult(
    foldEvents([], "none"),
    { ok: false, output: "error: no stack", interrupted: false, failure: "exit code 255" },
    { outputs: {}, secretOutputs: [] },
    false,
  );
  expect(result.ok).toBe(false);
  expect(result.errors).toEqual([{ op: "program", message: "exit code 255" }]);
});

test("refresh steps: drift is an update, a vanished object a delete; before a program they go to refreshSteps", () => {
  const events = [
    ...both("refresh", "drifted", {
      old: state("drifted", "id-1", { name: "A" }),
      new: state("drifted", "id-1", { name: "B" }),
      diffs: ["name"],
    }),
    ...both("refresh", "gone", { old: state("gone", "id-2", {}), new: null }),
    ...both("refresh", "same", { old: state("same", "id-3", {}), new: state("same", "id-3", {}) }),
  ];
  const refresh = foldEvents(events, "refresh");
  expect(refresh.steps.update.map((s) => s.name)).toEqual(["drifted"]);
  expect(refresh.steps.delete.map((s) => s.name)).toEqual(["gone"]);
  expect(refresh.steps.same.map((s) => s.name)).toEqual(["same"]);
  expect(refresh.operations.map((o) => o.op)).toEqual(["read", "read", "read"]);
  const before = foldEvents(events, "before-program");
  expect(before.steps.update).toEqual([]);
  expect(before.refreshSteps.update.map((s) => s.name)).toEqual(["drifted"]);
});

test("program outputs come from the stack's outputs event: a secret is named and shown as [secret]", () => {
  const secret = {
    "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    ciphertext: "[secret]",
  };
  expect(plainOutputs({ id: "g-1", token: secret, later: UNKNOWN })).toEqual({
    outputs: { id: "g-1", token: "[secret]", later: UNKNOWN },
    secretOutputs: ["token"],
  });
});
