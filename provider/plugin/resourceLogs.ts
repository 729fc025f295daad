/**
 * The handlers' log lines (upload progress, processing, warnings) on the resource they are about: the handlers log
 * through framework/resourceLog.ts, which gives a line the URN of the call it belongs to, and each call of
 * provider.ts runs inside that module's `onResource(urn, …)` with the URN the engine sent. What this plugin adds
 * is the engine connection the SDK's log functions need (without it they print, and the CLI shows the lines under
 * the stack).
 */

/** Points the SDK's log functions at the engine (the plugin's address argument), before the SDK reads it. */
export function logToEngine(engineAddress: string | undefined): void {
  if (engineAddress) process.env.PULUMI_NODEJS_ENGINE = engineAddress;
}
