/**
 * What `check` finds wrong with an experience before anything is sent: the pure rules of the mode table (the
 * owner, required and foreign fields, the kiosk menu), then, where the values are known, what the organization
 * would refuse (an unconfigured group, a device in a group, an image of the wrong type, an unknown theme or 3D
 * environment). A read that cannot be made (no connection yet, a network error) lets the value pass: the API
 * still has the last word at `up`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { NotFoundError, type DeviceMgmtClient, type ImageType } from "../../client";
import { withArticle, clientForProps, containsUnknown, type Props } from "../../framework";
import { leavesItsGroup } from "../device/catalogue";
import { becomesConfigured } from "../group/catalogue";
import {
  CONTENT_FIELDS,
  GROUP_REQUIRED,
  KIOSK_MENU_FIELDS,
  KIOSK_MENU_REQUIRED,
  type ContentType,
  type FieldName,
  type ModeFields,
} from "./fields";

type Failure = pulumi.dynamic.CheckFailure;

const present = (inputs: Props, field: string) => inputs[field] !== undefined;

/** Pure: the owner and the fields of the declared mode. */
export function modeFailures(
  resourceName: string,
  table: Record<string, ModeFields>,
  allFields: readonly FieldName[],
  inputs: Props,
): Failure[] {
  const failures: Failure[] = [];
  const onGroup = present(inputs, "groupId");
  if (onGroup === present(inputs, "deviceId")) {
    failures.push({
      property: onGroup ? "deviceId" : "groupId",
      reason:
        `${resourceName} belongs to exactly one group or one device: declare either groupId (a configured ` +
        `group) or deviceId (an ungrouped device)${onGroup ? ", not both" : ""}.`,
    });
  }
  const mode = inputs.mode;
  if (typeof mode !== "string" || !(mode in table)) return failures; // the schema already said so
  const fields = table[mode];
  const taken = new Set([...fields.required, ...fields.optional]);
  let required = [...fields.required];
  if (mode === "arborxr-kiosk" && inputs.isMenuEnabled === true) required.push(...KIOSK_MENU_REQUIRED);
  if (mode === "arborxr-kiosk" && inputs.isMenuEnabled === false) {
    for (const field of KIOSK_MENU_FIELDS) {
      taken.delete(field);
      required = required.filter((f) => f !== field);
    }
  }
  const needed = GROUP_REQUIRED[mode];
  const groupRequired = onGroup && needed !== undefined && allFields.includes(needed) ? needed : undefined;
  if (groupRequired) required.push(groupRequired);
  for (const field of required) {
    if (!present(inputs, field)) {
      const why = field === groupRequired ? ` on a group (the API requires it for groups)` : "";
      failures.push({
        property: field,
        reason: `${field} is required for mode "${mode}"${why}: declare it.`,
      });
    }
  }
  failures.push(...contentTypeFailures(resourceName, mode, fields, inputs));
  for (const field of allFields) {
    if (present(inputs, field) && !taken.has(field)) {
      const why =
        mode === "arborxr-kiosk" && inputs.isMenuEnabled === false ? " with isMenuEnabled: false" : "";
      failures.push({ property: field, reason: `${field} is not taken by mode "${mode}"${why}: remove it.` });
    }
  }
  return failures;
}

/** An object's members (a background, a content item), or none: what check reads of a value it has not typed. */
const membersOf = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" ? Object.fromEntries(Object.entries(value)) : {};

/** Where another experience takes a content type a mode refuses: the fix the message names. */
const TAKEN_ELSEWHERE: Record<ContentType, string> = {
  app: "",
  "unmanaged-app": 'HeadsetExperience modes "arborxr-home" and "arborxr-kiosk" show unmanaged apps',
  video: 'HeadsetExperience modes "arborxr-home" and "arborxr-kiosk" show videos',
  "web-xr-link": 'HeadsetExperience modes "arborxr-home" and "arborxr-kiosk" show WebXR links',
};

