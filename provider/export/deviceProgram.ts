/**
 * The generated program's sections for tags, devices and channel versions (KIND_SECTIONS in program.ts).
 */
import type { ProgramPlan } from "./naming";
import { statement, type Declaring } from "./layout";
import { tsString } from "./text";

const section = (comment: string, lines: string[]) => [comment, ...lines].join("\n");

/** Files and videos on ungrouped devices, by `<deviceId>/<fileId|videoId>` in the adopt map. */
export function deviceContentSection(
  plan: ProgramPlan,
  { adopt, opts }: Declaring,
  type: "file" | "video",
): string | undefined {
  const items = plan.placement.deviceContent.filter((c) => c.content.type === type);
  if (!items.length) return undefined;
  return section(
    `// ${type === "file" ? "Files" : "Videos"} on ungrouped devices themselves.`,
    items.map((c) =>
      statement(
        undefined,
        type === "file" ? "new dm.DeviceFile" : "new dm.DeviceVideo",
        [tsString(c.resourceName)],
        [
          ["deviceId", `${c.deviceVariable}.id`],
          [type === "file" ? "fileId" : "videoId", `${c.contentVariable}.id`],
          adopt(c.resourceName),
        ],
        opts(c.resourceName),
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
