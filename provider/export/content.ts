/**
 * Uploaded content the exporter declares (issue 31, item 6): what is read of it, its local copy's name, the
 * section that declares it, and the download of its bytes into `content/` beside the generated program, so a
 * staging stack's `up` uploads the same bytes. One module for every content kind; a kind takes part with an
 * entry in `CONTENT_KINDS` (how its objects are listed and read again) and, in its own export.ts,
 * `contentSection(type, comment, props)` of ./contentSection (see docs/architecture.md, "Adding a resource kind", step 5).
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
import { mkdir } from "node:fs/promises";
import * as path from "node:path";
import type { Checksum, DeviceMgmtClient } from "../client";
import { liveStateOf } from "../framework";
import { videoProperties } from "../kinds/video/properties";
import { UnsafeContentPathError } from "./errors";
import { assignIdentifiers, assignUnique, identifierFrom, slugify } from "./names";
import { compareBy } from "./order";

/** The folder beside the generated program that holds the downloaded content. */
export const CONTENT_FOLDER = "content";

/** The content kinds the exporter downloads (images, 3D environments, … add theirs). */
export type ContentType = "file" | "video" | "appVersion" | "custom3DEnvironment";

/** "a File", "an AppVersion". */
const withArticle = (label: string) => `${/^[AEIOU]/.test(label) ? "an" : "a"} ${label}`;

/** What an object of each kind is called in sentences. */
const NOUN: Record<ContentType, string> = {
  file: "file",
  video: "video",
  appVersion: "app build",
  custom3DEnvironment: "custom 3D environment",
};

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

interface ContentKind {
  /** What the kind is called in messages and variables. */
  label: string;
  /** Whether its resource declares a device folder (`path`): one without is then not declared. */
  needsPath: boolean;
  /** Every object of the kind, with what the model needs. */
  list(client: DeviceMgmtClient): Promise<
    {
      id: string;
      name: string;
      path: string | null;
      properties?: Record<string, unknown>;
      /** Why the resource could not declare it as read, if it could not. */
      unfit?: string;
      /** 0: an empty object, which no content kind's `source` may be (framework/source.ts). */
      sizeBytes?: number | null;
      checksum?: Checksum;
      downloadUrl?: string | null;
    }[]
  >;
  /** The object read again, for a download URL that expired. */
  downloadUrlOf(client: DeviceMgmtClient, content: ModelContent): Promise<string | null | undefined>;
}

export const CONTENT_KINDS: Record<ContentType, ContentKind> = {
  file: {
    label: "File",
    needsPath: true,
    list: async (client) =>
      (await client.files.all()).map((f) => ({
        id: f.id,
        name: f.filename,
        path: f.location ?? null,
        sizeBytes: f.sizeBytes,
        checksum: f.checksum,
        downloadUrl: f.downloadUrl,
      })),
    downloadUrlOf: async (client, c) => (await client.files.get(c.id)).downloadUrl,
  },
  video: {
    label: "Video",
    needsPath: false,
    // The name is the file name (what the local copy and the resource are named after); the display name and
    // the rendering fields are the Video's properties, declared exactly as read so production adopts with no diff.
    list: async (client) =>
      (await client.videos.all()).map((v) => ({
        id: v.id,
        name: v.filename,
        path: null,
        properties: liveStateOf(videoProperties, v),
        ...(v.details?.videoType && v.details.audioEncoding
          ? {}
          : { unfit: "the API answers no video type or audio encoding for it, which a Video declares" }),
        sizeBytes: v.sizeBytes,
        checksum: v.checksum,
        downloadUrl: v.downloadUrl,
      })),
    downloadUrlOf: async (client, c) => (await client.videos.get(c.id)).downloadUrl,
  },
  appVersion: {
    label: "AppVersion",
    needsPath: false,
    list: listBuilds,
    // There is no single-build GET: the build is found among its app's builds of that SHA-256.
    downloadUrlOf: async (client, c) =>
      (
        await client.releases
          .versions(String(c.properties?.appId), c.checksum ? [c.checksum.value] : undefined)
          .all()
      ).find((b) => b.id === c.id)?.downloadUrl,
  },
  // The API answers no checksum for environments: the download is kept as received (nothing to verify against).
  custom3DEnvironment: {
    label: "Custom3DEnvironment",
    needsPath: false,
    list: async (client) =>
      (await client.custom3DEnvironments.all()).map((e) => ({
        id: e.id,
        name: e.objectName,
        path: null,
        sizeBytes: e.sizeBytes,
        downloadUrl: e.downloadUrl,
      })),
    downloadUrlOf: async (client, c) => (await client.custom3DEnvironments.get(c.id)).downloadUrl,
  },
};

