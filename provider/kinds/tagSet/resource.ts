import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type ConnectionArg, registration } from "../../framework";
import { tagSetKind } from "./definition";

/** The inputs of a {@link TagSet}. */
export interface TagSetArgs extends ConnectionArg {
  /** What carries the tags: "group", "app", "file" or "video". Changing it replaces the set. */
  ownerType: pulumi.Input<"group" | "app" | "file" | "video">;
  /** The group's, app's, file's or video's id. Changing it replaces the set. */
  ownerId: pulumi.Input<string>;
  /** The owner's tags, the whole set (names of the catalogue's tags, matched without case: declare a Tag, or see getTag). */
  tags: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * The tags a group, app, file or video carries: the declared list is the whole set, changed by attaching and
 * detaching the difference only. Destroy removes the tags this set attached (followed by id, so a tag renamed
 * meanwhile is removed too); tags the owner had before the set stay. A group's tags are not in its API
 * representation, so for a group refresh cannot see tags changed elsewhere (apps, files and videos: it can), a
 * create attaches the declared tags without removing others, and every declared tag counts as attached by the
 * set. A set imported, or recorded before sets kept `addedTagIds`, removes its declared tags on destroy.
 *
 * @example
 * const simulator = dm.getAppOutput({ name: "Training Simulator" });
 * new dm.TagSet("simulator-tags", { ownerType: "app", ownerId: simulator.id, tags: ["training", "safety"] });
 */
export class TagSet extends DeviceMgmtResource {
  declare readonly ownerType: pulumi.Output<string>;
  declare readonly ownerId: pulumi.Output<string>;
  declare readonly tags: pulumi.Output<string[]>;
  /** The engine run that created the set: a rename in code (new name created, old deleted) keeps the tags. */
  declare readonly createdInRun: pulumi.Output<string>;
  /** The ids of the tags this set attached that the owner did not have before: what destroy removes. */
  declare readonly addedTagIds: pulumi.Output<string[] | undefined>;

  constructor(name: string, args: TagSetArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(tagSetKind, name, args, opts));
  }
}
