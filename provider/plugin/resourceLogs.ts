/**
 * The handlers' log lines (`pulumi.log.info("uploaded 3940 of 3940 bytes …")`, warnings) on the resource they are
 * about: the engine's Log call takes a URN, the handlers know none, and the plugin knows it on every call. Each
 * call of provider.ts runs inside `onResource(urn, …)`; the SDK's log functions, wrapped here once per process,
 * give a line logged without a resource that call's URN. The CLI then shows it under the resource and counts a
 * warning as the resource's.
 *
 * The dynamic-provider plugin cannot do the same: it gives the handlers no URN and starts no engine connection
 * for them, so their lines reach the CLI as the plugin's output, under the stack.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as pulumi from "@pulumi/pulumi";

const currentUrn = new AsyncLocalStorage<string>();

/** Runs `work` as the call of the resource `urn`: what it logs without a resource is that resource's. */
export function onResource<T>(urn: string, work: () => Promise<T>): Promise<T> {
  return currentUrn.run(urn, work);
}

type LogFunction = (
  message: string,
  resource?: pulumi.Resource,
  streamId?: number,
  ephemeral?: boolean,
) => Promise<void>;

/**
 * Sends the SDK's log lines to the engine at `engineAddress` (the plugin's first argument; without it they are
 * printed, as before) with the current call's URN when the line names no resource.
 */
export function logOnResources(engineAddress: string | undefined): void {
  if (engineAddress) process.env.PULUMI_NODEJS_ENGINE = engineAddress;
  const log = require("@pulumi/pulumi/log") as Record<"debug" | "info" | "warn" | "error", LogFunction>;
  for (const level of ["debug", "info", "warn", "error"] as const) {
    const original = log[level];
    log[level] = (message, resource, streamId, ephemeral) => {
      const urn = currentUrn.getStore();
      const about =
        resource ??
        (urn ? ({ urn: { promise: () => Promise.resolve(urn) } } as unknown as pulumi.Resource) : undefined);
      return original(message, about, streamId, ephemeral);
    };
  }
}
