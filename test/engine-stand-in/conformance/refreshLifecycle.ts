/**
 * A provider for the engine's refresh lifecycle tests (pulumi/pulumi pkg/engine/lifecycletest/refresh_test.go),
 * whose Read finds some resources gone. Which ones comes from the plugin's environment (the `env` run option), so
 * that the program stays the same: REFRESH_GONE lists the keys (comma-separated) whose Read answers "gone".
 */
import * as pulumi from "@pulumi/pulumi";

const refreshProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: Record<string, unknown>) {
    return { id: `${String(inputs.key)}-id`, outs: inputs };
  },
  async read(id: string, props: Record<string, unknown>) {
    const gone = (process.env.REFRESH_GONE ?? "").split(",");
    // A Read without an id is the provider's "this resource no longer exists".
    return gone.includes(String(props.key)) ? {} : { id, props };
  },
  async diff() {
    return { changes: false };
  },
};

export class RefreshResource extends pulumi.dynamic.Resource {
  constructor(
    name: string,
    props: { key: string; [input: string]: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(refreshProvider, name, props, opts, "conformance", "RefreshResource");
  }
}
