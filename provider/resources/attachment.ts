import type * as pulumi from "@pulumi/pulumi";
import { NotFoundError, ValidationError, type DeviceMgmtClient } from "../client";
import { clientForProps } from "./context";
import { attachedReleaseChannel } from "./coalescedReads";
import {
  carriedInputs,
  checkProperties,
  connectionSchema,
  connectionStaysInOrganization,
  diffProperties,
  jsonClean,
  unlessGone,
  untilApplied,
  uuid,
  type Props,
  type ResourceHandler,
} from "./framework";

/**
 * What differs between attaching a release channel to a group and to a device: the owner's property name and
 * the client calls. Everything else — ids, adoption, ambiguity, preconditions — is shared.
 */
export interface AttachmentSpec {
  resourceName: string;
  ownerKey: "groupId" | "deviceId";
  ownerNoun: string;
  attached(client: DeviceMgmtClient, ownerId: string, releaseChannelId: string): Promise<boolean>;
  attach(client: DeviceMgmtClient, ownerId: string, releaseChannelId: string): Promise<void>;
  detach(client: DeviceMgmtClient, ownerId: string, releaseChannelId: string): Promise<void>;
  /** Explains a refused attach in the user's terms (unconfigured group, grouped device), or undefined. */
  explainRefusal(client: DeviceMgmtClient, ownerId: string): Promise<string | undefined>;
}

/** Attachment ids are `<owner id>/<release channel id>`, so an existing attachment can be named and adopted. */
export const attachmentId = (ownerId: string, releaseChannelId: string) => `${ownerId}/${releaseChannelId}`;

export function parseAttachmentId(id: string): { ownerId: string; releaseChannelId: string } | undefined {
  const [ownerId, releaseChannelId, ...rest] = id.split("/");
  return ownerId && releaseChannelId && rest.length === 0 ? { ownerId, releaseChannelId } : undefined;
}

export function attachmentHandler(spec: AttachmentSpec): ResourceHandler {
  const { ownerKey } = spec;
  const shape = {
    [ownerKey]: uuid(ownerKey),
    releaseChannelId: uuid("releaseChannelId"),
    connection: connectionSchema,
  };
  const describe = (ownerId: string, rcId: string) =>
    `release channel ${rcId} on ${spec.ownerNoun} ${ownerId}`;
  const outputs = (ownerId: string, rcId: string, props: Props): Props =>
    jsonClean({ [ownerKey]: ownerId, releaseChannelId: rcId, ...carriedInputs(props) });

  return {
    async check(_olds, news) {
      return checkProperties(spec.resourceName, shape, news);
    },

    async diff(_id, olds, news): Promise<pulumi.dynamic.DiffResult> {
      return diffProperties(
        olds,
        news,
        { updatable: [], replaceOn: [ownerKey, "releaseChannelId"] },
        await connectionStaysInOrganization(olds, news),
      );
    },

    async create(inputs) {
      const client = clientForProps(inputs);
      await client.assertV3Token();
      const ownerId = inputs[ownerKey] as string;
      const rcId = inputs.releaseChannelId as string;
      const result = { id: attachmentId(ownerId, rcId), outs: outputs(ownerId, rcId, inputs) };
      // Look before writing: adopting an attachment that exists (an exported org, a lost answer) writes nothing.
      if (await unlessGone(spec.attached(client, ownerId, rcId))) return result;
      try {
        await untilApplied(
          async () => (await spec.attach(client, ownerId, rcId), true),
          async () => (await spec.attached(client, ownerId, rcId)) || undefined,
        );
        return result;
      } catch (error) {
        if (error instanceof ValidationError) {
          // Already attached (made outside Pulumi, or by an earlier run that lost its answer): adopt it.
          if (await spec.attached(client, ownerId, rcId)) return result;
          const reason = await spec.explainRefusal(client, ownerId);
          if (reason) throw new Error(`Cannot attach ${describe(ownerId, rcId)}: ${reason}`);
        }
        if (error instanceof NotFoundError) {
          throw new Error(
            `Cannot attach ${describe(ownerId, rcId)}: the ${spec.ownerNoun} or the release channel does not exist ` +
              `in the organization (${error.message}).`,
          );
        }
        throw error;
      }
    },

    async read(id, props) {
      const client = clientForProps(props);
      const parsed = parseAttachmentId(id);
      const ownerId = (props[ownerKey] as string | undefined) ?? parsed?.ownerId;
      const rcId = (props.releaseChannelId as string | undefined) ?? parsed?.releaseChannelId;
      if (!ownerId || !rcId)
        throw new Error(`${spec.resourceName} id "${id}" is not <${ownerKey}>/<releaseChannelId>.`);
      if (!(await unlessGone(attachedReleaseChannel(client, ownerKey, ownerId, rcId)))) return {};
      const live = outputs(ownerId, rcId, props);
      return { id, props: live, inputs: live };
    },

    async update(_id, _olds, news) {
      // Every property replaces; only the token (connection) can change in place.
      return { outs: outputs(news[ownerKey] as string, news.releaseChannelId as string, news) };
    },

    async delete(_id, props) {
      const client = clientForProps(props);
      await client.assertV3Token();
      const ownerId = props[ownerKey] as string;
      const rcId = props.releaseChannelId as string;
      try {
        await spec.detach(client, ownerId, rcId);
      } catch (error) {
        if (error instanceof NotFoundError) return;
        if (error instanceof ValidationError) {
          // Refused because the owner changed outside Pulumi (e.g. a device put into a group), which also
          // dropped the channel: nothing is left to detach.
          if (!(await spec.attached(client, ownerId, rcId))) return;
          const reason = await spec.explainRefusal(client, ownerId);
          if (reason) throw new Error(`Cannot detach ${describe(ownerId, rcId)}: ${reason}`);
        }
        throw error;
      }
    },
  };
}

/** True when the channel is in the owner's list; pages stop at the first match. */
export async function listContains(
  channels: AsyncIterable<{ id: string }>,
  releaseChannelId: string,
): Promise<boolean> {
  for await (const channel of channels) if (channel.id === releaseChannelId) return true;
  return false;
}
