// Loaded by jest before each test file (jest.config.js, setupFilesAfterEnv). Two things a busy machine needs:
// - A timeout a test or hook gives itself grows by the run's scale (timeouts.ts), as the global one does: each
//   `it(name, body, 60_000)` means a minute on an idle machine.
// - A test that timed out cannot poison the next one (engine/fence.ts): each test body runs as its own, and after
//   each test the engines settle the operation it left running.
import { asTest, endTest } from "./engine/fence";
import { scaled } from "./timeouts";

type Body = (...args: unknown[]) => unknown;
type Register = (name: string, body?: Body, timeout?: number) => unknown;
type Hook = (body: Body, timeout?: number) => unknown;

/** The body run as its test's own (same `this`, same arguments, and the same length: jest reads `done` from it). */
function fenced(name: string, body: Body): Body {
  const wrapped = function (this: unknown, ...args: unknown[]) {
    return asTest(name, () => body.apply(this, args));
  };
  Object.defineProperty(wrapped, "length", { value: body.length });
  return wrapped;
}

const scaledTimeout = (timeout: number | undefined) => (timeout === undefined ? undefined : scaled(timeout));

/** `it`/`test` (and their `.only`, `.failing` and `.each`) with fenced bodies and scaled timeouts; the rest as is. */
function fencing<T extends Register>(register: T): T {
  const wrap =
    (original: Register): Register =>
    (name, body, timeout) =>
      original(name, body && fenced(String(name), body), scaledTimeout(timeout));
  const withEach = (original: Register) => {
    const each = (original as { each?: (...table: unknown[]) => Register }).each;
    return Object.assign(wrap(original), original, {
      ...(each ? { each: (...table: unknown[]) => wrap(each.apply(original, table)) } : {}),
    });
  };
  const { only, failing } = register as unknown as { only: Register; failing: Register };
  return Object.assign(withEach(register), {
    only: withEach(only),
    failing: withEach(failing),
  }) as unknown as T;
}

// A CLI operation of a test that timed out may still be running: wait for it (the state it leaves is then whole),
// and kill it past this bound (5 minutes on an idle machine). The hook gets a minute more than the wait.
const SETTLE_MS = scaled(300_000);
afterEach(() => endTest(SETTLE_MS), SETTLE_MS + 60_000);
// (Registered before the hooks below are scaled: this bound is scaled already.)

const globals = globalThis as unknown as Record<"it" | "test", Register> &
  Record<"beforeAll" | "beforeEach" | "afterAll" | "afterEach", Hook>;
globals.it = fencing(globals.it);
globals.test = fencing(globals.test);
for (const hook of ["beforeAll", "beforeEach", "afterAll", "afterEach"] as const) {
  const original = globals[hook];
  globals[hook] = (body, timeout) => original(body, scaledTimeout(timeout));
}