/** Pure: each content item of a type the mode's field does not take (a video as a launcher, in lock-task). */
function contentTypeFailures(
  resourceName: string,
  mode: string,
  fields: ModeFields,
  inputs: Props,
): Failure[] {
  const failures: Failure[] = [];
  for (const field of CONTENT_FIELDS) {
    const takes = fields.contentTypes[field];
    const value = inputs[field];
    if (takes === undefined || value === undefined || containsUnknown(value)) continue;
    const items = (Array.isArray(value) ? value : [value]).map(membersOf);
    const refused = items.filter(
      (item) => typeof item.type === "string" && !takes.includes(item.type as ContentType),
    );
    if (refused.length === 0) continue;
    const named = refused.map((item) => `${String(item.type)} ${String(item.id)}`).join(", ");
    const elsewhere = [...new Set(refused.map((item) => TAKEN_ELSEWHERE[item.type as ContentType]))]
      .filter(Boolean)
      .join("; ");
    failures.push({
      property: field,
      reason:
        `${field}: ${resourceName} mode "${mode}" takes ${takes.join(" and ")} items only here, and this lists ` +
        `${named}. Remove ${refused.length === 1 ? "it" : "them"}` +
        `${elsewhere ? `, or show ${refused.length === 1 ? "it" : "them"} elsewhere (${elsewhere})` : ""}.`,
    });
  }
  return failures;
}

const known = (value: unknown): value is string => typeof value === "string" && !containsUnknown(value);

/** A read whose 404 is an answer (undefined) and whose other failures are no answer (null). */
async function look<T>(read: () => Promise<T>): Promise<T | undefined | null> {
  try {
    return await read();
  } catch (error) {
    return error instanceof NotFoundError ? undefined : null;
  }
}

/**
 * What the organization would refuse, for the values known now that are new or changed since `olds` (the
 * inputs last checked): an unchanged program costs no request at preview, and what changed behind its back
 * since is for refresh to see (or the API to refuse at `up`, in the user's terms).
 */
export async function organizationFailures(
  inputs: Props,
  olds: Props = {},
  fields: readonly FieldName[] = [],
): Promise<Failure[]> {
  if (containsUnknown(inputs.connection)) return [];
  const oldBackground = membersOf(olds.background);
  const fresh = (value: unknown, before: unknown): value is string => known(value) && value !== before;
  let client: DeviceMgmtClient;
  try {
    client = clientForProps(inputs);
  } catch {
    return [];
  }
  const checks: Promise<Failure | undefined>[] = [];
  const { groupId, deviceId, mode, themeId } = inputs;
  if (fresh(groupId, olds.groupId)) {
    const id = groupId;
    checks.push(
      look(() => client.groups.get(id)).then((group) => {
        if (group === undefined)
          return { property: "groupId", reason: `groupId: no group with id ${id} exists.` };
        if (group && !group.isConfigured && !becomesConfigured(client, id))
          return {
            property: "groupId",
            reason:
              `groupId: group ${id} ("${group.name}") is not configured, and experiences belong to configured ` +
              `groups only. Set configured: true on the Group (configuring is irreversible).`,
          };
        return undefined;
      }),
    );
  }
  if (fresh(deviceId, olds.deviceId)) {
    const id = deviceId;
    checks.push(
      look(() => client.devices.get(id)).then((device) => {
        if (device === undefined)
          return { property: "deviceId", reason: `deviceId: no device with id ${id} exists.` };
        if (device?.group && !leavesItsGroup(client, id))
          return {
            property: "deviceId",
            reason:
              `deviceId: device ${id} ("${device.name}") is in group ${device.group.id} ("${device.group.name}"), ` +
              `and a device in a group shows its group's experience (the API refuses with 409). Declare the ` +
              `experience on the group (groupId), or take the device out of the group.`,
          };
        const needed = typeof mode === "string" ? GROUP_REQUIRED[mode] : undefined;
        if (!device || !needed || !fields.includes(needed) || inputs[needed] !== undefined) return undefined;
        // "Required for groups and Meta HMS devices": the device list's `hms_modes[]` filter tells which devices
        // are not (NON_APPLICABLE). A service that ignored the filter would list the device, and it passes.
        return look(() =>
          client.devices.all({ serialNumbers: [device.serialNumber], hmsModes: ["NON_APPLICABLE"] }),
        ).then((plain) =>
          !plain || plain.some((d) => d.id === device.id)
            ? undefined
            : {
                property: needed,
                reason:
                  `${needed} is required for mode "${String(mode)}" on device ${id} ("${device.name}", a ` +
                  `${device.deviceModel.name}), a Meta HMS device: the API requires it for groups and Meta HMS ` +
                  `devices. Declare it.`,
              },
        );
      }),
    );
  }
  const image = (property: string, id: unknown, before: unknown, type: ImageType) => {
    if (!fresh(id, before)) return;
    checks.push(
      look(() => client.images.get(id)).then((found) => {
        if (found === undefined)
          return { property, reason: `${property}: no image with id ${id} exists (see getImage).` };
        // An `unknown` image is an upload (the upload takes no type): whether a slot takes one is undocumented
        // (emulator switch uploadedImageType), so the API decides, not preview.
        if (found && found.type !== type && found.type !== "unknown")
          return {
            property,
            reason: `${property}: image ${id} is of type ${found.type}, but this needs an image of type ${type} (see getImage({ name, type: "${type}" })).`,
          };
        return undefined;
      }),
    );
  };
  image("menuIconImageId", inputs.menuIconImageId, olds.menuIconImageId, "headset-xp-menu-icon");
  const background = membersOf(inputs.background);
  image(
    "background.bannerImageId",
    background.bannerImageId,
    oldBackground.bannerImageId,
    "headset-xp-banner",
  );
  image(
    "background.skyboxImageId",
    background.skyboxImageId,
    oldBackground.skyboxImageId,
    "headset-xp-skybox",
  );
  image(
    "background.threeSixtyImageId",
    background.threeSixtyImageId,
    oldBackground.threeSixtyImageId,
    "three-sixty-background",
  );
  if (fresh(themeId, olds.themeId)) {
    const id = themeId;
    checks.push(
      look(() => client.themes.get(id)).then((theme) =>
        theme === undefined
          ? { property: "themeId", reason: `themeId: no theme with id ${id} exists (see getTheme).` }
          : undefined,
      ),
    );
  }
  const environmentId = background.custom3DEnvironmentId;
  if (fresh(environmentId, oldBackground.custom3DEnvironmentId)) {
    const id = environmentId;
    checks.push(
      look(() => client.custom3DEnvironments.all()).then((all) =>
        all && !all.some((e) => e.id === id)
          ? {
              property: "background.custom3DEnvironmentId",
              reason: `background.custom3DEnvironmentId: no custom 3D environment with id ${id} exists (see getCustom3DEnvironment).`,
            }
          : undefined,
      ),
    );
  }
  checks.push(...contentTypeChecks(client, inputs, olds));
  return (await Promise.all(checks)).filter((f): f is Failure => f !== undefined);
}

