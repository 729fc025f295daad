/**
 * The AppBundle kind's CRUD, on typed inputs. A bundle is a build plus data files, made pending, filled, then
 * finalized; after that only its label changes (PATCH), so any other change is a new bundle.
 *
 * Check hashes each file's source (SHA-512, as the API answers bundle files; File's source module, which caches
 * by path, size and mtime) and records it in the file's `sha512`.
 *
 * Create uploads nothing twice and leaves nothing it can avoid:
 * 1. A pending bundle of the same build whose files are all among the declared ones (a run killed or failed
 *    before its finalize left it; a pending bundle delivers nothing) is resumed, not duplicated.
 * 2. Otherwise a new pending bundle is made with the declared files the app already has (found by SHA-512 and
 *    name: `GET /apps/{appId}/files?sha512[]=`), reused, not uploaded again.
 * 3. The files still missing are uploaded into it (the upload protocol: parts, retries, renewed URLs, the
 *    checksum compared), then the bundle is finalized and its declared label set.
 * 4. It waits while the finalized bundle processes, at most the stack config `devicemgmt:processingTimeoutSeconds`;
 *    past that the create fails (AppBundleTimeoutError) and its journal note stays, so the next `up` takes over
 *    that bundle (still processing, of the declared build and files, made after the note) and waits again.
 *    A bundle whose processing failed fails the create (AppBundleFailedError); it stays, and the next `up` makes
 *    a new one (reusing its files).
 * A failure after step 2 leaves the bundle pending, and the next `up` resumes it (1). A resumed bundle that
 * cannot be finalized (a killed run left an upload into it open: the service finalizes no bundle with a pending
 * file) is left pending, with a warning naming it, and a new bundle is made from the same files (reused).
 *
 * Delete forgets the bundle: the API cannot delete one (nor its files), and says so, as DeviceMigration does.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  resourceLog,
  uploadProgress,
  leftByUnfinishedCreate,
  unfinishedCreateStartedAt,
  clientForProps,
  adoptable,
  containsUnknown,
  jsonClean,
  untilApplied,
  type Props,
  checkKind,
  diffKindAsked,
  readById,
  type InputsOf,
  type KindHandler,
  stateFrom,
  checkSource,
} from "../../framework";
import { basename } from "node:path";
import type { AppBundle, DeviceFile, DeviceMgmtClient } from "../../client";
import { ValidationError } from "../../client/errors";
import { DeviceMgmtProblem, NotPossibleError } from "../../errors";
import {
  PROCESSING_TIMEOUT_ADVICE,
  PROCESSING_TIMEOUT_SETTING,
  ProcessingTimeoutError,
} from "../../client/processing";
import { entriesOf, entryKey, readAppBundle, sortEntries, type BundleEntry, type BundleLive } from "./live";
import {
  appBundleProperties,
  type AppBundleProperties,
  type BundleFileInput,
  appBundleIdentity,
} from "./properties";

/** A bundle's data files may be expansion files; the build itself is `versionId`. */
const NOT_DATA_FILES: Record<string, string> = {
  ".apk":
    "an app build (.apk) is not a data file: upload it as an app version and give its id as the bundle's versionId",
};

type Inputs = InputsOf<AppBundleProperties>;
type CheckedFile = BundleFileInput & { filename: string; sha512: string };

/** The declared files as `BundleEntry`s (check filled in every filename and sha512). */
const declaredEntries = (inputs: Inputs) => inputs.files as CheckedFile[];

/** What makes an uploaded file reusable for a declared one: its name and content (not where a bundle puts it). */
const contentKey = (f: { filename: string; sha512: string }) => `${f.filename}\n${f.sha512}`;

/** The live state as outputs, with the declared sources put back beside the entries that match them. */
function toOutputs(live: BundleLive, props: Props): Props {
  const state = stateFrom(appBundleProperties, live, props);
  const declared = Array.isArray(props.files) ? (props.files as Partial<CheckedFile>[]) : [];
  const sourceOf = new Map(declared.map((f) => [entryKey(f as BundleEntry), f.source]));
  state.files = (state.files as BundleEntry[]).map((e) => ({ source: sourceOf.get(entryKey(e)), ...e }));
  return jsonClean({
    ...state,
    status: live.status ?? null,
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
  });
}

