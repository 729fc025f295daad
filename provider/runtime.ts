/**
 * The entry point the dynamic-provider plugin loads at run time (`require("pulumi-devicemgmt/runtime")`).
 *
 * Its exports are a compatibility contract with every state file ever written: serialized providers call
 * `configure(req)` and `handler(kind)`, and old kinds must keep working.
 */
import { UnknownKindError } from "./errors";
import type * as pulumi from "@pulumi/pulumi";
import { stackSettingsFrom, type StackSettings } from "./connection";
import type { ResourceKind } from "./kindKeys";
import { KINDS } from "./kinds";
import type { ResourceHandler } from "./framework/framework";
import { bindStackSettings } from "./framework/context";
import { pinnedToOrganization } from "./framework/organization";
import { claimed } from "./framework/claims";

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
}

export function handler(kind: string): ResourceHandler {
  const found = (handlers as Record<string, ResourceHandler | undefined>)[kind];
  if (!found) {
    throw new UnknownKindError(kind);
  }
  return found;
}