/**
 * The builds release channels deliver (what a staging organization needs to deliver the same), each named
 * `<app> <version>.apk` for its local copy; declared with its app found by name (`getApp`) and its version
 * name. A build no channel delivers is not read: an app keeps every build it ever had, and copying them all
 * would make an export cost the app's whole history.
 */
async function listBuilds(client: DeviceMgmtClient) {
  const apps = await client.apps.all();
  const named = (name: string) => apps.filter((a) => a.name === name).length;
  const builds = [];
  for (const app of apps) {
    const channels = await client.apps.releaseChannels(app.id).all();
    const delivered = new Set(channels.map((c) => c.version.id));
    if (!delivered.size) continue;
    for (const build of await client.releases.versions(app.id).all()) {
      if (!delivered.has(build.id)) continue;
      const version = build.version ?? "";
      builds.push({
        id: build.id,
        name: `${app.name} ${version || build.id}.apk`.replace(/[/\\]/g, "_"),
        path: null,
        properties: { appId: app.id, appName: app.name, versionName: version },
        ...(named(app.name) !== 1
          ? {
              unfit: `${named(app.name)} apps are named "${app.name}", so the program cannot find its app by name`,
            }
          : version
            ? {}
            : { unfit: "it has no version name, which an AppVersion declares" }),
        sizeBytes: build.sizeBytes,
        checksum: build.checksum,
        downloadUrl: build.downloadUrl,
      });
    }
  }
  return builds;
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
    const items = await CONTENT_KINDS[type].list(client);
    const { label } = CONTENT_KINDS[type];
    // An API that answers no download URL at all (the OpenAPI's reading for files and videos) gets one line.
    if (items.length && items.every((item) => item.downloadUrl === undefined)) {
      leftOut.push(
        `The ${items.length} ${NOUN[type]}${items.length === 1 ? "" : "s"} of the organization are not declared as ` +
          `${label} resources: the API answers no download URL for ${NOUN[type]}s, so their bytes cannot be copied; the ` +
          "program finds them by name where it refers to them.",
      );
      continue;
    }
    for (const item of items) {
      const what = `The ${NOUN[type]} "${item.name}"${item.path ? ` in ${item.path}` : ""} (${item.id})`;
      if (typeof item.downloadUrl !== "string" || item.downloadUrl === "") {
        leftOut.push(
          `${what} is not declared as ${withArticle(CONTENT_KINDS[type].label)}: the API answers ` +
            `${item.downloadUrl === null ? "a null download URL" : "no download URL"} for it, so its bytes ` +
            "cannot be copied; the program finds it by name where it refers to it.",
        );
      } else if (item.unfit) {
        leftOut.push(
          `${what} is not declared as ${withArticle(CONTENT_KINDS[type].label)}: ${item.unfit}; the program finds it by ` +
            "name where it refers to it.",
        );
      } else if (item.sizeBytes === 0) {
        leftOut.push(
          `${what} is not declared as ${withArticle(CONTENT_KINDS[type].label)}: it is empty (0 bytes), and an ` +
            `empty source is refused at preview; the program finds it by name where it refers to it.`,
        );
      } else if (item.path === null && CONTENT_KINDS[type].needsPath) {
        leftOut.push(
          `${what} is not declared as ${withArticle(CONTENT_KINDS[type].label)}: it has no device folder, which a ` +
            `${CONTENT_KINDS[type].label} declares; the program finds it by name where it refers to it.`,
        );
      } else if (/[/\\]/.test(item.name)) {
        leftOut.push(
          `${what} is not declared as ${withArticle(CONTENT_KINDS[type].label)}: its name holds a / or \\, which a ` +
            `${CONTENT_KINDS[type].label}'s filename cannot; the program finds it by name where it refers to it.`,
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
      const label = CONTENT_KINDS[c.type].label;
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

/** "2 files, 1 video and 1 app build": how much of each kind is planned, for the summary and the README. */
export function countedContent(planned: readonly PlannedContent[]): string {
  const counts = (Object.keys(CONTENT_KINDS) as ContentType[])
    .map((type) => [type, planned.filter((c) => c.content.type === type).length] as const)
    .filter(([, n]) => n > 0)
    .map(([type, n]) => `${n} ${NOUN[type]}${n === 1 ? "" : "s"}`);
  return counts.length > 1
    ? `${counts.slice(0, -1).join(", ")} and ${counts[counts.length - 1]}`
    : (counts[0] ?? "");
}

/** `type\0id`: how attachments and tag sets find the declared content they refer to. */
export const contentKey = (type: string, id: string) => `${type}\u0000${id}`;

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
      renewUrl: () => CONTENT_KINDS[c.content.type].downloadUrlOf(client, c.content),
    });
    bytes += result.sizeBytes;
    progress(`downloaded ${i + 1}/${planned.length}: ${c.source} (${result.sizeBytes} bytes)`);
  }
  return bytes;
}
