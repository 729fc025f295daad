/**
 * The handler every attachment kind shares, generic over the kind's properties: ids, adoption, the look before a
 * write, the lost answer, refusals in the user's terms. A pairing (releaseChannels.ts, groupContent.ts,
 * deviceContent.ts) says which client calls attach, detach and look, and how a refusal reads.
 */
import type * as pulumi from "@pulumi/pulumi";
import { AdoptionError, MalformedIdError, NotPossibleError, type NotCreatedHereError } from "../../errors";
import { NotFoundError, ValidationError, type DeviceMgmtClient } from "../../client";
import {
  clientForProps,
  carriedInputs,
  containsUnknown,
  jsonClean,
  notCreatedHere,
  unlessGone,
  untilApplied,
  type Props,
  checkKind,
  diffKindAsked,
  type KindHandler,
  type KindIdentity,
  leftByUnfinishedCreate,
  type CheckedStateOf,
  type PropertySpecs,
  type StateOf,
} from "../../framework";
import { attachmentId, OWNERS, parseAttachmentId, type AttachmentState, type OwnerKey } from "./properties";

/**
 * One pairing of an owner (a group, a device) with what is attached to it (a release channel, a file, ...): the
 * client calls, and how a refusal is explained. Everything else is the shared logic below.
 */
export interface AttachmentSpec {
  /** How a person names what is attached, e.g. "release channel". */
  attachedNoun: string;
  /** Whether it is attached, as of now (a create's look before it writes). */
  attached(client: DeviceMgmtClient, ownerId: string, attachedId: string): Promise<boolean>;
  /** Whether it is attached, for refresh: may be answered from a pass shared by every resource of the run. */
  attachedForRead(client: DeviceMgmtClient, ownerId: string, attachedId: string): Promise<boolean>;
  /**
   * `ours`: the attachment, if already there, is this resource's own (its killed run made it, or the program
   * adopts it), so an "already attached" answer is success.
   */
  attach(client: DeviceMgmtClient, ownerId: string, attachedId: string, ours?: boolean): Promise<void>;
  detach(client: DeviceMgmtClient, ownerId: string, attachedId: string): Promise<void>;
  /** Explains a refused attach in the user's terms (unconfigured group, grouped device), or undefined. */
  explainRefusal(client: DeviceMgmtClient, ownerId: string): Promise<string | undefined>;
  /**
   * The API cannot list what the owner holds (a group's files and videos): `attached` cannot look, so adoption
   * attaches and takes "already attached" as the adopted attachment.
   */
  unlisted?: boolean;
  /** What the organization would refuse of the declared ids, asked at check (the owning kinds' catalogue.ts). */
  checkLive?(inputs: Props, olds: Props): Promise<pulumi.dynamic.CheckFailure[]>;
}

/** What the shared handler needs of a kind's declaration (properties.ts). */
export interface AttachmentKindDeclaration<P> {
  ownerKey: OwnerKey;
  attachedKey: string;
  properties: P;
  /** The attachment's ids as the kind's typed state names them. */
  stateOf(state: StateOf<P> | CheckedStateOf<P>): AttachmentState;
}

/**
 * The handler of an attachment kind (every attachment is a natural key: an owner holds a thing once), for the
 * kind's identity (properties.ts: its key names a killed run's attachment to claims.ts).
 */
