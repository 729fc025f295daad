/**
 * A provider shaped like the deploytest providers of the engine's replacement lifecycle tests (pulumi/pulumi
 * pkg/engine/lifecycletest: delete_before_replace_test.go, deleted_with_replace_test.go, taint_test.go):
 * - Diff: a change of `A` or `foo` (an unknown value included) replaces; any other change updates. The
 *   replacement is delete-first when the plugin's environment has REPLACEMENT_DIFF_DBR=1;
 * - Create numbers the ids of the run's creates in order, `created-id-<n>` (counting the journal's creates);
 * - REPLACEMENT_JOURNAL: a file each create and delete call is appended to, as "create <name>" / "delete <id>".
 */
import * as pulumi from "@pulumi/pulumi";

function journal(entry?: string): string[] {
  const fs = require("fs");
  const file = process.env.REPLACEMENT_JOURNAL;
  if (!file) return [];
  if (entry) fs.appendFileSync(file, `${entry}\n`);
  return fs.readFileSync(file, "utf8").split("\n").filter(Boolean);
}

const REPLACE_KEYS = ["A", "foo"];

const replacementProvider: pulumi.dynamic.ResourceProvider = {
  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
      (key) => key !== "__provider" && JSON.stringify(olds[key]) !== JSON.stringify(news[key]),
    );
    const replaces = keys.filter((key) => REPLACE_KEYS.includes(key));
    return {
      changes: keys.length > 0,
      replaces,
      deleteBeforeReplace: replaces.length > 0 && process.env.REPLACEMENT_DIFF_DBR === "1",
    };
  },
  async create(inputs: Record<string, unknown>) {
    const created = journal(`create ${String(inputs.name)}`).filter((e) => e.startsWith("create ")).length;
    return { id: `created-id-${created}`, outs: inputs };
  },
  async update(_id: string, _olds: Record<string, unknown>, news: Record<string, unknown>) {
    return { outs: news };
  },
  async delete(id: string) {
    journal(`delete ${id}`);
  },
};

export interface ReplacementArgs {
  A?: pulumi.Input<unknown>;
  B?: pulumi.Input<unknown>;
  foo?: pulumi.Input<string>;
  fixed?: pulumi.Input<string>;
}

export class ReplacementResource extends pulumi.dynamic.Resource {
  constructor(name: string, args: ReplacementArgs, opts?: pulumi.CustomResourceOptions) {
    super(replacementProvider, name, { name, ...args }, opts);
  }
}
