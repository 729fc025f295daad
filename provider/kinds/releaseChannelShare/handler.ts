/**
 * The ReleaseChannelShare kind's CRUD, on typed inputs: create shares (surviving a lost answer), read sees only
 * whether the channel is still there, delete unshares.
 */
import { MalformedIdError, NotCreatedHereError } from "../../errors";
import { AmbiguousWriteError, ValidationError, type DeviceMgmtClient } from "../../client";
import {
  clientForProps,
  jsonClean,
  unlessGone,
  type Props,
  checkKind,
  diffKindAsked,
  liveInputs,
  type InputsOf,
  type KindHandler,
  runLedger,
  leftByUnfinishedCreate,
  explainedNotFound,
} from "../../framework";
import { appChannelFailures } from "../app/catalogue";
import { shareSlugFailures } from "./catalogue";
import { type ReleaseChannelShareProperties, releaseChannelShareIdentity } from "./properties";

type Declared = InputsOf<ReleaseChannelShareProperties>;

const shareId = ({ appId, releaseChannelId, organizationSlug }: Declared) =>
  `${appId}/${releaseChannelId}/${organizationSlug}`;

const outputsOf = ({ appId, releaseChannelId, organizationSlug, connection }: Declared): Props =>
  jsonClean({ appId, releaseChannelId, organizationSlug, connection });

/**
 * Shares, surviving a lost answer: the API cannot list a channel's shares, so a repeat of a share whose first
 * answer was lost may meet it ("already shared", 422 on organizationSlug), which is then success. The same
 * answer to a first attempt is refused: the slug names no other organization, or the channel is already shared
 * with it from outside this stack, which cannot be adopted (unlisted).
 */
async function shareOnce(client: DeviceMgmtClient, inputs: Declared): Promise<void> {
  const { appId, releaseChannelId: rcId, organizationSlug: slug } = inputs;
  // A share a killed run of this very resource made is its own (interruptedCreates.ts): "already shared" is done.
  let repeat =
    leftByUnfinishedCreate(releaseChannelShareIdentity.kind, inputs, [{ id: shareId(inputs) }]) !== undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      await client.releases.share(appId, rcId, slug);
      return;
    } catch (error) {
      if (error instanceof AmbiguousWriteError && attempt < 5) {
        repeat = true;
        continue;
      }
      const refused = error instanceof ValidationError && error.fieldErrors?.organizationSlug !== undefined;
      if (refused && (repeat || error.afterAmbiguousAttempt)) return;
      if (refused) {
        runLedger.recordRefusedCreate(shareId(inputs));
        throw new NotCreatedHereError(
          `Cannot share release channel ${rcId} with "${slug}": ${error.fieldErrors?.organizationSlug?.join(" ")} ` +
            `Nothing was changed. Correct organizationSlug if it names no other organization. If the channel is ` +
            `already shared with it (from outside this stack, or by this resource under another name: add aliases), ` +
            `note that the API cannot list shares, so such a share cannot be adopted: unshare it in the portal, ` +
            `then run up again.`,
          shareId(inputs),
        );
      }
      throw error;
    }
  }
}

export const releaseChannelShareHandler: KindHandler<ReleaseChannelShareProperties> = {
  async check(olds, news) {
    const checked = checkKind(releaseChannelShareIdentity, news);
    if (checked.failures.length > 0) return checked;
    const [channel, slug] = await Promise.all([
      appChannelFailures(checked.inputs, olds),
      shareSlugFailures(checked.inputs, olds),
    ]);
    checked.failures.push(...channel, ...slug);
    return checked;
  },
  async diff(_id, olds, news) {
    return diffKindAsked(releaseChannelShareIdentity, olds, news);
  },
  async create(inputs) {
    const client = clientForProps(inputs);
    try {
      await shareOnce(client, inputs);
    } catch (error) {
      throw await explainedNotFound("ReleaseChannelShare", error, () => appChannelFailures(inputs, {}));
    }
    return { id: shareId(inputs), outs: outputsOf(inputs) };
  },
  async read(id, props) {
    // The API cannot list shares: refresh sees the channel gone, not an unshare made in the portal.
    const [appId, releaseChannelId, organizationSlug, ...rest] = id.split("/");
    if (!appId || !releaseChannelId || !organizationSlug || rest.length)
      throw new MalformedIdError(
        `ReleaseChannelShare id "${id}" is not <appId>/<releaseChannelId>/<organizationSlug>.`,
        "ReleaseChannelShare",
        id,
      );
    const channel = await unlessGone(clientForProps(props).apps.releaseChannel(appId, releaseChannelId));
    if (!channel) return {};
    // An import hands read the id alone: the recorded properties, where there are any, else the id's parts.
    const outputs = outputsOf({
      ...props,
      appId: props.appId ?? appId,
      releaseChannelId: props.releaseChannelId ?? releaseChannelId,
      organizationSlug: props.organizationSlug ?? organizationSlug,
    });
    return { id, props: outputs, inputs: liveInputs(releaseChannelShareIdentity, outputs) };
  },
  async update(_id, _olds, news) {
    return { outs: outputsOf(news) };
  },
  async delete(_id, props) {
    const client = clientForProps(props);
    try {
      await unlessGone(client.releases.unshare(props.appId, props.releaseChannelId, props.organizationSlug));
    } catch (error) {
      // "Not shared" (unshared in the portal, or the other organization is gone): nothing is left to undo.
      if (error instanceof ValidationError && error.fieldErrors?.organizationSlug !== undefined) return;
      throw error;
    }
  },
};
