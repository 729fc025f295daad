/**
 * Test timeouts that grow with a busy machine instead of failing on it. jest.config.js sets
 * DEVICEMGMT_TEST_TIMEOUT_SCALE once for the whole run (the knob, when given; else the machine's load per core when
 * jest starts, between 1 and 4), and its workers inherit it: the global test timeout is 180 s times the scale, and a
 * test or hook that gives its own timeout gives `scaled(ms)`. On an idle machine (CI) nothing changes.
 */
export const TIMEOUT_SCALE = Math.max(1, Number(process.env.DEVICEMGMT_TEST_TIMEOUT_SCALE) || 1);

/** `ms` on an idle machine, as much more as the run's scale gives. */
export function scaled(ms: number): number {
  return Math.round(ms * TIMEOUT_SCALE);
}
