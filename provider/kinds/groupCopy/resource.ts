import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type AdoptionArgs, registration } from "../../framework";
import { groupCopyKind } from "./definition";

/** The inputs of a {@link GroupCopy}. */
export interface GroupCopyArgs extends AdoptionArgs {
  /** The id of the configured group to copy. Changing it replaces the copy (the API does not show a copy's origin). */
  sourceGroupId: pulumi.Input<string>;
  /** The copy's name (1 to 255 characters). Renaming updates in place. */
  name: pulumi.Input<string>;
}

/**
 * A copy of a configured group (`POST /groups/{groupId}/duplicate`): a new configured group with the original's
 * configuration and no devices. It is a Group to the drift report and the exporter. Only the name is managed
 * afterwards: what the copy holds later (content, channels, devices) is managed as for any group (GroupFile, …),
 * and `getGroup` finds it. An `up` killed while copying is repaired by the next `up` (the copy is taken over, not
 * made twice).
 *
 * @example
 * const lab = new dm.Group("lab", { name: "Lab", configured: true });
 * const labB = new dm.GroupCopy("lab-b", { sourceGroupId: lab.id, name: "Lab B" });
 */
export class GroupCopy extends DeviceMgmtResource {
  /** The id of the group copied. */
  declare readonly sourceGroupId: pulumi.Output<string>;
  /** The copy's name. */
  declare readonly name: pulumi.Output<string>;
  /** The copy's parent group's id, as the API placed it; null at root level. */
  declare readonly parentId: pulumi.Output<string | null>;
  /** Whether the copy is configured (the API makes configured copies). */
  declare readonly configured: pulumi.Output<boolean>;
  /** When the copy was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the copy was last changed (ISO 8601). */
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: GroupCopyArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(groupCopyKind, name, args, opts));
  }
}
