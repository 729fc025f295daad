/** The generated program's channel versions: each channel's version, found by app and version name. */
import { section, statement, type KindSection } from "../../export/layout";
import { tsString } from "../../export/text";

export const releaseChannelVersionSection: KindSection = (plan, _declaring, construct) => {
  if (!plan.placement.channelVersions.length) return undefined;
  return section(
    "// The version each release channel delivers, found by app and version name (or the build declared above). Destroy leaves the channel as it is.",
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
        construct,
        [tsString(v.resourceName)],
        [
          ["appId", `${v.channelVariable}.appId`],
          ["releaseChannelId", `${v.channelVariable}.id`],
          ["versionId", `${v.versionVariable}.id`],
        ],
      ),
    ]),
  );
};
