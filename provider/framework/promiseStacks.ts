/**
 * The SDK gives every promise it makes while a resource is constructed (four per registered property: its
 * value, whether it is known, whether it is secret, its dependencies; two each for the URN and the id) a stack
 * trace, formatted to text at once (`debuggablePromise` in @pulumi/pulumi's runtime/debuggable.js), which only
 * its report of promises still pending when the program exits prints. For a resource of this package that was a
 * tenth of the program's CPU in an `up` that changes nothing (docs/performance.md). While a resource of the
 * package is constructed, those stacks are not formatted; every other error's stack is formatted as Node
 * formats it, also later (V8 formats a stack when it is first read, so an error made during construction and
 * read afterwards, as the SDK's error for a failed registration is, keeps its frames).
 */

/** The SDK's function whose stacks are not formatted (V8's name of the frame that made the error). */
const PROMISE_DEBUGGER = "debuggablePromise";

/** What such a stack reads, for the SDK's report of pending promises (which also names the resource). */
export const UNRECORDED_STACK = "(stack not recorded: pulumi-devicemgmt resource construction)";

type PrepareStackTrace = (error: Error, stack: NodeJS.CallSite[]) => unknown;

/** Node's hook, absent unless a program or a library (source-map-support) set one. */
const hook = Error as { prepareStackTrace?: PrepareStackTrace };

/** Node's own format of a stack: the error's text, then a line per frame. */
function nodeFormat(error: Error, stack: NodeJS.CallSite[]): string {
  const head = Error.prototype.toString.call(error);
  return stack.length === 0 ? head : `${head}\n    at ${stack.join("\n    at ")}`;
}

/**
 * Leaves the SDK's promise stacks unformatted until the returned function is called, which restores the
 * formatting hook that was there (a program's own, e.g. source-map-support's, which formats every other stack
 * meanwhile). A resource's constructor calls it around `super(...)`, in a `finally`.
 */
export function withoutPromiseStacks(): () => void {
  const previous = hook.prepareStackTrace;
  // Node's source-mapped format (`--enable-source-maps`) cannot be called from a hook: leave every stack to it.
  if (!previous && process.sourceMapsEnabled) return () => undefined;
  hook.prepareStackTrace = (error, stack) =>
    stack[0]?.getFunctionName() === PROMISE_DEBUGGER
      ? UNRECORDED_STACK
      : (previous ?? nodeFormat)(error, stack);
  return () => {
    hook.prepareStackTrace = previous;
  };
}