export function attachmentHandler<P extends PropertySpecs<never>>(
  definition: KindIdentity<string, P>,
  declaration: AttachmentKindDeclaration<P>,
  spec: AttachmentSpec,
): KindHandler<P> {
  const { kind, type } = definition;
  const { ownerKey, attachedKey } = declaration;
  const ownerNoun = OWNERS[ownerKey].noun;
  const describe = (ownerId: string, attachedId: string) =>
    `${spec.attachedNoun} ${attachedId} on ${ownerNoun} ${ownerId}`;
  const refused = (action: string, what: string, reason: string) =>
    new NotPossibleError(`Cannot ${action} ${what}: ${reason}`, { kind: type, fix: reason });
  const outputs = (ownerId: string, attachedId: string, props: Props): Props =>
    jsonClean({ [ownerKey]: ownerId, [attachedKey]: attachedId, ...carriedInputs(props) });

  return {
    async check(olds, news) {
      const checked = checkKind(definition, news);
      const mismatch = adoptIdMismatch(ownerKey, attachedKey, checked.inputs);
      if (mismatch) checked.failures.push({ property: "adoptId", reason: mismatch });
      if (checked.failures.length === 0 && spec.checkLive)
        checked.failures.push(...(await spec.checkLive(checked.inputs, olds)));
      return checked;
    },

    async diff(_id, olds, news): Promise<pulumi.dynamic.DiffResult> {
      return diffKindAsked(definition, olds, news);
    },

    async create(inputs) {
      const client = clientForProps(inputs);
      const { ownerId, attachedId, adoptId } = declaration.stateOf(inputs);
      const result = { id: attachmentId(ownerId, attachedId), outs: outputs(ownerId, attachedId, inputs) };
      // Look before writing. An attachment that exists is taken over only when the program says so (adoptId):
      // taken silently, a later destroy or rename of this resource would detach it from under its owner.
      const attached = await unlessGone(spec.attached(client, ownerId, attachedId));
      if (adoptId !== undefined) {
        if (attached) return result;
        if (spec.unlisted) return (await spec.attach(client, ownerId, attachedId, true), result);
        throw new AdoptionError(
          `adoptId: ${describe(ownerId, attachedId)} is not attached, so there is nothing to adopt. Remove adoptId ` +
            `to attach it.`,
          adoptId,
          type,
        );
      }
      // What a killed run of this very resource attached is its own (interruptedCreates.ts).
      const ours = leftByUnfinishedCreate(kind, inputs, [{ id: result.id }]) !== undefined;
      if (attached && ours) return result;
      if (attached) throw alreadyAttached(type, describe(ownerId, attachedId), result.id);
      try {
        await untilApplied(
          async () => (await spec.attach(client, ownerId, attachedId, ours), true),
          async () => (await spec.attached(client, ownerId, attachedId)) || undefined,
        );
        return result;
      } catch (error) {
        if (error instanceof ValidationError) {
          // Attached since we looked (by another writer): not ours to take over silently.
          if (await spec.attached(client, ownerId, attachedId))
            throw alreadyAttached(type, describe(ownerId, attachedId), result.id);
          const reason = await spec.explainRefusal(client, ownerId);
          if (reason) throw refused("attach", describe(ownerId, attachedId), reason);
        }
        if (error instanceof NotFoundError) {
          throw new NotPossibleError(
            `Cannot attach ${describe(ownerId, attachedId)}: the ${ownerNoun} or the ${spec.attachedNoun} does not exist ` +
              `in the organization (${error.message}).`,
            { kind: type, fix: `correct ${ownerKey} or ${attachedKey}` },
          );
        }
        throw error;
      }
    },

    async read(id, props) {
      // The id names the pair (`pulumi import` gives nothing else); what state records is the same pair.
      const parsed = parseAttachmentId(id);
      if (!parsed)
        throw new MalformedIdError(`${type} id "${id}" is not <${ownerKey}>/<${attachedKey}>.`, type, id);
      const { ownerId, attachedId } = parsed;
      if (!(await unlessGone(spec.attachedForRead(clientForProps(props), ownerId, attachedId)))) return {};
      const live = outputs(ownerId, attachedId, props);
      return { id, props: live, inputs: live };
    },

    async update(_id, _olds, news) {
      // Every property replaces; only the token (connection) can change in place.
      const { ownerId, attachedId } = declaration.stateOf(news);
      return { outs: outputs(ownerId, attachedId, news) };
    },

    async delete(_id, props) {
      const client = clientForProps(props);
      const { ownerId, attachedId } = declaration.stateOf(props);
      try {
        await spec.detach(client, ownerId, attachedId);
      } catch (error) {
        if (error instanceof NotFoundError) return;
        if (error instanceof ValidationError) {
          // Refused because the owner changed outside Pulumi (e.g. a device put into a group), which also
          // dropped the channel: nothing is left to detach.
          if (!(await spec.attached(client, ownerId, attachedId))) return;
          const reason = await spec.explainRefusal(client, ownerId);
          if (reason) throw refused("detach", describe(ownerId, attachedId), reason);
        }
        throw error;
      }
    },
  };
}

/** Pure: an adoptId that names another pair than the one declared (unknown values pass). */
export function adoptIdMismatch(ownerKey: string, attachedKey: string, inputs: Props): string | undefined {
  const adoptId = inputs.adoptId;
  const ownerId = inputs[ownerKey];
  const attachedId = inputs[attachedKey];
  if (typeof adoptId !== "string" || typeof ownerId !== "string" || typeof attachedId !== "string")
    return undefined;
  if (containsUnknown(adoptId) || containsUnknown(ownerId) || containsUnknown(attachedId)) return undefined;
  const expected = attachmentId(ownerId, attachedId);
  return adoptId === expected
    ? undefined
    : `adoptId ${adoptId} names another attachment than the one declared (${expected}): use adoptId: "${expected}".`;
}

function alreadyAttached(resourceName: string, what: string, id: string): NotCreatedHereError {
  return notCreatedHere(
    `${what} is already attached, and this ${resourceName} did not attach it.`,
    "an attachment",
    id,
  );
}

/** True when the id is in the owner's list; pages stop at the first match. */
export async function listContains(items: AsyncIterable<{ id: string }>, id: string): Promise<boolean> {
  for await (const item of items) if (item.id === id) return true;
  return false;
}

// ---- Why an owner refuses --------------------------------------------------------------------------------------

/** Why a group refuses `what` (release channels, files, videos): it is not configured. */
export async function unconfiguredGroup(client: DeviceMgmtClient, groupId: string, what: string) {
  const group = await client.groups.get(groupId);
  return group.isConfigured
    ? undefined
    : `group ${groupId} ("${group.name}") is not configured, and ${what} attach only to configured groups. Set ` +
        `configured: true on the Group (configuring is irreversible).`;
}

/** Why a device refuses its own channels, files and videos: it is in a group (`instead` names the group's kind). */
export async function groupedDevice(
  client: DeviceMgmtClient,
  deviceId: string,
  what: string,
  instead: string,
) {
  const device = await client.devices.get(deviceId);
  return device.group
    ? `device ${deviceId} ("${device.name}") is in group ${device.group.id} ("${device.group.name}"), and ${what} ` +
        `attach to a device only while it is ungrouped. Attach to the group instead (${instead}), or take the ` +
        `device out of the group.`
    : undefined;
}
