// Lost answers and interrupted runs must not duplicate an object: the organization afterwards holds each
// declared object once; the next up of the same stack converges, and another stack is refused before any
// write, naming adoptId.
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine } from "../engine";
import { Group } from "../../provider";

const repoRoot = path.resolve(__dirname, "../..");

let emulator: RunningEmulator;
let engine: Engine;

async function newEngine(config: Record<string, string> = {}) {
  return createEngine({
    cwd: repoRoot,
    config: { "devicemgmt:baseUrl": emulator.baseUrl, ...config },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });
}

beforeEach(async () => {
  emulator = await startEmulator({ port: 0 });
  engine = await newEngine();
});

afterEach(async () => {
  await engine?.close();
  await emulator?.close();
});

const namesUnderRoot = () =>
  emulator
    .snapshot()
    .groups.filter((g) => g.parentId === null)
    .map((g) => g.name)
    .sort();

const labs =
  (count: number, name = (i: number) => `Lab ${i}`) =>
  () => {
    for (let i = 1; i <= count; i++) new Group(`lab-${i}`, { name: name(i) });
  };

test("12 siblings under 50% lost answers are each made once, and the next up is quiet", async () => {
  emulator.setFaults({ dropAfterWriteRate: 0.5, seed: 7 });
  let result = await engine.up(labs(12));
  for (let attempt = 0; !result.ok && attempt < 3; attempt++) result = await engine.up(labs(12));
  emulator.setFaults({ dropAfterWriteRate: 0 });
  expect(result.errors).toEqual([]);
  expect(emulator.stats().faults.droppedAfterWrite).toBeGreaterThan(0);
  expect(namesUnderRoot()).toEqual(Array.from({ length: 12 }, (_, i) => `Lab ${i + 1}`).sort());
  const again = await engine.up(labs(12));
  expect(again.operations).toEqual([]);
});

test("same-named siblings are refused before the second is written, even under lost answers", async () => {
  emulator.setFaults({ dropAfterWriteRate: 0.5 });
  const result = await engine.up(labs(12, () => "Lab"));
  emulator.setFaults({ dropAfterWriteRate: 0 });
  expect(result.ok).toBe(false);
  expect(result.errors.map((e) => e.message).join("\n")).toContain('A group named "Lab" already exists');
  expect(namesUnderRoot()).toEqual(["Lab"]);
  expect(engine.resources().filter((r) => r.outputs.name === "Lab")).toHaveLength(1);
});

test("with maxRetries=0, lost answers leave no untracked duplicate", async () => {
  await engine.close();
  engine = await newEngine({ "devicemgmt:maxRetries": "0" });
  emulator.setFaults({ dropAfterWriteRate: 0.5 });
  let result = await engine.up(labs(6));
  for (let attempt = 0; !result.ok && attempt < 4; attempt++) result = await engine.up(labs(6));
  emulator.setFaults({ dropAfterWriteRate: 0 });
  expect(result.errors).toEqual([]);
  expect(namesUnderRoot()).toEqual(Array.from({ length: 6 }, (_, i) => `Lab ${i + 1}`).sort());
  expect(engine.resources()).toHaveLength(6);
});

test("an up killed mid-create: the next up takes over the group its killed create made, without a human", async () => {
  // The write is applied and its answer lost; the CLI dies while the provider looks for it (slow answers).
  emulator.setFaults({ latencyMs: 300, dropAfterWriteRate: 1 });
  const postArrived = async () => {
    while (!namesUnderRoot().includes("Root")) await new Promise((r) => setTimeout(r, 10));
  };
  const interrupted = await engine.up(() => void new Group("root", { name: "Root" }), {
    interruptAfter: 1,
    interruptWhen: postArrived,
  });
  expect(interrupted.interrupted).toBe(true);
  expect(engine.pending()).toEqual([expect.objectContaining({ type: "creating" })]);
  emulator.setFaults({ latencyMs: 0, dropAfterWriteRate: 0 });
  expect(namesUnderRoot()).toEqual(["Root"]);
  const existing = emulator.snapshot().groups[0].id;

  // The same stack's next up: the group is the one its own killed create made (interruptedCreates.ts).
  const next = await engine.up(() => void new Group("root", { name: "Root" }));
  expect(next.warnings.join("\n")).toContain("pending operations");
  expect(next.errors).toEqual([]);
  expect(engine.resource("root").id).toBe(existing);
  expect(namesUnderRoot()).toEqual(["Root"]);

  // Another stack meeting it is refused before any write, naming adoptId; adoptId then takes it over.
  const other = await newEngine();
  try {
    const refused = await other.up(() => void new Group("root", { name: "Root" }));
    expect(refused.ok).toBe(false);
    expect(refused.errors[0].message).toContain(`adoptId: "${existing}"`);
    expect(namesUnderRoot()).toEqual(["Root"]);
    const adopted = await other.up(() => void new Group("root", { name: "Root", adoptId: existing }));
    expect(adopted.errors).toEqual([]);
    expect(other.resource("root").id).toBe(existing);
  } finally {
    await other.close();
  }
  expect(namesUnderRoot()).toEqual(["Root"]);
});
