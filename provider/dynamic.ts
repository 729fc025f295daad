import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "./kindKeys";

/**
 * The provider object a dynamic resource serializes into its `__provider` input (and so into state).
 *
 * It is deliberately thin: every method requires the package's runtime entry point at call time instead of
 * capturing code. That keeps the serialized text a few hundred bytes, free of any credential, and means that
 * upgrading the package changes what later check/diff/read/update/delete run, even for resources created by
 * an older version. `require` is never captured by Pulumi's closure serializer, so the literal specifier
 * survives serialization and resolves from the plugin's working directory like any installed package.
 */
export function thinProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  // One object per kind: the SDK caches serialized providers by object identity, and serializing a closure
  // costs milliseconds of CPU, which a program of thousands of resources would otherwise pay per resource.
  let provider = providers.get(kind);
  if (!provider) {
    provider = serializableProvider(kind);
    providers.set(kind, provider);
  }
  return provider;
}

const providers = new Map<ResourceKind, pulumi.dynamic.ResourceProvider>();

/** The module of every type token: `pulumi-nodejs:dynamic/devicemgmt:<Type>`. */
export const TYPE_MODULE = "devicemgmt";

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

function serializableProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  return {
    configure: async (req) => require("pulumi-devicemgmt/runtime").configure(req),
    check: async (olds, news) => require("pulumi-devicemgmt/runtime").handler(kind).check(olds, news),
    diff: async (id, olds, news) => require("pulumi-devicemgmt/runtime").handler(kind).diff(id, olds, news),
    create: async (inputs) => require("pulumi-devicemgmt/runtime").handler(kind).create(inputs),
    read: async (id, props) => require("pulumi-devicemgmt/runtime").handler(kind).read(id, props),
    update: async (id, olds, news) =>
      require("pulumi-devicemgmt/runtime").handler(kind).update(id, olds, news),
    delete: async (id, props) => require("pulumi-devicemgmt/runtime").handler(kind).delete(id, props),
  };
}
