// A test that times out must not poison the next one (fence.ts): the engine it used is idle again when the next
// test starts, and the rest of its body runs no further operation. The first test here is meant to time out:
// `it.failing` passes exactly when its body fails, which a timeout does.
import * as path from "path";
import { createEngine, type Engine } from ".";
import { scaled } from "../timeouts";

let engine: Engine;
let laterOperation: "not reached" | "refused" | "ran" = "not reached";

beforeAll(async () => {
  engine = await createEngine({ cwd: path.resolve(__dirname, "../.."), project: "devicemgmt-fence" });
});
afterAll(() => engine?.close());

// The test's own timeout (1 s) is scaled by test/setup.ts like every other: the program outlasts it at any scale.
const SLOW_PROGRAM_MS = scaled(8_000);

it.failing(
  "a test whose operation outlasts its timeout (it times out, as intended)",
  async () => {
    await engine.preview(() => new Promise((resolve) => setTimeout(resolve, SLOW_PROGRAM_MS)));
    // Reached after jest has moved on: the fence refuses this test's next operation.
    try {
      await engine.preview(() => undefined);
      laterOperation = "ran";
    } catch (error) {
      laterOperation = /has ended/.test((error as Error).message) ? "refused" : "ran";
    }
  },
  1_000,
);

it("the next test finds the engine idle, and the timed-out test ran nothing more", async () => {
  const result = await engine.preview(() => undefined);
  expect(result.errors).toEqual([]);
  expect(result.ok).toBe(true);
  expect(laterOperation).toBe("refused");
});

it("an operation still running past the settle bound is killed, and the engine is usable after it", async () => {
  // A program that never ends: one that ended after the kill would register the stack's outputs with the dead
  // engine, and that rejection would surface in whatever test this worker runs next.
  // It is killed once it runs: the stack's first calls to the engine are over by then (a kill before them leaves
  // a call that fails later, hostEvents.ts).
  let programRuns!: () => void;
  const running = new Promise<void>((resolve) => (programRuns = resolve));
  const slow = engine.preview(() => {
    programRuns();
    return new Promise<void>(() => undefined);
  });
  await running;
  // What the hook after each test does (test/setup.ts), with a bound shorter than the program.
  const settleStarted = Date.now();
  await engine.settle(500);
  expect(Date.now() - settleStarted).toBeLessThan(SLOW_PROGRAM_MS);
  expect((await slow).ok).toBe(false);
  expect(engine.cli.running()).toEqual([]);
  const after = await engine.preview(() => undefined);
  expect(after.errors).toEqual([]);
  expect(after.ok).toBe(true);
});
