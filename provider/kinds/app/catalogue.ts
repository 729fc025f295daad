/**
 * The App kind's part of preview's catalogue checks: a release channel named with its app (a channel version,
 * a share) is a channel of that app.
 */
import { type Props, clientOf, known, look, type Failure } from "../../framework";

/**
 * `releaseChannelId` must be a channel of the app `appId` (the API reads a channel under its app, so a channel
 * of another app is a bare 404 at `up`). Says which of the two is wrong, with the app's channels by name.
 */
export async function appChannelFailures(inputs: Props, olds: Props): Promise<Failure[]> {
  const appId = inputs.appId;
  const channelId = inputs.releaseChannelId;
  if (!known(appId) || !known(channelId)) return [];
  if (appId === olds.appId && channelId === olds.releaseChannelId) return [];
  const client = clientOf(inputs);
  if (client === undefined) return [];
  const channel = await look(() => client.apps.releaseChannel(appId, channelId));
  if (channel !== undefined) return [];
  const app = await look(() => client.apps.get(appId));
  if (app === undefined)
    return [
      {
        property: "appId",
        reason: `appId: no app with id ${appId} exists in the organization (see getApp).`,
      },
    ];
  if (app === null) return [];
  const channels = await look(async () => {
    const names: string[] = [];
    for await (const c of client.apps.releaseChannels(appId)) names.push(`"${c.name}" (${c.id})`);
    return names;
  });
  const listed = channels?.length ? ` Its channels: ${channels.join(", ")}.` : "";
  return [
    {
      property: "releaseChannelId",
      reason:
        `releaseChannelId: app ${appId} ("${app.name}") has no release channel ${channelId}; a channel belongs ` +
        `to one app, so appId and releaseChannelId must name the same one (see getReleaseChannel's appId).${listed}`,
    },
  ];
}
