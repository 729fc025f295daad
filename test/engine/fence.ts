/**
 * Keeps a test that timed out from poisoning the next one. When jest times a test out it goes on to the next test,
 * but the timed-out test's body keeps running: its CLI operation was still going (the next test's first operation
 * then failed with "one operation at a time"), and after it the body would start its next one. So each test body
 * runs in an async context of its own (test/setup.ts wraps `it` and `test`); after each test, every engine waits
 * for an operation still running (and kills it past a bound), and the ended test's later operations are refused.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** One test's run: `ended` once jest has moved past it (it finished, failed or timed out). */
export interface TestRun {
  name: string;
  ended: boolean;
}

/** What an engine does after each test: settle its operation still running, if any. */
export interface Settles {
  settle(waitMs: number): Promise<void>;
}

const runs = new AsyncLocalStorage<TestRun>();
const engines = new Set<Settles>();
let latest: TestRun | undefined;

/** The test whose body is calling (undefined in hooks and outside jest). */
export function callingTest(): TestRun | undefined {
  return runs.getStore();
}

/** Runs a test body in its own context, as the latest test. */
export function asTest<T>(name: string, body: () => T): T {
  latest = { name, ended: false };
  return runs.run(latest, body);
}

export function track(engine: Settles): void {
  engines.add(engine);
}

export function untrack(engine: Settles): void {
  engines.delete(engine);
}

/** After a test: its later operations are refused, and every engine's running one is settled. */
export async function endTest(waitMs: number): Promise<void> {
  if (latest) latest.ended = true;
  await Promise.all([...engines].map((engine) => engine.settle(waitMs)));
}
