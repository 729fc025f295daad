import type * as pulumi from "@pulumi/pulumi";
import { NotFoundError, ValidationError, type DeviceMgmtClient } from "../client";
import { clientForProps } from "./context";
import { attachedReleaseChannel } from "./coalescedReads";
import { z } from "zod";
import {
  carriedInputs,
  checkProperties,
  containsUnknown,
  connectionSchema,
  connectionStaysInOrganization,
  diffProperties,
  jsonClean,
  notCreatedHere,
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
    adoptId: z
      .string({ error: `adoptId must be the attachment's id, <${ownerKey}>/<releaseChannelId>` })
      .refine((id) => parseAttachmentId(id) !== undefined, {
        error: `adoptId must be the attachment's id, <${ownerKey}>/<releaseChannelId>`,
      })
      .transform((id) => id.toLowerCase())
      .optional(),
    connection: connectionSchema,
  };
  const describe = (ownerId: string, rcId: string) =>
    `release channel ${rcId} on ${spec.ownerNoun} ${ownerId}`;
  const outputs = (ownerId: string, rcId: string, props: Props): Props =>
    jsonClean({ [ownerKey]: ownerId, releaseChannelId: rcId, ...carriedInputs(props) });

  return {
    async check(_olds, news) {
      const checked = checkProperties(spec.resourceName, shape, news);
      const mismatch = adoptIdMismatch(ownerKey, checked.inputs);
      if (mismatch) checked.failures.push({ property: "adoptId", reason: mismatch });
      return checked;
    },

    async diff(_id, olds, news): Promise<pulumi.dynamic.DiffResult> {
      return diffProperties(
        olds,
        news,
        { updatable: [], replaceOn: [ownerKey, "releaseChannelId"], naturalKey: true },
        await connectionStaysInOrganization(olds, news),
      );
    },

    async create(inputs) {
      const client = clientForProps(inputs);
      await client.assertV3Token();
      const ownerId = inputs[ownerKey] as string;
      const rcId = inputs.releaseChannelId as string;
      const result = { id: attachmentId(ownerId, rcId), outs: outputs(ownerId, rcId, inputs) };
      // Look before writing. An attachment that exists is taken over only when the program says so (adoptId):
      // taken silently, a later destroy or rename of this resource would detach it from under its owner.
      const attached = await unlessGone(spec.attached(client, ownerId, rcId));
      if (typeof inputs.adoptId === "string") {
        if (attached) return result;
        throw new Error(
          `adoptId: ${describe(ownerId, rcId)} is not attached, so there is nothing to adopt. Remove adoptId ` +
            `to attach it.`,
        );
      }
      if (attached) throw alreadyAttached(spec.resourceName, describe(ownerId, rcId), result.id);
      try {
        await untilApplied(
          async () => (await spec.attach(client, ownerId, rcId), true),
          async () => (await spec.attached(client, ownerId, rcId)) || undefined,
        );
        return result;
      } catch (error) {
        if (error instanceof ValidationError) {
          // Attached since we looked (by another writer): not ours to take over silently.
          if (await spec.attached(client, ownerId, rcId))
            throw alreadyAttached(spec.resourceName, describe(ownerId, rcId), result.id);
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

/** Pure: an adoptId that names another pair than the one declared (unknown values pass). */
export function adoptIdMismatch(ownerKey: string, inputs: Props): string | undefined {
  const adoptId = inputs.adoptId;
  const ownerId = inputs[ownerKey];
  const rcId = inputs.releaseChannelId;
  if (typeof adoptId !== "string" || typeof ownerId !== "string" || typeof rcId !== "string")
    return undefined;
  if (containsUnknown(adoptId) || containsUnknown(ownerId) || containsUnknown(rcId)) return undefined;
  const expected = attachmentId(ownerId, rcId);
  return adoptId === expected
    ? undefined
    : `adoptId ${adoptId} names another attachment than the one declared (${expected}): use adoptId: "${expected}".`;
}

function alreadyAttached(resourceName: string, what: string, id: string): Error {
  return notCreatedHere(
    `${what} is already attached, and this ${resourceName} did not attach it.`,
    "an attachment",
    id,
  );
}

/** True when the channel is in the owner's list; pages stop at the first match. */
export async function listContains(
  channels: AsyncIterable<{ id: string }>,
  releaseChannelId: string,
): Promise<boolean> {
  for await (const channel of channels) if (channel.id === releaseChannelId) return true;
  return false;
}
