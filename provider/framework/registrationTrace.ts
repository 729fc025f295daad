/**
 * The registration's stack trace, cut to the program's line.
 *
 * The SDK records, with every resource, the stack at its construction: `Resource.callsites()` reads
 * `new Error().stack` with `Error.stackTraceLimit` raised to infinity (so no setting shortens it), drops its own
 * five frames (itself, `stackTrace`, the Resource and CustomResource constructors, the kind's class) and sends
 * the rest with the registration; the CLI stores it in the state as `stackTrace`, its first frame also as
 * `sourcePosition`. Nothing in the SDK (3.270) or the CLI (3.274) turns it off, and the CLI does not print it on
 * an error (the resource's URN and message are what `pulumi up` shows). Under a program the frames are the
 * package's own classes, the program's line, and then everything that called the program (the language host or
 * the Automation API, gRPC, Node's module loader): 0.5–0.9 KB per resource, a tenth to a third of its state.
 *
 * While a resource of this package is constructed, `Error.prepareStackTrace` gives that one capture (recognized
 * by its first two frames, the SDK's `callsites` and `stackTrace`) the SDK's five frames and then the first frame
 * outside this package that the SDK can read: the line of the program that declared the resource. Every other
 * error's stack, and the hook that was in place (a source-map hook formats the frames kept), are untouched; the
 * hook is restored when the constructor returns.
 */
import * as path from "path";

/** The frames the SDK drops from the top of its capture (`Resource.stackTrace(4)` in @pulumi/pulumi). */
const SDK_FRAMES = 5;

/** The SDK's parser of a frame (`Resource.framePositionRegExp`): a frame it cannot read is stored as `{}`. */
const READABLE_FRAME = /^\s*at .* \((?<file>.*):(?<line>[0-9]+):(?<column>[0-9]+)\)$/;

/** This package's own files (`provider/` in the repository, `dist/provider/` installed). */
const PACKAGE_ROOT = path.resolve(__dirname, "..") + path.sep;

type PrepareStackTrace = (error: Error, frames: NodeJS.CallSite[]) => unknown;

const isSdkCapture = (frames: NodeJS.CallSite[]) =>
  frames[0]?.getFunctionName() === "callsites" && frames[1]?.getFunctionName() === "stackTrace";

/** The SDK's frames and the program's line that declared the resource (none when no frame is readable). */
export function declarationFrames(frames: NodeJS.CallSite[]): NodeJS.CallSite[] {
  const declaration = frames
    .slice(SDK_FRAMES)
    .find(
      (frame) =>
        !(frame.getFileName() ?? "").startsWith(PACKAGE_ROOT) && READABLE_FRAME.test(`    at ${frame}`),
    );
  return [...frames.slice(0, SDK_FRAMES), ...(declaration ? [declaration] : [])];
}

const formatted = (error: Error, frames: NodeJS.CallSite[]) =>
  [`${error.name}: ${error.message}`, ...frames.map((frame) => `    at ${frame}`)].join("\n");

/** Cuts the SDK's stack capture to the declaration until the returned function is called (in a `finally`). */
export function cutRegistrationTrace(): () => void {
  const previous = Error.prepareStackTrace as PrepareStackTrace | undefined;
  Error.prepareStackTrace = (error: Error, frames: NodeJS.CallSite[]) => {
    const kept = isSdkCapture(frames) ? declarationFrames(frames) : frames;
    return previous ? previous(error, kept) : formatted(error, kept);
  };
  return () => {
    (Error as { prepareStackTrace?: PrepareStackTrace }).prepareStackTrace = previous;
  };
}
