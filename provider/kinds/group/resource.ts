import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type AdoptionArgs, registration } from "../../framework";
import { groupKind } from "./definition";
import { CONFIGURED_PARENT_KEY } from "./properties";

// What the package exports of the kind besides its class, from the kind's other files.
export {
  getGroup,
  getGroupOutput,
  getGroupTree,
  getGroupTreeOutput,
  type GetGroupArgs,
  type GetGroupByIdArgs,
  type GetGroupByNameArgs,
  type GroupResult,
  type GetGroupTreeArgs,
  type GroupTreeNode,
  type GroupTreeResult,
} from "./lookups";

/**
 * The `id` outputs of this program's Groups declared `configured: true` (a literal), by their resource names: a
 * Group whose `parentId` is one of them is refused at check, even before the parent exists (properties.ts).
 */
const configuredIds = new WeakMap<object, string>();

/** The inputs of a {@link Group}. */
export interface GroupArgs extends AdoptionArgs {
  /** The group's name (1 to 255 characters); unique among its siblings. Renaming updates in place. */
  name: pulumi.Input<string>;
  /** The parent group's id (an unconfigured group); null or absent for a root-level group. Re-parenting updates in place. */
  parentId?: pulumi.Input<string | null>;
  /** Configured groups are leaves that hold devices, release channels and content; configuring is irreversible (true → false is refused at preview). Default false. */
  configured?: pulumi.Input<boolean>;
  /**
   * For an organization that keeps several groups of one name under one parent: number them 1, 2, … and this
   * group is copy number `sameNameOrdinal`. Without it a create is refused when a group of that name exists
   * under that parent; with it, when that many were there before the run. Only creates read it. The exporter
   * writes it for same-named siblings.
   */
  sameNameOrdinal?: pulumi.Input<number>;
}

/**
 * A group of the organization's tree: a folder of groups, or (configured) a leaf holding devices and content.
 * Renaming and re-parenting update it in place.
 *
 * A create fails, before any write, when a group of the same name exists under the same parent: take it over
 * with `adoptId`, or use `aliases` if you renamed or moved the resource in code.
 *
 * @example
 * const emea = new dm.Group("emea", { name: "EMEA" });
 * const berlin = new dm.Group("berlin", { name: "Berlin Lab", parentId: emea.id, configured: true });
 */
export class Group extends DeviceMgmtResource {
  /** The group's name. */
  declare readonly name: pulumi.Output<string>;
  /** The parent group's id; null for a root-level group. */
  declare readonly parentId: pulumi.Output<string | null>;
  /** Whether the group is configured (a leaf that holds devices and content). */
  declare readonly configured: pulumi.Output<boolean>;
  /** When the group was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the group was last changed (ISO 8601). */
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    const [type, resourceName, inputs, options] = registration(groupKind, name, args, opts);
    const parent =
      typeof args.parentId === "object" && args.parentId !== null
        ? configuredIds.get(args.parentId)
        : undefined;
    super(
      type,
      resourceName,
      parent === undefined ? inputs : { ...inputs, [CONFIGURED_PARENT_KEY]: parent },
      options,
    );
    if (args.configured === true) configuredIds.set(this.id, name);
  }
}
