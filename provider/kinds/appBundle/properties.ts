/**
 * The AppBundle kind's properties, declared once (framework/properties.ts). A bundle's content is its build
 * (`versionId`) and its data files: each declared as a local `source` and a device folder `path`, hashed by check
 * (`sha512`). The diff compares the files by folder, name and SHA-512, never by local path, so the same bytes
 * moved on this machine are no change and changed bytes at the same path are one; either content change makes a
 * new bundle (the API cannot change a finalized bundle's files). `label` is the only property changed in place.
 */
import { z } from "zod";
import {
  deepEqual,
  uuid,
  carried,
  type PropertySpecs,
  type StateOf,
  defineIdentity,
  knownText,
  type Props,
} from "../../framework";
import { entriesOf, sortEntries, type BundleEntry, type BundleLive } from "./live";

const fileSchema = z.object(
  {
    source: z
      .string({ error: "files[].source is required: the path of the local file to upload" })
      .trim()
      .min(1, { error: "files[].source must not be empty: give the path of the local file to upload" }),
    path: z
      .string({
        error: 'files[].path is required: the folder on devices, e.g. "/sdcard/Android/obb/com.acme.app"',
      })
      .trim()
      .min(1, {
        error:
          'files[].path must not be empty: the folder on devices, e.g. "/sdcard/Android/obb/com.acme.app"',
      })
      .regex(/^\//, { error: 'files[].path must be an absolute folder on devices, starting with "/"' })
      .transform((v) => v.replace(/(.)\/+$/, "$1")),
    // Absent: the source's own name (check fills it in).
    filename: z
      .string({ error: "files[].filename must be a string: the file's name on devices" })
      .trim()
      .min(1, { error: "files[].filename must not be empty (leave it out to use the source's name)" })
      .refine((v) => !/[/\\]/.test(v), {
        error: "files[].filename must be a name without / or \\ (the folder is path)",
      })
      .optional(),
    // Computed by check from source (recorded, never declared by hand).
    sha512: z
      .string()
      .regex(/^[0-9a-fA-F]{128}$/, { error: "files[].sha512 is computed at preview: leave it out" })
      .transform((v) => v.toLowerCase())
      .optional(),
  },
  { error: "each of files must be { source, path } (filename optional)" },
);

export type BundleFileInput = z.output<typeof fileSchema>;

/** The files as compared: where each goes and what it holds, without the local source. */
function entries(value: unknown): BundleEntry[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return sortEntries(
    value.map((v: Partial<BundleEntry>) => ({
      path: String(v?.path),
      filename: String(v?.filename),
      sha512: String(v?.sha512).toLowerCase(),
    })),
  );
}

const sameEntries = (a: unknown, b: unknown) =>
  Array.isArray(a ?? []) && Array.isArray(b ?? [])
    ? JSON.stringify(entries(a ?? [])) === JSON.stringify(entries(b ?? []))
    : deepEqual(a, b);

export const appBundleProperties = {
  appId: {
    schema: uuid("appId"),
    // The bundle's representation does not name its app: the declared id travels as it is.
    change: "replace",
  },
  versionId: {
    schema: uuid("versionId"),
    change: "replace",
    fromLive: (live: BundleLive) => live.appBuild?.id ?? null,
    equal: (a: unknown, b: unknown) =>
      typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b,
  },
  files: {
    schema: z
      .array(fileSchema, { error: "files must be a list of { source, path }" })
      .optional()
      .transform((v) => v ?? []),
    // A finalized bundle takes no more files: other files are another bundle.
    change: "replace",
    // What the API shows has no local source: the handler puts the declared sources back (handler.ts).
    fromLive: (live: BundleLive) => entriesOf(live.bundleFiles),
    default: [],
    equal: sameEntries,
  },
  label: {
    // null (remove the label) is recorded as "": the diff reads null as absent, which here means "not managed".
    schema: z
      .string({ error: "label must be a string, or null for none" })
      .trim()
      .min(1, { error: "label must not be empty: give a label, or null for none" })
      .max(60, { error: "label must be at most 60 characters (the API's limit)" })
      .nullable()
      .optional()
      .transform((v) => (v === null ? "" : v)),
    change: "update",
    fromLive: (live: BundleLive) => live.label ?? null,
    // Left out of the program, the label is not managed: the API's automatic label ("Original", "Copy 1") is no
    // change. None is null as the API shows it, "" as declared.
    equal: (recorded: unknown, declared: unknown) =>
      declared === undefined || (recorded || null) === (declared || null),
  },
  ...carried,
} satisfies PropertySpecs<BundleLive>;

export type AppBundleProperties = typeof appBundleProperties;
export type AppBundleState = StateOf<AppBundleProperties>;

/**
 * Who the AppBundle kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const appBundleIdentity = defineIdentity({
  kind: "appBundle",
  type: "AppBundle",
  // Any number of bundles of one build may exist: no natural key (a replacement makes the new one first).
  naturalKey: false,
  properties: appBundleProperties,
  // Any number of bundles of one build may exist (none refused); a killed create is resumed by its pending
  // bundle (handler.ts), and one whose wait for processing timed out by this key: the build and the files.
  claim: {
    property: "files",
    keys: (p) => {
      const files = Array.isArray(p.files) ? (p.files as Props[]) : undefined;
      const entries = files?.map((f) => [f.path, f.filename, f.sha512].map(knownText));
      if (
        knownText(p.versionId) === undefined ||
        entries === undefined ||
        entries.some((e) => e.includes(undefined))
      )
        return undefined;
      return [[knownText(p.versionId)?.toLowerCase(), ...entries.map((e) => e.join("/")).sort()].join("\n")];
    },
    describe: (p) => `the app bundle of build ${String(p.versionId)}`,
    refuses: false,
  },
});
