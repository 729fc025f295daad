/**
 * The generated program's attachments: release channels on groups and on ungrouped devices, and the files and
 * videos of ungrouped devices, each adoptable by its `<ownerId>/<attachedId>` in the adopt map. A group's files
 * and videos are not exported: the API cannot list them.
 */
import { section, statement, type KindSection } from "../../export/layout";
import { tsString } from "../../export/text";

export const groupReleaseChannelSection: KindSection = (plan, { adopt, opts }, construct) => {
  if (!plan.groupChannels.length) return undefined;
  return section(
    "// Release channels on groups (an attachment's id is <groupId>/<releaseChannelId>).",
    plan.groupChannels.map((a) =>
      statement(
        undefined,
        construct,
        [tsString(a.resourceName)],
        [
          ["groupId", `${a.groupVariable}.id`],
          ["releaseChannelId", `${a.channelVariable}.id`],
          adopt(a.resourceName),
        ],
        opts(a.resourceName),
      ),
    ),
  );
};

/** Also where the ungrouped devices that hold channels or experiences are looked up by name. */
export const deviceReleaseChannelSection: KindSection = (plan, { adopt, opts }, construct) => {
  if (!plan.devices.length) return undefined;
  return section(
    plan.devices.some((d) => d.channels.length)
      ? "// Release channels on ungrouped devices; devices are looked up by name (a staging organization mirrors them)."
      : "// Ungrouped devices with experiences, looked up by name (a staging organization mirrors them).",
    plan.devices.flatMap((d) => [
      statement(d.variable, "dm.getDeviceOutput", [], [["name", tsString(d.deviceName)]]),
      ...d.channels.map((a) =>
        statement(
          undefined,
          construct,
          [tsString(a.resourceName)],
          [
            ["deviceId", `${d.variable}.id`],
            ["releaseChannelId", `${a.channelVariable}.id`],
            adopt(a.resourceName),
          ],
          opts(a.resourceName),
        ),
      ),
    ]),
  );
};

/** A group's files or videos: not exported. */
export const groupContentSection = (what: "file" | "video"): KindSection => ({
  notExported: `the API lists no group's ${what}s (no GET /groups/{id}/${what}s), so they cannot be read back`,
});

/** Files or videos on ungrouped devices. */
export const deviceContentSection =
  (type: "file" | "video"): KindSection =>
  (plan, { adopt, opts }, construct) => {
    const items = plan.placement.deviceContent.filter((c) => c.content.type === type);
    if (!items.length) return undefined;
    return section(
      `// ${type === "file" ? "Files" : "Videos"} on ungrouped devices themselves.`,
      items.map((c) =>
        statement(
          undefined,
          construct,
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
  };
