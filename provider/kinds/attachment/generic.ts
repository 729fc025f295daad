import type * as pulumi from "@pulumi/pulumi";
import { AdoptionError, MalformedIdError, NotPossibleError } from "../../errors";
import { z } from "zod";
import { NotFoundError, ValidationError, type DeviceMgmtClient } from "../../client";
import { clientForProps } from "../../framework/context";
import {
  carriedInputs,
  containsUnknown,
  jsonClean,
  notCreatedHere,
  unlessGone,
  untilApplied,
  uuid,
  type Props,
  type ResourceHandler,
} from "../../framework/framework";
import { checkKind, diffKindAsked } from "../../framework/kind";
import { leftByUnfinishedCreate } from "../../framework/claims";
import { carried, type PropertySpec } from "../../framework/properties";

/** The owners an attachment can have, by the property that names them. */
export const OWNERS = {
  groupId: { noun: "group" },
  deviceId: { noun: "device" },
} as const;
export type OwnerKey = keyof typeof OWNERS;

/**
 * One pairing of an owner (a group, a device) with what is attached to it (a release channel, a file, ...):
 * the property names, the client calls, and how a refusal is explained. Everything else (ids, adoption,
 * ambiguity, preconditions, diff) is the shared attachment logic below.
 */
export interface AttachmentSpec<Owner extends OwnerKey = OwnerKey, Attached extends string = string> {
  /** The type token's last part and the name users see, e.g. "GroupReleaseChannel". */
  resourceName: string;
  ownerKey: Owner;
  /** The property naming what is attached, e.g. "releaseChannelId". */
  attachedKey: Attached;
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
  /** What the organization would refuse of the declared ids, asked at check (see catalogueChecks.ts). */
  checkLive?(inputs: Props, olds: Props): Promise<pulumi.dynamic.CheckFailure[]>;
}

/** Attachment ids are `<owner id>/<attached id>`, so an existing attachment can be named and adopted. */
export const attachmentId = (ownerId: string, attachedId: string) => `${ownerId}/${attachedId}`;

export function parseAttachmentId(id: string): { ownerId: string; attachedId: string } | undefined {
  const [ownerId, attachedId, ...rest] = id.split("/");
  return ownerId && attachedId && rest.length === 0 ? { ownerId, attachedId } : undefined;
}

/** The declared properties of an attachment: owner and attached (both replace), adoption and connection. */
export function attachmentProperties<Owner extends string, Attached extends string>(
  ownerKey: Owner,
  attachedKey: Attached,
): { [K in Owner | Attached | "adoptId"]: PropertySpec<never, string> } & Pick<typeof carried, "connection"> {
  const adoptIdError = `adoptId must be the attachment's id, <${ownerKey}>/<${attachedKey}>`;
  return {
    [ownerKey]: { schema: uuid(ownerKey), change: "replace" },
    [attachedKey]: { schema: uuid(attachedKey), change: "replace" },
    adoptId: {
      schema: z
        .string({ error: adoptIdError })
        .refine((id) => parseAttachmentId(id) !== undefined, { error: adoptIdError })
        .transform((id) => id.toLowerCase())
        .optional(),
      change: "createOnly",
    },
    connection: carried.connection,
  } as { [K in Owner | Attached | "adoptId"]: PropertySpec<never, string> } & Pick<
    typeof carried,
    "connection"
  >;
}

