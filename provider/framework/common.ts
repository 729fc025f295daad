/** What every resource kind of the package shares in its public surface: the carried inputs and the organization. */
import * as pulumi from "@pulumi/pulumi";
import { withoutPromiseStacks } from "./promiseStacks";
import type { ConnectionArgs } from "./secretConnection";
import { cutRegistrationTrace } from "./registrationTrace";

/** The input every kind takes: a connection of its own. */
export interface ConnectionArg {
  /** Another organization's API for this resource only (the token is kept secret in state); default: the stack's `devicemgmt:*` config. */
  connection?: pulumi.Input<ConnectionArgs>;
}

/** The inputs of every kind whose objects can exist before the stack: adoption, and the connection. */
export interface AdoptionArgs extends ConnectionArg {
  /**
   * Adopt the existing object with this id instead of creating one (made outside this stack, or left by an
   * interrupted run); it is brought to the declared inputs. Without it, a create that finds the object already
   * there fails. Inert after the first `up`.
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * Every resource of the package: it lives in one organization, recorded when it was created.
 *
 * @example
 * // Any resource's organization, e.g. to check a stack reached the one it should:
 * const emea = new dm.Group("emea", { name: "EMEA" });
 * export const organizationId = emea.organizationId;
 */
export abstract class DeviceMgmtResource extends pulumi.CustomResource {
  /** The id of the organization the object lives in (recorded at create; later calls refuse another). */
  declare readonly organizationId: pulumi.Output<string>;

  /**
   * Registers a kind's resource (`registration` in framework/kind.ts): its stack trace cut to the program's line
   * (registrationTrace.ts), and the SDK's promises made meanwhile left without formatted stacks (promiseStacks.ts:
   * a tenth less of the program's CPU).
   */
  protected constructor(
    type: string,
    name: string,
    props: pulumi.Inputs,
    opts: pulumi.CustomResourceOptions,
  ) {
    const restorePromiseStacks = withoutPromiseStacks();
    const restoreTrace = cutRegistrationTrace();
    try {
      super(type, name, props, opts);
    } finally {
      restoreTrace();
      restorePromiseStacks();
    }
  }
}
