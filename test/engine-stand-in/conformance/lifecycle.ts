/**
 * A provider for the engine's lifecycle tests (pulumi/pulumi pkg/engine/lifecycletest), whose providers change
 * behaviour between runs of the same program. Here the behaviour comes from the plugin's environment (the
 * `env` run option), so that the program, and so the goals, stay the same:
 * - LIFECYCLE_DIFF=replace-delete-first: Diff asks for a delete-first replacement;
 * - LIFECYCLE_CREATE=fail: Create throws;
 * - LIFECYCLE_JOURNAL: a file each create and delete call is appended to, as "create <key>" / "delete <id>".
 */
import * as pulumi from "@pulumi/pulumi";

function journal(entry: string): void {
  const file = process.env.LIFECYCLE_JOURNAL;
  if (file) require("fs").appendFileSync(file, `${entry}\n`);
}

const lifecycleProvider: pulumi.dynamic.ResourceProvider = {
  async diff() {
    return process.env.LIFECYCLE_DIFF === "replace-delete-first"
      ? { changes: true, replaces: ["key"], deleteBeforeReplace: true }
      : { changes: false };
  },
  async create(inputs: Record<string, unknown>) {
    journal(`create ${String(inputs.key)}`);
    if (process.env.LIFECYCLE_CREATE === "fail") throw new Error("interrupt replace");
    return { id: `${String(inputs.key)}-${process.env.LIFECYCLE_ID_SUFFIX ?? "first"}`, outs: inputs };
  },
  async delete(id: string) {
    journal(`delete ${id}`);
  },
};

export class LifecycleResource extends pulumi.dynamic.Resource {
  constructor(name: string, key: string, opts?: pulumi.CustomResourceOptions) {
    super(lifecycleProvider, name, { key }, opts);
  }
}