/** The handler of an attachment kind (every attachment is a natural key: an owner holds a thing once). */
export function attachmentHandler(spec: AttachmentSpec, kind: string): ResourceHandler {
  const { ownerKey, attachedKey } = spec;
  const declaration = {
    type: spec.resourceName,
    properties: attachmentProperties(ownerKey, attachedKey),
    naturalKey: true,
  };
  const ownerNoun = OWNERS[ownerKey].noun;
  const describe = (ownerId: string, attachedId: string) =>
    `${spec.attachedNoun} ${attachedId} on ${ownerNoun} ${ownerId}`;
  const refused = (action: string, what: string, reason: string) =>
    new NotPossibleError(`Cannot ${action} ${what}: ${reason}`, { kind: spec.resourceName, fix: reason });
  const outputs = (ownerId: string, attachedId: string, props: Props): Props =>
    jsonClean({ [ownerKey]: ownerId, [attachedKey]: attachedId, ...carriedInputs(props) });

  return {
    async check(olds, news) {
      const checked = checkKind(declaration, news);
      const mismatch = adoptIdMismatch(ownerKey, attachedKey, checked.inputs);
      if (mismatch) checked.failures.push({ property: "adoptId", reason: mismatch });
      if (checked.failures.length === 0 && spec.checkLive)
        checked.failures.push(...(await spec.checkLive(checked.inputs, olds)));
      return checked;
    },

    async diff(_id, olds, news): Promise<pulumi.dynamic.DiffResult> {
      return diffKindAsked(declaration, olds, news);
    },

    async create(inputs) {
      const client = clientForProps(inputs);
      const ownerId = inputs[ownerKey] as string;
      const attachedId = inputs[attachedKey] as string;
      const result = { id: attachmentId(ownerId, attachedId), outs: outputs(ownerId, attachedId, inputs) };
      // Look before writing. An attachment that exists is taken over only when the program says so (adoptId):
      // taken silently, a later destroy or rename of this resource would detach it from under its owner.
      const attached = await unlessGone(spec.attached(client, ownerId, attachedId));
      if (typeof inputs.adoptId === "string") {
        if (attached) return result;
        if (spec.unlisted) return (await spec.attach(client, ownerId, attachedId, true), result);
        throw new AdoptionError(
          `adoptId: ${describe(ownerId, attachedId)} is not attached, so there is nothing to adopt. Remove adoptId ` +
            `to attach it.`,
          inputs.adoptId,
          spec.resourceName,
        );
      }
      // What a killed run of this very resource attached is its own (interruptedCreates.ts).
      const ours = leftByUnfinishedCreate(kind, inputs, [{ id: result.id }]) !== undefined;
      if (attached && ours) return result;
      if (attached) throw alreadyAttached(spec.resourceName, describe(ownerId, attachedId), result.id);
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
            throw alreadyAttached(spec.resourceName, describe(ownerId, attachedId), result.id);
          const reason = await spec.explainRefusal(client, ownerId);
          if (reason) throw refused("attach", describe(ownerId, attachedId), reason);
        }
        if (error instanceof NotFoundError) {
          throw new NotPossibleError(
            `Cannot attach ${describe(ownerId, attachedId)}: the ${ownerNoun} or the ${spec.attachedNoun} does not exist ` +
              `in the organization (${error.message}).`,
            { kind: spec.resourceName, fix: `correct ${ownerKey} or ${attachedKey}` },
          );
        }
        throw error;
      }
    },

    async read(id, props) {
      const client = clientForProps(props);
      const parsed = parseAttachmentId(id);
      const ownerId = (props[ownerKey] as string | undefined) ?? parsed?.ownerId;
      const attachedId = (props[attachedKey] as string | undefined) ?? parsed?.attachedId;
      if (!ownerId || !attachedId)
        throw new MalformedIdError(
          `${spec.resourceName} id "${id}" is not <${ownerKey}>/<${attachedKey}>.`,
          spec.resourceName,
          id,
        );
      if (!(await unlessGone(spec.attachedForRead(client, ownerId, attachedId)))) return {};
      const live = outputs(ownerId, attachedId, props);
      return { id, props: live, inputs: live };
    },

    async update(_id, _olds, news) {
      // Every property replaces; only the token (connection) can change in place.
      return { outs: outputs(news[ownerKey] as string, news[attachedKey] as string, news) };
    },

    async delete(_id, props) {
      const client = clientForProps(props);
      const ownerId = props[ownerKey] as string;
      const attachedId = props[attachedKey] as string;
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

function alreadyAttached(resourceName: string, what: string, id: string): Error {
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