/** Pure: check's failures for files repeated at one device path (`index` of each). */
export function repeatedPaths(
  files: readonly { path: string; filename?: string }[],
): pulumi.dynamic.CheckFailure[] {
  const seen = new Map<string, number>();
  const failures: pulumi.dynamic.CheckFailure[] = [];
  files.forEach((f, i) => {
    // Not checked (a failure of its own names it), or not known yet (preview): compared at the up.
    if (f.filename === undefined || containsUnknown(f.path) || containsUnknown(f.filename)) return;
    const at = `${f.path}/${f.filename ?? ""}`;
    const first = seen.get(at);
    if (first === undefined) seen.set(at, i);
    else
      failures.push({
        property: "files",
        reason:
          `files[${i}]: ${at} is also files[${first}]'s place on devices; a bundle puts one file at one path. ` +
          `Give one of them another path or filename.`,
      });
  });
  return failures;
}

/** The pending bundle of this build an earlier create left with only declared files in it, if any. */
async function leftPending(client: DeviceMgmtClient, inputs: Inputs): Promise<BundleLive | undefined> {
  const wanted = new Set(declaredEntries(inputs).map(entryKey));
  for (const bundle of await pendingOfBuild(client, inputs)) {
    const live = await readAppBundle(client, bundle.id);
    if (live.status === "pending" && entriesOf(live.bundleFiles).every((e) => wanted.has(entryKey(e))))
      return live;
  }
  return undefined;
}

/** The app's pending bundles of the declared build. */
async function pendingOfBuild(client: DeviceMgmtClient, inputs: Inputs): Promise<AppBundle[]> {
  return (await client.releases.bundles(inputs.appId, "pending").all()).filter(
    (b) => b.appBuild?.id.toLowerCase() === inputs.versionId.toLowerCase(),
  );
}

/** The app's bundle files with the declared content and name, by SHA-512 (reused instead of uploaded again). */
async function reusable(client: DeviceMgmtClient, inputs: Inputs): Promise<Map<string, DeviceFile>> {
  const files = declaredEntries(inputs);
  if (files.length === 0) return new Map();
  const found = await client.appBundles.appFilesBySha512(inputs.appId, [
    ...new Set(files.map((f) => f.sha512)),
  ]);
  const byContent = new Map<string, DeviceFile>();
  for (const file of files) {
    const same = found.find(
      (f) => f.checksum.value.toLowerCase() === file.sha512 && f.filename === file.filename,
    );
    if (same) byContent.set(contentKey(file), same);
  }
  return byContent;
}

/** Finalizes; a finalize whose answer was lost (or repeated) is done when the bundle reads as no longer pending. */
async function finalize(client: DeviceMgmtClient, id: string): Promise<void> {
  try {
    await client.appBundles.finalize(id);
  } catch (error) {
    const now = await client.appBundles.get(id).catch(() => undefined);
    if (now === undefined || now.status === "pending" || now.status === undefined) throw error;
  }
}

/** How often a create reads a finalized bundle while it processes. */
export const PROCESSING_POLL_MS = 2_000;

/** A finalized bundle whose processing failed: the API gives no reason, so the message names what was sent. */
export class AppBundleFailedError extends DeviceMgmtProblem {
  constructor(readonly id: string) {
    super(
      `App bundle ${id} failed processing after it was finalized (the API gives no reason). Check the build and ` +
        `the files in the portal; the failed bundle stays (the API cannot delete bundles), and the next up makes ` +
        `a new one.`,
      { kind: "AppBundle", property: "files", fix: "check the build and files, then up again" },
    );
  }
}

/** A finalized bundle still processing when the wait ended: the next `up` waits for it again (create, 0). */
export class AppBundleTimeoutError extends ProcessingTimeoutError {
  constructor(
    readonly id: string,
    readonly waitedMs: number,
  ) {
    super(
      `App bundle ${id} was finalized but is still processing after ${Math.round(waitedMs / 1000)} s. ` +
        PROCESSING_TIMEOUT_ADVICE,
      {
        kind: "AppBundle",
        property: PROCESSING_TIMEOUT_SETTING,
        fix: `run pulumi up again later, or raise ${PROCESSING_TIMEOUT_SETTING}`,
      },
    );
  }
}

/**
 * Waits while the finalized bundle processes (the documents do not say how long: emulator switch
 * slowBundleProcessing), so that what the create records, and a release channel is then given, is available.
 * The wait lasts at most the stack config `devicemgmt:processingTimeoutSeconds` (the client's
 * `processingTimeoutMs`); past it the create fails and leaves its journal note, so the next `up` takes over this
 * bundle and waits again instead of making a second one.
 */
async function processed(client: DeviceMgmtClient, id: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const { status } = await client.appBundles.get(id);
    if (status === "failed") throw new AppBundleFailedError(id);
    if (status !== "processing") return;
    const waited = Date.now() - started;
    if (waited >= client.processingTimeoutMs) throw new AppBundleTimeoutError(id, waited);
    await resourceLog.info(`app bundle ${id} is processing`);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(PROCESSING_POLL_MS, client.processingTimeoutMs - waited)),
    );
  }
}

