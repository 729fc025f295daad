/**
 * The key of every resource kind: what state records for each resource and what serialized providers pass to the
 * runtime's `handler("<key>")`. Declared on its own, importing nothing, so that any module can name a kind without
 * reaching the kind table (`kinds.ts`), which imports every resource: a key type derived from the table made
 * modules the table imports depend on it again, an import cycle.
 *
 * `kinds.ts` is checked against this list at compile time (a key missing from the table, or a table entry without
 * a key here, is an error). Never remove or rename a key: state written by older versions names it.
 */
export type ResourceKind =
  | "group"
  | "user"
  | "groupReleaseChannel"
  | "deviceReleaseChannel"
  | "deviceMigration"
  | "theme"
  | "headsetExperience"
  | "deviceExperience"
  | "device"
  | "tag"
  | "tagSet"
  | "groupFile"
  | "groupVideo"
  | "deviceFile"
  | "deviceVideo"
  | "releaseChannelVersion"
  | "releaseChannelShare"
  | "app"
  | "file"
  | "video"
  | "appVersion"
  | "appBundle"
  | "image"
  | "custom3DEnvironment";
