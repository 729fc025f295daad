import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "./kindKeys";

/**
 * The `__provider` text a resource of this kind records in its inputs (and, through the plugin, its outputs):
 * a module whose `handler()` requires the installed package's runtime at call time and returns the kind's
 * provider object (`provider(kind)` of `pulumi-devicemgmt/runtime`).
 *
 * Written here rather than produced by the SDK's closure serializer, which `pulumi.dynamic.Resource` would run:
 * the serializer walks the provider object and writes out every function it reaches (seven wrappers, 2.3 KB,
 * stored twice per resource); it emits a one-line `require` only for an object that is some module's exports
 * AND whose file lies under a `node_modules` folder, so the same object serializes by value, failing on the
 * package's dependencies, wherever the package is linked rather than installed (this repository's own tests:
 * `node_modules/pulumi-devicemgmt` is a symlink and Node records the real path). The plugin only needs text
 * that `require-from-string` turns into `exports.handler`; this is that text, the same wherever the package is.
 *
 * It holds no credential and no code of the package, so upgrading the package changes what later
 * check/diff/read/update/delete run, even for resources written by an older version. The plugin configures one
 * provider per distinct text, which is why the text names the kind.
 */
export function providerText(kind: ResourceKind): string {
  return `exports.handler = () => require("pulumi-devicemgmt/runtime").provider(${JSON.stringify(kind)});\n`;
}

/** The module of every type token: `pulumi-nodejs:dynamic/devicemgmt:<Type>`. */
export const TYPE_MODULE = "devicemgmt";

/** The type token of a kind's resources, as `pulumi.dynamic.Resource` would name it. */
export const typeToken = (type: string) => `pulumi-nodejs:dynamic/${TYPE_MODULE}:${type}`;

/** The type every kind registered as before 0.2: existing stacks find their resources through this alias. */
export const LEGACY_TYPE = "pulumi-nodejs:dynamic:Resource";

/**
 * Resource options every kind gets: an alias from the legacy type token, so a stack written by an older
 * version upgrades without replacing anything; and, for kinds whose object is identified by a natural key
 * (the kind table says which), delete-before-replace by default, because the old and the new object cannot
 * exist side by side (and `--replace` never asks the provider's Diff, only this option).
 * An option the program sets itself wins.
 */
export function kindOptions(
  opts: pulumi.CustomResourceOptions | undefined,
  naturalKey: boolean,
): pulumi.CustomResourceOptions {
  return {
    ...(naturalKey ? { deleteBeforeReplace: true } : {}),
    ...opts,
    aliases: [...(opts?.aliases ?? []), { type: LEGACY_TYPE }],
  };
}