/**
 * The finalized bundle an earlier create of this resource left processing when its wait timed out (its journal
 * note says so: framework/claims.ts), of the declared build and exactly the declared files, made after the note
 * and recorded by no other resource of the run; undefined otherwise. Listed only when there is such a note.
 */
async function leftProcessing(client: DeviceMgmtClient, inputs: Inputs): Promise<BundleLive | undefined> {
  if (unfinishedCreateStartedAt(appBundleIdentity.kind, inputs) === undefined) return undefined;
  const declared = JSON.stringify(
    sortEntries(declaredEntries(inputs).map(({ path, filename, sha512 }) => ({ path, filename, sha512 }))),
  );
  const candidates: BundleLive[] = [];
  // Processing still, or done since (the wait gave up, not the service).
  const finalized = ["processing", "available"];
  for (const bundle of await client.releases.bundles(inputs.appId).all()) {
    if (!finalized.includes(bundle.status ?? "available")) continue;
    if (bundle.appBuild?.id.toLowerCase() !== inputs.versionId.toLowerCase()) continue;
    const live = await readAppBundle(client, bundle.id);
    if (JSON.stringify(entriesOf(live.bundleFiles)) === declared) candidates.push(live);
  }
  return leftByUnfinishedCreate(appBundleIdentity.kind, inputs, candidates);
}

/** Adoption takes over only a finalized bundle of the declared build and files. */
function refuseOther(live: BundleLive, inputs: Inputs): void {
  const declared = sortEntries(
    declaredEntries(inputs).map(({ path, filename, sha512 }) => ({ path, filename, sha512 })),
  );
  const sameBuild = live.appBuild?.id.toLowerCase() === inputs.versionId.toLowerCase();
  if (sameBuild && JSON.stringify(entriesOf(live.bundleFiles)) === JSON.stringify(declared)) return;
  throw new NotPossibleError(
    `adoptId: app bundle ${live.id} is of build ${live.appBuild?.id ?? "(none)"} with ` +
      `${live.bundleFiles.length} file(s), not the declared build ${inputs.versionId} with the declared files. ` +
      `Nothing was changed. Adopt a bundle of the declared build and files, or remove adoptId to make one.`,
    { kind: "AppBundle", property: "adoptId", fix: "adopt a bundle of the declared build and files" },
  );
}

/** Sets the declared label where the bundle has another (a label left out is not managed). */
async function applyLabel(client: DeviceMgmtClient, bundle: AppBundle, inputs: Inputs): Promise<void> {
  // "" is a declared null (properties.ts).
  const label = inputs.label === undefined ? undefined : inputs.label || null;
  if (label !== undefined && (bundle.label ?? null) !== label)
    await client.appBundles.setLabel(bundle.id, label);
}

/**
 * Fills `resumed` (a pending bundle an earlier run left) or a new bundle with the declared files, reusing what the
 * app has and uploading the rest, then finalizes it and sets the label. Undefined: `resumed` cannot be finalized.
 */
