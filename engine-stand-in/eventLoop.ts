/**
 * When a program ends. The Node.js language host does not end the program when its main module's promise settles:
 * it waits for the event loop's `beforeExit` (sdk/nodejs/cmd/run/index.js, beforeExitHandler, registered last
 * so that other `beforeExit` work runs first), i.e. until no timer, immediate or other handle that keeps Node
 * alive is left. Resources registered by detached async code (`(async () => { await sleep(); new R() })()`,
 * the engine's `multiple-turns` examples) are therefore part of the program.
 *
 * The stand-in runs programs inside the test process, whose event loop never empties, so it tracks what the
 * program itself scheduled instead: the timers and immediates created in the run's SDK context (its
 * AsyncLocalStorage store), leaving out what the engine's side creates on the program's behalf (plugin calls
 * made inside a registration, see `engineSide`). Promises alone do not keep Node alive, and neither do they
 * here; unref'd timers do not either.
 *
 * Not modelled: other handles a program could leave open (sockets, file reads); such a program ends here when
 * its promise and its timers are done.
 */
import { AsyncLocalStorage, createHook } from "async_hooks";

/** Work done by the engine on a program's behalf (registrations): never counted as the program's. */
const engineSide = new AsyncLocalStorage<true>();

export function asEngineWork<T>(work: () => Promise<T>): Promise<T> {
  return engineSide.run(true, work);
}

const LOOP_KEEPING_TYPES = new Set(["Timeout", "Immediate"]);

interface Refable {
  hasRef?: () => boolean;
}

export interface ProgramHandles {
  /** Resolves once none of the program's timers or immediates is left (re-checking after `settle`). */
  drained(settle: () => Promise<void>): Promise<void>;
  stop(): void;
}

/** Starts tracking the handles created while `inRun()` is true (call inside the run's context). */
export function trackProgramHandles(inRun: () => boolean): ProgramHandles {
  const live = new Map<number, Refable>();
  let onChange: (() => void) | undefined;
  const hook = createHook({
    init(asyncId, type, _triggerId, resource) {
      if (!LOOP_KEEPING_TYPES.has(type) || engineSide.getStore() || !inRun()) return;
      live.set(asyncId, resource as Refable);
    },
    destroy(asyncId) {
      if (live.delete(asyncId)) onChange?.();
    },
  });
  hook.enable();
  const keepsLoopAlive = () => [...live.values()].some((handle) => handle.hasRef?.() ?? true);
  return {
    async drained(settle) {
      for (;;) {
        await settle();
        if (!keepsLoopAlive()) return;
        await new Promise<void>((resolve) => (onChange = resolve));
        onChange = undefined;
      }
    },
    stop: () => hook.disable(),
  };
}
