import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type AdoptionArgs, registration } from "../../framework";
import { appKind } from "./definition";

// What the package exports of the kind besides its class, from the kind's other files.
export { getApp, getAppOutput, type AppResult, type GetAppArgs } from "./lookups";

/**
 * The inputs of an {@link App}. An app's tags are not among them: declare them with a `TagSet`
 * (`ownerType: "app"`), which owns the whole tag set of the app.
 */
export interface AppArgs extends AdoptionArgs {
  /**
   * The app's name (1 to 100 characters). Renaming updates in place, but lookups by app name (`getApp`,
   * `getReleaseChannel`'s `appName`) then need the new name. A create is refused when an app of that name
   * (compared without case) exists.
   */
  name: pulumi.Input<string>;
  /** The app's description; `""`, null or absent mean none. Updates in place. */
  description?: pulumi.Input<string | null>;
  /**
   * The device models the app is for (ids from `GET /device-models`), set when the app is created: the API cannot
   * change them afterwards, so a change replaces the app (and needs a new name: the old app cannot be deleted).
   * Absent: the models are not managed (the service decides them at create; a change made elsewhere is no change).
   */
  deviceModelIds?: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * An app of the organization: the name and description a portal shows, and the headset models it is for. Its
 * builds, icon and package name come from uploads. Name and description update in place.
 *
 * A create fails, before any write, when an app of the same name exists: take it over with `adoptId`, or use
 * `aliases` if you renamed the resource in code. The API cannot delete apps: destroying an App removes it from
 * the stack with a warning and leaves the app, its builds and channels in the organization.
 *
 * @example
 * const trainer = new dm.App("trainer", { name: "Forklift Trainer", description: "Warehouse onboarding" });
 * new dm.TagSet("trainer-tags", { ownerType: "app", ownerId: trainer.id, tags: ["training"] });
 */
export class App extends DeviceMgmtResource {
  /** The app's name. */
  declare readonly name: pulumi.Output<string>;
  /** The app's description; null for none. */
  declare readonly description: pulumi.Output<string | null>;
  /** The device models the app is for, as the API shows them (sorted, lower case). */
  declare readonly deviceModelIds: pulumi.Output<string[]>;
  /** When the app was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the app was last changed (ISO 8601). */
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: AppArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(appKind, name, args, opts));
  }
}
