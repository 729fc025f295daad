/**
 * The generated program's sections for tags, devices and channel versions (KIND_SECTIONS in program.ts).
 */
import type { ProgramPlan } from "./naming";
import { statement, type Expr } from "./program";
import { tsString } from "./text";

interface Declaring {
  adopt(resourceName: string): [string, Expr];
  opts(resourceName: string): string;
}

const section = (comment: string, lines: string[]) => [comment, ...lines].join("\n");

/** An object key as prettier writes it: bare where it is an identifier, quoted otherwise. */
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : tsString(name));

export function tagSection(plan: ProgramPlan, { adopt, opts }: Declaring): string | undefined {
  if (!plan.placement.tags.length) return undefined;
  return section(
    "// The tag catalogue. Devices, groups, apps, files and videos carry tags by name.",
    plan.placement.tags.map((t) =>
      statement(
        t.variable,
        "new dm.Tag",
        [tsString(t.resourceName)],
        [["name", tsString(t.tag.name)], adopt(t.resourceName)],
        opts(t.resourceName),
      ),
    ),
  );
}

export function deviceSection(plan: ProgramPlan): string | undefined {
  if (!plan.placement.devices.length) return undefined;
  return section(
    [
      "// Devices are enrolled on the headset, never created: each is adopted by serial number, and destroy leaves it",
      '// where it is. Stack config "absentDevices" lists those this stack\'s organization has not enrolled (the',
      "// staging match sets it), so a staging copy places only the headsets it holds.",
      'const absentDevices = new Set(config.getObject<string[]>("absentDevices") ?? []);',
      "const placeDevice = (resourceName: string, args: dm.DeviceArgs) =>",
      "  absentDevices.has(resourceName) ? undefined : new dm.Device(resourceName, args);",
    ].join("\n"),
    plan.placement.devices.map((d) =>
      statement(
        undefined,
        "placeDevice",
        [tsString(d.resourceName)],
        [
          ["serialNumber", tsString(d.device.serialNumber)],
          ["name", tsString(d.device.name)],
          ["groupId", d.groupVariable ? `${d.groupVariable}.id` : "null"],
          [
            "tags",
            {
              array: d.device.tags.map((t, i) =>
                d.tagVariables[i] ? `${d.tagVariables[i]}.name` : tsString(t),
              ),
            },
          ],
          [
            "customFields",
            { object: d.device.customFields.map(([k, v]) => [key(k), tsString(v)] as [string, Expr]) },
          ],
        ],
      ),
    ),
  );
}

export function channelVersionSection(plan: ProgramPlan): string | undefined {
  if (!plan.placement.channelVersions.length) return undefined;
  return section(
    "// The version each release channel delivers, found by app and version name. Destroy leaves the channel as it is.",
    plan.placement.channelVersions.flatMap((v) => [
      ...(v.firstWithVersion
        ? [
            statement(
              v.versionVariable,
              "dm.getAppVersionOutput",
              [],
              [
                ["appName", tsString(v.channelVersion.appName)],
                ["version", tsString(v.channelVersion.version)],
              ],
            ),
          ]
        : []),
      statement(
        undefined,
        "new dm.ReleaseChannelVersion",
        [tsString(v.resourceName)],
        [
          ["appId", `${v.channelVariable}.appId`],
          ["releaseChannelId", `${v.channelVariable}.id`],
          ["versionId", `${v.versionVariable}.id`],
        ],
      ),
    ]),
  );
}
