/**
 * The kind table: every resource kind of the provider, in one place. The runtime's handlers, the type tokens,
 * the names users see, the exporter's kinds and delete-before-replace all come from here and from each kind's
 * definition (see `framework/kind.ts` and the recipe in docs/architecture.md).
 *
 * Never remove or rename a key: state written by older versions names it (serialized providers call the
 * runtime's `handler("<key>")`).
 */
import type { ResourceKind } from "../kindKeys";
import type { KindDefinition } from "../framework";
import { groupKind } from "./group/definition";
import { userKind } from "./user/definition";
import { deviceMigrationKind } from "./deviceMigration/definition";
import { deviceReleaseChannelKind, groupReleaseChannelKind } from "./attachment/definitions";
import { themeKind } from "./theme/definition";
import { headsetExperienceKind } from "./headsetExperience/definition";
import { deviceExperienceKind } from "./deviceExperience/definition";
import { deviceKind } from "./device/definition";
import { tagKind } from "./tag/definition";
import { tagSetKind } from "./tagSet/definition";
import { deviceFileKind, deviceVideoKind, groupFileKind, groupVideoKind } from "./attachment/definitions";
import { releaseChannelVersionKind } from "./releaseChannelVersion/definition";
import { releaseChannelShareKind } from "./releaseChannelShare/definition";
import { appKind } from "./app/definition";
import { fileKind } from "./file/definition";
import { videoKind } from "./video/definition";
import { appVersionKind } from "./appVersion/definition";
import { appBundleKind } from "./appBundle/definition";
import { custom3DEnvironmentKind, imageKind } from "./image/definitions";

export const KINDS = kindTable({
  group: groupKind,
  user: userKind,
  groupReleaseChannel: groupReleaseChannelKind,
  deviceReleaseChannel: deviceReleaseChannelKind,
  deviceMigration: deviceMigrationKind,
  theme: themeKind,
  headsetExperience: headsetExperienceKind,
  deviceExperience: deviceExperienceKind,
  tag: tagKind,
  device: deviceKind,
  tagSet: tagSetKind,
  groupFile: groupFileKind,
  groupVideo: groupVideoKind,
  deviceFile: deviceFileKind,
  deviceVideo: deviceVideoKind,
  releaseChannelVersion: releaseChannelVersionKind,
  releaseChannelShare: releaseChannelShareKind,
  app: appKind,
  file: fileKind,
  video: videoKind,
  appVersion: appVersionKind,
  appBundle: appBundleKind,
  image: imageKind,
  custom3DEnvironment: custom3DEnvironmentKind,
});

/**
 * The table has exactly the keys of `ResourceKind` (kindKeys.ts), each entry filed under its own key: a missing
 * key, a key not declared there, or a definition filed under another kind's key is a compile error.
 */
function kindTable<
  T extends { [K in ResourceKind]: KindDefinition<K> } & {
    [K in keyof T]: K extends ResourceKind ? KindDefinition<K> : never;
  },
>(table: T): T {
  return table;
}

/** The names users see, which are also the last part of each type token. */
export type KindType = (typeof KINDS)[ResourceKind]["type"];

export function kindType(kind: ResourceKind): KindType {
  return KINDS[kind].type;
}
