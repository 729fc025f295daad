/**
 * The generated program's sections for tags, devices and channel versions (KIND_SECTIONS in program.ts).
 */
import type { ProgramPlan } from "./naming";
import { statement, type Declaring } from "./layout";
import { tsString } from "./text";

const section = (comment: string, lines: string[]) => [comment, ...lines].join("\n");

export function tagSection(plan: ProgramPlan, { adopt, opts }: Declaring): string | undefined {
  if (!plan.placement.tags.length) return undefined;
  // A tag no device or tag set carries is declared without a variable: nothing would read it.
  const read = new Set([...plan.placement.devices, ...plan.placement.tagSets].flatMap((d) => d.tagVariables));
  return section(
    "// The tag catalogue. Devices, groups, apps, files and videos carry tags by name.",
    plan.placement.tags.map((t) =>
      statement(
        read.has(t.variable) ? t.variable : undefined,
        "new dm.Tag",
        [tsString(t.resourceName)],
        [["name", tsString(t.tag.name)], adopt(t.resourceName)],
        opts(t.resourceName),
      ),
    ),
  );
}

/** The apps, files and videos that tag sets and device content refer to, by name. */
function contentLookupLines(plan: ProgramPlan): string[] {
  const lookup = {
    app: ["dm.getAppOutput", "name"],
    file: ["dm.getFileOutput", "filename"],
    video: ["dm.getVideoOutput", "name"],
  };
  return plan.placement.contentLookups.map((l) =>
    statement(l.variable, lookup[l.type][0], [], [[lookup[l.type][1], tsString(l.name)]]),
  );
}

/** Tag sets of apps, files and videos, with the lookups of what they and device content refer to. */
export function tagSetSection(plan: ProgramPlan): string | undefined {
  const lookups = contentLookupLines(plan);
  if (!lookups.length) return undefined;
  return section("// Apps, files and videos, looked up by name; the tags each carries (the whole set).", [
    ...lookups,
    ...plan.placement.tagSets.map((t) =>
      statement(
        undefined,
        "new dm.TagSet",
        [tsString(t.resourceName)],
        [
          ["ownerType", tsString(t.tagSet.ownerType)],
          ["ownerId", `${t.ownerVariable}.id`],
          [
            "tags",
            {
              array: t.tagSet.tags.map((tag, i) =>
                t.tagVariables[i] ? `${t.tagVariables[i]}.name` : tsString(tag),
              ),
            },
          ],
        ],
      ),
    ),
  ]);
}

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
