/**
 * The exporter's reads of uploaded content: each content kind's objects, listed by the kind's own `read` (its
 * definition's `export`: `{ content, read }`), declared when their bytes can be copied and otherwise left out with
 * a sentence saying why; and the download of what is declared into `content/`. Apart from content.ts (names,
 * plans), which the kinds' sections read through the plan: this file reads the kind table.
 */
import { mkdir } from "node:fs/promises";
import * as path from "node:path";
import type { DeviceMgmtClient } from "../client";
import type { ContentRead } from "../framework";
import { KINDS } from "../kinds";
import { CONTENT_FOLDER, type ContentType, type ModelContent, type PlannedContent } from "./content";
import { UnsafeContentPathError } from "./errors";
import { compareBy } from "./order";

/** "a File", "an AppVersion". */
const withArticle = (label: string) => `${/^[AEIOU]/.test(label) ? "an" : "a"} ${label}`;

/** The content kinds, in the kind table's order. */
const CONTENT_TYPES = Object.values(KINDS)
  .filter((definition) => typeof definition.export === "object" && "content" in definition.export)
  .map((definition) => definition.kind as ContentType);

/** The content kind `type` of the kind table: its read, and its type as the name of its resource. */
function contentKind(type: ContentType): { label: string; read: ContentRead } {
  const definition = KINDS[type];
  const section = definition.export;
  if (typeof section !== "object" || !("content" in section))
    throw new Error(`${definition.type} is not a content kind: its export section has no content read`);
  return { label: definition.type, read: section.read };
}

/**
 * Reads the content of `types`: what can be downloaded, and one sentence for each object that cannot (it keeps
 * its lookups by name).
 */
export async function readContent(
  client: DeviceMgmtClient,
  types: readonly ContentType[],
): Promise<{ content: ModelContent[]; leftOut: string[] }> {
  const content: ModelContent[] = [];
  const leftOut: string[] = [];
  for (const type of types) {
    const kind = contentKind(type);
    const items = await kind.read.list(client);
    const { label } = kind;
    // An API that answers no download URL at all (the OpenAPI's reading for files and videos) gets one line.
    if (items.length && items.every((item) => item.downloadUrl === undefined)) {
      leftOut.push(
        `The ${items.length} ${kind.read.noun}${items.length === 1 ? "" : "s"} of the organization are not declared as ` +
          `${label} resources: the API answers no download URL for ${kind.read.noun}s, so their bytes cannot be copied; the ` +
          "program finds them by name where it refers to them.",
      );
      continue;
    }
    for (const item of items) {
      const what = `The ${kind.read.noun} "${item.name}"${item.path ? ` in ${item.path}` : ""} (${item.id})`;
      if (typeof item.downloadUrl !== "string" || item.downloadUrl === "") {
        leftOut.push(
          `${what} is not declared as ${withArticle(label)}: the API answers ` +
            `${item.downloadUrl === null ? "a null download URL" : "no download URL"} for it, so its bytes ` +
            "cannot be copied; the program finds it by name where it refers to it.",
        );
      } else if (item.unfit) {
        leftOut.push(
          `${what} is not declared as ${withArticle(label)}: ${item.unfit}; the program finds it by ` +
            "name where it refers to it.",
        );
      } else if (item.sizeBytes === 0) {
        leftOut.push(
          `${what} is not declared as ${withArticle(label)}: it is empty (0 bytes), and an ` +
            `empty source is refused at preview; the program finds it by name where it refers to it.`,
        );
      } else if (item.path === null && kind.read.needsPath) {
        leftOut.push(
          `${what} is not declared as ${withArticle(label)}: it has no device folder, which a ` +
            `${label} declares; the program finds it by name where it refers to it.`,
        );
      } else if (/[/\\]/.test(item.name)) {
        leftOut.push(
          `${what} is not declared as ${withArticle(label)}: its name holds a / or \\, which a ` +
            `${label}'s filename cannot; the program finds it by name where it refers to it.`,
        );
      } else {
        content.push({
          type,
          id: item.id,
          name: item.name,
          path: item.path,
          properties: item.properties ?? {},
          checksum: item.checksum,
          downloadUrl: item.downloadUrl,
        });
      }
    }
  }
  content.sort(
    compareBy(
      (c) => c.type,
      (c) => c.name,
      (c) => c.path ?? "",
      (c) => c.id,
    ),
  );
  return { content, leftOut };
}

/**
 * Downloads every planned object into `<out>/content/`, verified against the API's checksum (the client
 * refuses other bytes and writes nothing). Answers how many bytes were written.
 */
export async function downloadContent(
  client: DeviceMgmtClient,
  planned: readonly PlannedContent[],
  out: string,
  progress: (line: string) => void = () => {},
): Promise<number> {
  if (!planned.length) return 0;
  const folder = path.join(out, CONTENT_FOLDER);
  await mkdir(folder, { recursive: true });
  let bytes = 0;
  for (const [i, c] of planned.entries()) {
    const destination = path.resolve(out, c.source);
    // safeContentName makes this impossible; checked anyway, as the name comes from the API.
    if (path.dirname(destination) !== folder) throw new UnsafeContentPathError(c.source);
    const result = await client.download({
      url: c.content.downloadUrl,
      destination,
      label: `${c.content.type} "${c.content.name}" (${c.content.id})`,
      ...(c.content.checksum ? { expected: c.content.checksum } : {}),
      renewUrl: () => contentKind(c.content.type).read.downloadUrlOf(client, c.content),
    });
    bytes += result.sizeBytes;
    progress(`downloaded ${i + 1}/${planned.length}: ${c.source} (${result.sizeBytes} bytes)`);
  }
  return bytes;
}

/** "2 files, 1 video and 1 app build": how much of each kind is planned, for the summary and the README. */
export function countedContent(planned: readonly PlannedContent[]): string {
  const counts = CONTENT_TYPES.map(
    (type) => [type, planned.filter((c) => c.content.type === type).length] as const,
  )
    .filter(([, n]) => n > 0)
    .map(([type, n]) => `${n} ${contentKind(type).read.noun}${n === 1 ? "" : "s"}`);
  return counts.length > 1
    ? `${counts.slice(0, -1).join(", ")} and ${counts[counts.length - 1]}`
    : (counts[0] ?? "");
}
