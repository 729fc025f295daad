/**
 * What a program runs against: the resource monitor the SDK talks to (everything else is the SDK's mock
 * monitor), and the language host's handling of the program's errors and unhandled rejections.
 */
import { output } from "@pulumi/pulumi";
import type * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { MockMonitor } from "@pulumi/pulumi/runtime/mocks";
import { asEngineWork } from "./eventLoop";
import type { PropertyMap } from "./plugin";
import type { Deployment } from "./deployment";
import type { Program } from "./types";

export class EngineMonitor extends MockMonitor {
  constructor(private readonly deployment: Deployment) {
    super({
      newResource: () => {
        throw new Error("the engine stand-in does not support reading existing resources (get/read)");
      },
      call: (args) => {
        throw new Error(`the engine stand-in does not support invokes (${args.token})`);
      },
    });
  }

  override async registerResource(
    req: resproto.RegisterResourceRequest,
    callback: (err: Error | null, response: resproto.RegisterResourceResponse | undefined) => void,
  ): Promise<void> {
    let response: resproto.RegisterResourceResponse;
    try {
      // The plugin calls made for this registration are the engine's, not the program's (eventLoop.ts).
      response = await asEngineWork(() => this.deployment.register(req));
    } catch (err) {
      callback(err as Error, undefined);
      return;
    }
    callback(null, response);
  }

  override registerResourceOutputs(
    req: resproto.RegisterResourceOutputsRequest,
    callback: (err: null, response: object) => void,
  ): void {
    this.deployment.registerOutputs(req.getUrn(), (req.getOutputs()?.toJavaScript() ?? {}) as PropertyMap);
    callback(null, {});
  }
}

/**
 * Runs the program and waits for its outputs, turning its errors into the deployment's. The SDK's stack would
 * otherwise leave them as unhandled rejections (the language host catches those; a test runner fails on them).
 */
export async function runGuarded(program: Program, deployment: Deployment): Promise<unknown> {
  try {
    const outputs = await program();
    await (output(outputs) as unknown as { promise(withUnknowns: boolean): Promise<unknown> }).promise(true);
    return outputs;
  } catch (err) {
    deployment.programFailed(err);
    return undefined;
  }
}

/**
 * The language host's handler (sdk/nodejs/cmd/run/run.ts, uncaughtHandler): a promise the program leaves
 * rejected fails the program, reported once. The SDK rejects the outputs of a resource whose registration failed
 * or was skipped (runtime/resource.ts: Result FAIL/SKIP, "failed to register"), so under --continue-on-error a
 * failed step whose outputs nobody handles fails the program: the engine then bails before its deletes
 * (deployment_executor.go, Execute: a source error returns before performPostSteps). While a program runs, this
 * process is its language host: other handlers are set aside and restored by the function returned.
 */
export function reportUnhandledRejectionsTo(deployment: Deployment): () => void {
  const others = hostProcess.listeners("unhandledRejection");
  const handler = (reason: unknown) => deployment.programFailed(reason);
  hostProcess.removeAllListeners("unhandledRejection");
  hostProcess.on("unhandledRejection", handler);
  return () => {
    hostProcess.removeListener("unhandledRejection", handler);
    for (const listener of others) hostProcess.on("unhandledRejection", listener);
  };
}

/**
 * The process itself, where Node reports unhandled rejections. A test runner may give each module a copy of
 * `process` whose listeners Node never calls (jest does); the module loader's own "process" is the real one.
 */
const hostProcess: NodeJS.Process = require("module")._load("process");
