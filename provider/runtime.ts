/**
 * The entry point the dynamic-provider plugin loads at run time (`require("pulumi-devicemgmt/runtime")`).
 *
 * Its exports are a compatibility contract with every state file ever written: the `__provider` text of
 * resources written before 0.2 calls `configure(req)` and `handler(kind)`, today's calls `provider(kind)`
 * (provider/dynamic.ts `providerText`), and old kinds must keep working.
 */
import { UnknownKindError } from "./errors";
import type * as pulumi from "@pulumi/pulumi";
import { stackSettingsFrom, type StackSettings } from "./connection";
import type { ResourceKind } from "./kindKeys";
import { KINDS } from "./kinds";
import type { ResourceHandler } from "./framework/framework";
import { bindStackSettings } from "./framework/context";
import { pinnedToOrganization } from "./framework/organization";
import { claimed, urnOf } from "./framework/claims";
import { connectLogsToEngine, onResource } from "./framework/resourceLog";

const handlers = Object.fromEntries(
  Object.values(KINDS).map((definition) => [
    definition.kind,
    claimed(definition.kind, definition.type, pinnedToOrganization(definition)),
  ]),
) as Record<ResourceKind, ResourceHandler>;

/** Called once per serialized provider by the plugin, after the engine's Configure, with the stack config. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  const settings: StackSettings = stackSettingsFrom((key) => req.config.get(key));
  bindStackSettings(settings);
  connectLogsToEngine();
}

export function handler(kind: string): ResourceHandler {
  const found = (handlers as Record<string, ResourceHandler | undefined>)[kind];
  if (!found) {
    throw new UnknownKindError(kind);
  }
  return found;
}

/**
 * The provider object of a kind, what today's `__provider` text hands the plugin: the plugin configures it once
 * (per distinct text, so per kind) and calls its methods. One object per kind, made on first use.
 */
export function provider(kind: string): pulumi.dynamic.ResourceProvider {
  let found = providers.get(kind);
  if (!found) {
    const kindHandler = handler(kind);
    found = {
      configure,
      check: (olds, news) => onResource(urnOf(news), () => kindHandler.check(olds, news)),
      diff: (id, olds, news) => onResource(urnOf(news), () => kindHandler.diff(id, olds, news)),
      create: (inputs) => onResource(urnOf(inputs), () => kindHandler.create(inputs)),
      read: (id, props) => onResource(urnOf(props), () => kindHandler.read(id, props)),
      update: (id, olds, news) => onResource(urnOf(news), () => kindHandler.update(id, olds, news)),
      delete: (id, props) => onResource(urnOf(props), () => kindHandler.delete(id, props)),
    };
    providers.set(kind, found);
  }
  return found;
}

const providers = new Map<string, pulumi.dynamic.ResourceProvider>();