async function fill(
  client: DeviceMgmtClient,
  inputs: Inputs,
  resumed: BundleLive | undefined,
): Promise<pulumi.dynamic.CreateResult | undefined> {
  const files = declaredEntries(inputs);
  const found = await reusable(client, inputs);
  let bundle: AppBundle;
  let present: Set<string>;
  if (resumed) {
    await resourceLog.info(
      `resuming app bundle ${resumed.id}: a pending bundle of this build left by an earlier run, with ` +
        `${resumed.bundleFiles.length} of the ${files.length} declared files`,
    );
    bundle = resumed;
    present = new Set(entriesOf(resumed.bundleFiles).map(entryKey));
  } else {
    const reused = files.filter((f) => found.has(contentKey(f)));
    const body = {
      appBuildId: inputs.versionId,
      files: reused.map((f) => ({ fileId: (found.get(contentKey(f)) as DeviceFile).id, path: f.path })),
    };
    // A create whose answer was lost (or a 5xx) made one more pending bundle of this build, or nothing: it is
    // looked for among them before the create is sent again, so a lost answer stops neither the run nor makes a
    // second bundle.
    const before = new Set((await pendingOfBuild(client, inputs)).map((b) => b.id));
    bundle = await untilApplied(
      () => client.appBundles.create(body),
      async () => (await pendingOfBuild(client, inputs)).find((b) => !before.has(b.id)),
    );
    present = new Set(reused.map(entryKey));
  }
  const missing = files.filter((f) => !present.has(entryKey(f)));
  const ids = new Map([...found].map(([key, file]) => [key, file.id]));
  if (found.size > 0)
    await resourceLog.info(`reused ${found.size} file(s) the app already had (same SHA-512 and name)`);
  for (const file of missing.filter((f) => !ids.has(contentKey(f)))) {
    const { made } = await client.uploadBundleFile({
      appId: inputs.appId,
      appBundleId: bundle.id,
      source: file.source,
      filename: file.filename,
      path: file.path,
      expectedChecksum: file.sha512,
      onProgress: uploadProgress(file.filename),
    });
    ids.set(contentKey(file), made.id);
  }
  // What the bundle still lacks: reused files, and uploads the API did not put into it (the documents do not
  // say that an upload with appBundleId does: emulator switch uploadsLeaveBundle).
  if (missing.length > 0) {
    const holds = new Set(entriesOf(await client.appBundles.files(bundle.id).all()).map(entryKey));
    const absent = missing.filter((f) => !holds.has(entryKey(f)));
    if (absent.length > 0)
      await client.appBundles.addFiles(
        bundle.id,
        absent.map((f) => ({ fileId: ids.get(contentKey(f)) as string, path: f.path })),
      );
  }
  try {
    await finalize(client, bundle.id);
  } catch (error) {
    // A bundle an earlier run left with an upload it never completed cannot be finalized (its file stays
    // pending): it is left as it is, and a new bundle is made (the files it got are reused, not uploaded).
    if (!(resumed && error instanceof ValidationError)) throw error;
    await resourceLog.warn(
      `app bundle ${bundle.id}, left pending by an earlier run, cannot be finalized (${error.message}); it ` +
        `stays pending in the organization, and a new bundle is made instead.`,
    );
    return undefined;
  }
  await processed(client, bundle.id);
  await applyLabel(client, bundle, inputs);
  return { id: bundle.id, outs: toOutputs(await readAppBundle(client, bundle.id), inputs) };
}

export const appBundleHandler: KindHandler<AppBundleProperties> = {
  async check(_olds, news) {
    const { inputs, failures } = checkKind(appBundleIdentity, news);
    if (failures.some((f) => f.property === "files") || !Array.isArray(inputs.files))
      return { inputs, failures };
    const files: BundleFileInput[] = [];
    for (const [i, file] of inputs.files.entries()) {
      // (During a preview a source may still be the engine's unknown value: hashed at the up.)
      if (containsUnknown(file.source)) {
        files.push(file);
        continue;
      }
      const found = await checkSource(file.source, process.cwd(), (extension) => NOT_DATA_FILES[extension]);
      if ("failure" in found) {
        failures.push({ property: "files", reason: `files[${i}].${found.failure}` });
        files.push(file);
        continue;
      }
      files.push({ ...file, filename: file.filename ?? basename(found.absolute), sha512: found.sha512 });
    }
    failures.push(...repeatedPaths(files));
    return { inputs: { ...inputs, files }, failures };
  },

  diff: (_id, olds, news) => diffKindAsked(appBundleIdentity, olds, news),

  async create(inputs) {
    const client = clientForProps(inputs);
    if (inputs.adoptId !== undefined) {
      const live = await adoptable("app bundle", inputs.adoptId, (id) => readAppBundle(client, id));
      refuseOther(live, inputs);
      await applyLabel(client, live, inputs);
      return { id: live.id, outs: toOutputs(await readAppBundle(client, live.id), inputs) };
    }
    const processing = await leftProcessing(client, inputs);
    if (processing) {
      await resourceLog.info(
        `app bundle ${processing.id}, finalized by an earlier run whose wait timed out: waiting for it again`,
      );
      await processed(client, processing.id);
      await applyLabel(client, processing, inputs);
      return { id: processing.id, outs: toOutputs(await readAppBundle(client, processing.id), inputs) };
    }
    const resumed = await leftPending(client, inputs);
    if (resumed) {
      const made = await fill(client, inputs, resumed);
      if (made) return made;
    }
    return (await fill(client, inputs, undefined)) as pulumi.dynamic.CreateResult;
  },

  read: (id, props) => readById(appBundleIdentity, id, props, readAppBundle, toOutputs),

  async update(id, _olds, news) {
    // Only label (and connection) change in place; everything else replaces.
    const client = clientForProps(news);
    await applyLabel(client, await client.appBundles.get(id), news);
    return { outs: toOutputs(await readAppBundle(client, id), news) };
  },

  async delete(id, props) {
    // No DELETE for bundles in the API: the bundle, its build and files stay. Only the stack forgets it.
    await resourceLog.warn(
      `AppBundle ${id}${typeof props.label === "string" ? ` ("${props.label}")` : ""}: the API cannot delete app ` +
        `bundles; the bundle stays in the organization with its build and files. Removed from the stack only.`,
    );
  },
};
