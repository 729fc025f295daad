/** The TagSet kind's catalogue check: its `ownerId` names an object of its `ownerType`. */
import type { DeviceMgmtClient } from "../../client";
import { type Props, capital, clientOf, known, look, withArticle, type Failure } from "../../framework";

/** The kinds a `TagSet` (`ownerType`) can name, and how one is read. */
const OWNER_READS: Record<
  "group" | "app" | "file" | "video",
  (c: DeviceMgmtClient, id: string) => Promise<unknown>
> = {
  group: (client, id) => client.groups.get(id),
  app: (client, id) => client.apps.get(id),
  file: (client, id) => client.files.get(id),
  video: (client, id) => client.videos.get(id),
};
type OwnerType = keyof typeof OWNER_READS;

const isOwnerType = (value: unknown): value is OwnerType => known(value) && value in OWNER_READS;

/**
 * `ownerId` must name an object of `ownerType`. When it names none, the other owner types are asked too, so the
 * message can say "that is a group's id: set ownerType: "group"".
 */
export async function tagOwnerFailures(inputs: Props, olds: Props): Promise<Failure[]> {
  const type = inputs.ownerType;
  const id = inputs.ownerId;
  if (!known(id) || !isOwnerType(type)) return [];
  if (id === olds.ownerId && type === olds.ownerType) return [];
  const client = clientOf(inputs);
  if (client === undefined) return [];
  const found = await look(() => OWNER_READS[type](client, id));
  if (found !== undefined) return [];
  const others = (Object.keys(OWNER_READS) as OwnerType[]).filter((t) => t !== type);
  const answers = await Promise.all(others.map((t) => look(() => OWNER_READS[t](client, id))));
  const actual = others.find((_, i) => answers[i]);
  return [
    {
      property: "ownerId",
      reason:
        actual === undefined
          ? `ownerId: no ${type} with id ${id} exists in the organization. Correct ownerId (see get${capital(type)}).`
          : `ownerId: ${id} is the id of ${withArticle(actual)}, not of ${withArticle(type)}: set ownerType: "${actual}", or correct ownerId.`,
    },
  ];
}