/** The catalogues a content `type` names an object of; other types (unmanaged apps, WebXR links) have none. */
const CONTENT_READS: Partial<Record<string, (client: DeviceMgmtClient, id: string) => Promise<unknown>>> = {
  app: (client, id) => client.apps.get(id),
  video: (client, id) => client.videos.get(id),
};

/**
 * Each new `{ type, id }` of `visibleContents`, `kioskContent` and `launcherContent` must name an object of its
 * type: a video's id given as an app is refused by the API at `up`; here the message says which type it is.
 */
function contentTypeChecks(
  client: DeviceMgmtClient,
  inputs: Props,
  olds: Props,
): Promise<Failure | undefined>[] {
  const items = (field: string, props: Props): [string, unknown][] => {
    const value = props[field];
    if (Array.isArray(value)) return value.map((item, i) => [`${field}[${i}]`, item]);
    return value === undefined ? [] : [[field, value]];
  };
  const before = new Set(
    ["visibleContents", "kioskContent", "launcherContent"].flatMap((field) =>
      items(field, olds).map(([, item]) => JSON.stringify(item)),
    ),
  );
  const checks: Promise<Failure | undefined>[] = [];
  for (const field of ["visibleContents", "kioskContent", "launcherContent"]) {
    for (const [path, item] of items(field, inputs)) {
      const { type, id } = membersOf(item);
      const read = typeof type === "string" ? CONTENT_READS[type] : undefined;
      if (!read || !known(id) || before.has(JSON.stringify(item))) continue;
      checks.push(
        look(() => read(client, id)).then(async (found) => {
          if (found !== undefined) return undefined;
          const others = Object.keys(CONTENT_READS).filter((t) => t !== type);
          const answers = await Promise.all(others.map((t) => look(() => CONTENT_READS[t]!(client, id))));
          const actual = others.find((_, i) => answers[i]);
          return {
            property: field,
            reason:
              actual === undefined
                ? `${path}: no ${String(type)} with id ${id} exists in the organization (see get${type === "app" ? "App" : "Video"}).`
                : `${path}: ${id} is the id of ${withArticle(actual)}, not of ${withArticle(String(type))}: set type: "${actual}", or correct the id.`,
          };
        }),
      );
    }
  }
  return checks;
}
