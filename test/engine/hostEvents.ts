/**
 * The events of this process that an inline program raises. While it runs, this process is its language host; a
 * program whose CLI was killed is still in this process, and its calls to the dead engine fail later.
 */
/** The process itself: jest gives each test module a copy of `process`; the module loader's "process" is the real one. */
const hostProcess: NodeJS.Process = require("module")._load("process");
const HOST_EVENTS = ["unhandledRejection", "uncaughtException"] as const;

/**
 * While an inline program runs, this process is its language host: the Automation API's server
 * (automation/server.js, run) listens on `process` for the program's unhandled rejections and uncaught exceptions,
 * logs each as an error of the program and lets the program go on (the run then fails with "One or more errors
 * occurred"). Under jest, `process` is a copy whose listeners Node never calls, and jest's listener on the real
 * process would fail the test instead. So during a run the real process's events go to the copy's listeners (the
 * server's), and to the ones set aside when the copy has none. Returns the function that restores them.
 */
export function hostProgramErrors(): () => void {
  if (hostProcess === process) return () => undefined;
  type Listener = (...args: unknown[]) => void;
  const host = hostProcess as unknown as NodeJS.EventEmitter;
  const setAside = HOST_EVENTS.map((event) => host.listeners(event) as Listener[]);
  const forwarders = HOST_EVENTS.map((event, i): Listener => (...args) => {
    if (event === "unhandledRejection" && ignoringDeadEngineErrors() && isDeadEngineError(args[0])) return;
    if ((process as unknown as NodeJS.EventEmitter).emit(event, ...args)) return;
    for (const listener of setAside[i]) listener(...args);
  });
  HOST_EVENTS.forEach((event, i) => {
    host.removeAllListeners(event);
    host.on(event, forwarders[i]);
  });
  return () =>
    HOST_EVENTS.forEach((event, i) => {
      host.removeListener(event, forwarders[i]);
      for (const listener of setAside[i]) host.on(event, listener);
    });
}

const IGNORING = Symbol.for("devicemgmt.tests.ignoringDeadEngineErrors");
/** gRPC's UNAVAILABLE and CANCELLED: what a call to a CLI that is gone ends with. */
const DEAD_PEER_CODES = new Set([1, 14]);

function ignoringDeadEngineErrors(): boolean {
  return Boolean((hostProcess as unknown as Record<symbol, boolean>)[IGNORING]);
}

function isDeadEngineError(reason: unknown): boolean {
  const error = reason as { code?: unknown; metadata?: unknown } | undefined;
  return typeof error?.code === "number" && DEAD_PEER_CODES.has(error.code) && error.metadata !== undefined;
}

/**
 * After a test kills a CLI mid-run (an interrupt, or settling a timed-out test), the program it ran may still be
 * awaiting a call to the engine (the stack's first one, when the kill came early): that call fails with
 * UNAVAILABLE once the run is over, as an unhandled rejection that jest would pin on whatever test runs then. From
 * the first kill on, such a rejection is dropped; every other one reaches jest's listeners as before. Installed
 * once per worker process (each test file has its own copy of this module); a run going on then (whose program
 * hears this process's events, hostProgramErrors) does not get it either.
 */
export function ignoreDeadEngineErrors(): void {
  const host = hostProcess as unknown as NodeJS.EventEmitter & Record<symbol, boolean>;
  if (hostProcess === process || host[IGNORING]) return;
  host[IGNORING] = true;
  type Listener = (...args: unknown[]) => void;
  const setAside = host.listeners("unhandledRejection") as Listener[];
  host.removeAllListeners("unhandledRejection");
  host.on("unhandledRejection", (reason: unknown, ...rest: unknown[]) => {
    if (isDeadEngineError(reason)) return;
    for (const listener of setAside) listener(reason, ...rest);
  });
}
