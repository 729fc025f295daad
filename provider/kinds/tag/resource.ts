import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type AdoptionArgs, registration } from "../../framework";
import { tagKind } from "./definition";

// What the package exports of the kind besides its class, from the kind's other files.
export { getTag, getTagOutput, type GetTagArgs, type TagResult } from "./lookups";

/** The inputs of a {@link Tag}. */
export interface TagArgs extends AdoptionArgs {
  /** The tag's name (1 to 255 characters, unique in the organization without regard to case). Renaming renames it on every owner. */
  name: pulumi.Input<string>;
}

/**
 * A tag of the organization's catalogue. Renaming updates it in place (and on every device, group, app, file
 * and video carrying it); destroy deletes it (and removes it from them). A create fails, before any write,
 * when a tag of that name exists: take it over with `adoptId`.
 *
 * @example
 * const lobby = new dm.Tag("lobby", { name: "lobby" });
 */
export class Tag extends DeviceMgmtResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: TagArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(tagKind, name, args, opts));
  }
}
