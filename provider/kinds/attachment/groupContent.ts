/**
 * Files and videos of a configured group. The API cannot list what a group holds, so a create cannot look
 * first: it attaches, and the API's "already assigned" answer tells that the item was there. That answer to a
 * repeat of this process's own attach whose first answer was lost is success (the first one did it); to a first
 * attempt it means someone else attached it, and the create is refused as every create that meets an object it
 * did not make. Refresh sees the group or the item deleted, not a detach made elsewhere (docs/architecture.md).
 */
import { AmbiguousWriteError, ValidationError, type DeviceMgmtClient } from "../../client";
import { NotCreatedHereError, NotPossibleError } from "../../errors";
import { contentFailures } from "./catalogue";
import { configuredGroupFailures } from "../group/catalogue";
import { readGroup, unlessGone, type Props, runLedger } from "../../framework";
import { unconfiguredGroup, type AttachmentSpec } from "./handler";
import { contentNoun, groupContentType, type ContentKey } from "./properties";

/** Writes of a group's content that were answered ambiguously, by `<group>/<item>`: their repeat may meet them. */
const ambiguousGroupAttaches = new Set<string>();

export function contentOnGroup(key: ContentKey) {
  const noun = contentNoun(key);
  const post = (client: DeviceMgmtClient, groupId: string, id: string) =>
    key === "fileId" ? client.groups.addFile(groupId, id) : client.groups.addVideo(groupId, id);
  const exists = (client: DeviceMgmtClient, id: string) =>
    key === "fileId" ? client.files.get(id) : client.videos.get(id);
  return {
    attachedNoun: noun,
    attached: async () => false,
    attachedForRead: async (client: DeviceMgmtClient, groupId: string, id: string) => {
      await Promise.all([readGroup(client, groupId), exists(client, id)]);
      return true;
    },
    unlisted: true,
    async attach(client: DeviceMgmtClient, groupId: string, id: string, ours = false) {
      const pair = `${groupId}/${id}`;
      try {
        await post(client, groupId, id);
        ambiguousGroupAttaches.delete(pair);
      } catch (error) {
        const repeated = error instanceof ValidationError && error.fieldErrors?.[key] !== undefined;
        if (repeated && (ours || error.afterAmbiguousAttempt || ambiguousGroupAttaches.delete(pair))) return;
        // The same answer names an id of no file or video (the check could not look): not "attached elsewhere".
        if (repeated && (await unlessGone(exists(client, id))) === undefined) throw unknownContent(key, id);
        if (repeated) throw attachedElsewhere(key, groupId, id);
        if (error instanceof AmbiguousWriteError) ambiguousGroupAttaches.add(pair);
        throw error;
      }
    },
    detach: (client: DeviceMgmtClient, groupId: string, id: string) =>
      key === "fileId" ? client.groups.removeFile(groupId, id) : client.groups.removeVideo(groupId, id),
    explainRefusal: (client: DeviceMgmtClient, groupId: string) =>
      unconfiguredGroup(client, groupId, `${noun}s`),
    checkLive: async (inputs: Props, olds: Props) =>
      (
        await Promise.all([
          configuredGroupFailures("groupId", inputs, olds, `${noun}s attach only to configured groups`),
          contentFailures(key, inputs, olds),
        ])
      ).flat(),
  } satisfies AttachmentSpec;
}

function unknownContent(key: ContentKey, id: string): NotPossibleError {
  const noun = contentNoun(key);
  return new NotPossibleError(
    `${key}: no ${noun} with id ${id} exists in the organization, so it cannot be attached. Correct ${key} ` +
      `(see get${noun === "file" ? "File" : "Video"}).`,
    { kind: groupContentType(key), property: key, fix: `correct ${key}` },
  );
}

/** The refusal of a create that met a group's file or video it did not attach (which cannot be adopted: unlisted). */
function attachedElsewhere(key: ContentKey, groupId: string, id: string): NotCreatedHereError {
  const pair = `${groupId}/${id}`;
  runLedger.recordRefusedCreate(pair); // this run must not detach what the refused create met
  return new NotCreatedHereError(
    `${contentNoun(key)} ${id} is already attached to group ${groupId}, and this ${groupContentType(key)} did ` +
      `not attach it. Nothing was changed. If you renamed this resource or moved it in code, add the resource ` +
      `option aliases: [{ name: "<old name>" }] so Pulumi knows it is the same one. To manage the attachment made ` +
      `outside this stack, set adoptId: "${pair}".`,
    pair,
  );
}
