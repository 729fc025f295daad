/** The resource monitor the SDK talks to while a program runs; everything else is the SDK's mock monitor. */
import { output } from "@pulumi/pulumi";
import type * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { MockMonitor } from "@pulumi/pulumi/runtime/mocks";
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
      response = await this.deployment.register(req);
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
