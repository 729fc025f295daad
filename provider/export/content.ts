/**
 * Uploaded content the exporter declares (issue 31, item 6): what is read of it, its local copy's name, the
 * section that declares it, and the download of its bytes into `content/` beside the generated program, so a
 * staging stack's `up` uploads the same bytes. One module for every content kind (the reads and the download
 * are in contentRead.ts); a kind takes part with its type in `ContentType` and, in its own export.ts,
 * `{ content: contentSection(type, comment, props), read }`: its section and how its objects are listed and read
 * again (see docs/architecture.md, "Adding a resource kind", step 5).
 *
 * Decisions:
 * - Only what can be downloaded is declared: an object whose `downloadUrl` the API does not answer (the
 *   OpenAPI's File and Video schemas have none; the emulator's `fileDownloadUrls` switch answers one) or answers
 *   null stays a lookup by name, and the generated README lists it with why; so does an empty object (no kind
 *   takes an empty source). A video is declared with its
 *   display name, description and rendering fields as read (`liveStateOf`), so the production stack adopts it
 *   with no diff.
 * - The local name comes from the API's file name but can never leave `content/`: the last path segment only,
 *   characters outside `[A-Za-z0-9._ -]` replaced, no leading dot, unique without regard to case (a
 *   case-insensitive disk holds the program too). A name the resource itself cannot take (a `/` or `\` in it) is
 *   not declared at all.
 * - Bytes are verified against the checksum the API answers before they are kept (client.download): a refused
 *   download fails the export, as a program that uploads other bytes than production's would be wrong.
 */
import * as path from "node:path";
import type { Checksum } from "../client";
import { assignIdentifiers, assignUnique, identifierFrom, slugify } from "./names";

/** The folder beside the generated program that holds the downloaded content. */
export const CONTENT_FOLDER = "content";

/** The content kinds the exporter downloads (images, 3D environments, … add theirs). */
export type ContentType = "file" | "video" | "appVersion" | "custom3DEnvironment";

export interface ModelContent {
  type: ContentType;
  id: string;
  /** The API's file name (what a lookup finds it by, and what its local copy is named after). */
  name: string;
  /** The folder on devices (files). */
  path: string | null;
  /** The kind's own properties as read (a video's rendering fields), for its section to declare. */
  properties?: Record<string, unknown>;
  checksum: Checksum | undefined;
  /** The signed URL read with it; the download reads the object again if it expired. */
  downloadUrl: string;
}

export interface PlannedContent {
  content: ModelContent;
  resourceName: string;
  variable: string;
  /** `content/<safe name>`: the declared `source`, relative to the program's folder. */
  source: string;
}

const MAX_NAME = 100;

/**
 * A local file name for content the API names `name`, never a path: the last segment only, characters outside
 * `[A-Za-z0-9._ -]` replaced by `_`, no leading dots or spaces, at most 100 characters, and not one of
 * `taken` (compared without case; numbered `-2`, `-3` before the extension). Adds it to `taken`.
 */
export function safeContentName(name: string, taken: Set<string>): string {
  const last = name.split(/[/\\]/).pop() ?? "";
  let safe = last
    .normalize("NFC")
    .replace(/[^A-Za-z0-9._ -]/g, "_")
    .replace(/^[. ]+/, "")
    .replace(/[. ]+$/, "");
  if (safe.length > MAX_NAME) {
    const ext = path.extname(safe).slice(0, 16);
    safe = safe.slice(0, MAX_NAME - ext.length) + ext;
  }
  if (safe === "") safe = "content";
  const ext = path.extname(safe);
  const stem = safe.slice(0, safe.length - ext.length) || "content";
  let candidate = safe;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem}-${n}${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** Names, variables and local copies of the content to declare; pure. */
export function planContent(
  content: readonly ModelContent[],
  resourceNames: Set<string>,
  variables: Set<string>,
): PlannedContent[] {
  const names = assignUnique(
    content.map((c) => {
      const slug = slugify(c.name) || c.type;
      return { candidates: [`${slug}-${c.type}`, `${slug}-${slugify(c.path ?? "") || "root"}-${c.type}`] };
    }),
    resourceNames,
  );
  const vars = assignIdentifiers(
    content.map((c) => {
      const base = identifierFrom(slugify(c.name.replace(/\.[A-Za-z0-9]+$/, "")), c.type);
      // The kind's type (the name of its resource: File, AppVersion) is its key capitalized.
      const label = c.type.charAt(0).toUpperCase() + c.type.slice(1);
      return { candidates: [`${base}${label}`, `${base}${label}2`] };
    }),
    variables,
  );
  const taken = new Set<string>();
  return content.map((c, i) => ({
    content: c,
    resourceName: names[i],
    variable: vars[i],
    source: `${CONTENT_FOLDER}/${safeContentName(c.name, taken)}`,
  }));
}

/** `type\0id`: how attachments and tag sets find the declared content they refer to. */
export const contentKey = (type: string, id: string) => `${type}\u0000${id}`;
