import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { MalformedIdError, NotCreatedHereError } from "../../errors";
import { AmbiguousWriteError, ValidationError, type DeviceMgmtClient } from "../../client";
import { DeviceMgmtResource, type ConnectionArg } from "../../framework/common";
import { clientForProps } from "../../framework/context";
import { jsonClean, unlessGone, uuid, type Props, type ResourceHandler } from "../../framework/framework";
import { checkKind, defineKind, diffKindAsked, liveInputs, registration } from "../../framework/kind";
import { carried, type PropertySpecs } from "../../framework/properties";
import { runLedger } from "../../framework/runLedger";
import { leftByUnfinishedCreate } from "../../framework/claims";
import { appChannelFailures, explainedNotFound, shareSlugFailures } from "../../framework/catalogueChecks";

const shareProperties = {
  appId: { schema: uuid("appId"), change: "replace" },
  releaseChannelId: { schema: uuid("releaseChannelId"), change: "replace" },
  organizationSlug: {
    schema: z
      .string({ error: "organizationSlug must be the other organization's slug, e.g. acme-staging" })
      .trim()
      .min(1, { error: "organizationSlug must not be empty" }),
    change: "replace",
  },
  connection: carried.connection,
} satisfies PropertySpecs<never>;

const shareId = (props: Props) =>
  `${String(props.appId)}/${String(props.releaseChannelId)}/${String(props.organizationSlug)}`;

const outputsOf = (props: Props): Props =>
  jsonClean({
    appId: props.appId,
    releaseChannelId: props.releaseChannelId,
    organizationSlug: props.organizationSlug,
    connection: props.connection,
  });

/**
 * Shares, surviving a lost answer: the API cannot list a channel's shares, so a repeat of a share whose first
 * answer was lost may meet it ("already shared", 422 on organizationSlug), which is then success. The same
 * answer to a first attempt is refused: the slug names no other organization, or the channel is already shared
 * with it from outside this stack, which cannot be adopted (unlisted).
 */
async function shareOnce(client: DeviceMgmtClient, props: Props): Promise<void> {
  const appId = props.appId as string;
  const rcId = props.releaseChannelId as string;
  const slug = props.organizationSlug as string;
  // A share a killed run of this very resource made is its own (interruptedCreates.ts): "already shared" is done.
  let repeat = leftByUnfinishedCreate("releaseChannelShare", props, [{ id: shareId(props) }]) !== undefined;
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
        runLedger.recordRefusedCreate(shareId(props));
        throw new NotCreatedHereError(
          `Cannot share release channel ${rcId} with "${slug}": ${error.fieldErrors?.organizationSlug?.join(" ")} ` +
            `Nothing was changed. Correct organizationSlug if it names no other organization. If the channel is ` +
            `already shared with it (from outside this stack, or by this resource under another name: add aliases), ` +
            `note that the API cannot list shares, so such a share cannot be adopted: unshare it in the portal, ` +
            `then run up again.`,
          shareId(props),
        );
      }
      throw error;
    }
  }
}

export const releaseChannelShareHandler: ResourceHandler = {
  async check(olds, news) {
    const checked = checkKind(releaseChannelShareKind, news);
    if (checked.failures.length > 0) return checked;
    const [channel, slug] = await Promise.all([
      appChannelFailures(checked.inputs, olds),
      shareSlugFailures(checked.inputs, olds),
    ]);
    checked.failures.push(...channel, ...slug);
    return checked;
  },
  async diff(_id, olds, news) {
    return diffKindAsked(releaseChannelShareKind, olds, news);
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
    const outputs = outputsOf({ appId, releaseChannelId, organizationSlug, ...props });
    return { id, props: outputs, inputs: liveInputs(releaseChannelShareKind, outputs) };
  },
  async update(_id, _olds, news) {
    return { outs: outputsOf(news) };
  },
  async delete(_id, props) {
    const client = clientForProps(props);
    try {
      await unlessGone(
        client.releases.unshare(
          props.appId as string,
          props.releaseChannelId as string,
          props.organizationSlug as string,
        ),
      );
    } catch (error) {
      // "Not shared" (unshared in the portal, or the other organization is gone): nothing is left to undo.
      if (error instanceof ValidationError && error.fieldErrors?.organizationSlug !== undefined) return;
      throw error;
    }
  },
};

/** The inputs of a {@link ReleaseChannelShare}. */
export interface ReleaseChannelShareArgs extends ConnectionArg {
  /** The channel's app. */
  appId: pulumi.Input<string>;
  /** The release channel to share. */
  releaseChannelId: pulumi.Input<string>;
  /** The other organization's slug. */
  organizationSlug: pulumi.Input<string>;
}

/**
 * A release channel shared with another organization (by slug). Any change replaces it; destroy unshares. The
 * API cannot list a channel's shares: refresh notices the channel deleted, not an unshare made in the portal.
 *
 * @example
 * const beta = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Beta" });
 * new dm.ReleaseChannelShare("beta-to-staging", {
 *   appId: beta.appId, releaseChannelId: beta.id, organizationSlug: "acme-staging",
 * });
 */
export class ReleaseChannelShare extends DeviceMgmtResource {
  declare readonly appId: pulumi.Output<string>;
  declare readonly releaseChannelId: pulumi.Output<string>;
  declare readonly organizationSlug: pulumi.Output<string>;

  constructor(name: string, args: ReleaseChannelShareArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(releaseChannelShareKind, name, args, opts));
  }
}

export const releaseChannelShareKind = defineKind({
  kind: "releaseChannelShare",
  type: "ReleaseChannelShare",
  naturalKey: true,
  properties: shareProperties,
  outputs: [],
  handler: releaseChannelShareHandler,
});
