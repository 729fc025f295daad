/** The content attachments' catalogue check: the file or video attached exists. */
import { type Props, capital, clientOf, known, lookRemembered, type Failure } from "../../framework";

/** A file or video id must name one of the organization's (`fileId`, `videoId`). */
export async function contentFailures(
  property: "fileId" | "videoId",
  inputs: Props,
  olds: Props,
): Promise<Failure[]> {
  const id = inputs[property];
  if (!known(id) || id === olds[property]) return [];
  const client = clientOf(inputs);
  if (client === undefined) return [];
  const noun = property === "fileId" ? "file" : "video";
  const found = await lookRemembered(client, `${noun}/${id}`, () =>
    property === "fileId" ? client.files.get(id) : client.videos.get(id),
  );
  return found === undefined
    ? [
        {
          property,
          reason: `${property}: no ${noun} with id ${id} exists in the organization (see get${capital(noun)}).`,
        },
      ]
    : [];
}
