/**
 * The AppVersion kind's CRUD, on typed inputs. The build's identity is its SHA-256: check hashes `source`
 * (framework/source.ts, shared with File) and records the hash as `sha256`; the upload sends exactly those bytes or
 * refuses (the uploader hashes what it sends and compares with check's hash, then with the checksum the API
 * answers), then waits until the API has processed the build (`available`; `error` fails the run with the API's
 * reason, AppBuildFailedError) for at most the stack config `devicemgmt:processingTimeoutSeconds`
 * (AppBuildTimeoutError; the next `up` finds the build by its hash and waits again).
 *
 * Create first looks for the same build by hash (`GET /apps/{appId}/versions?sha256[]=`) and takes it over with a
 * message instead of uploading it again, as the vendor's CLI does: builds cannot be deleted, so a second upload
 * of the same bytes would only leave a second build. That is also how a run killed mid-upload, or a complete whose
 * answer was lost, is repaired: the next `up` finds the build its complete made (still being processed or
 * available) and waits for it; a run killed before its complete made no build with content (at most a pending
 * one, which no hash finds; the emulator lists none) and the next `up` uploads again. A build of the same hash
 * under another version name is refused (the API renames no build, and cannot delete one). A build that ended in
 * `error` is not taken over: the next create uploads again.
 *
 * Nothing of a build changes after its upload, so every change but the local path, the release notes and the
 * connection replaces: the replacement is a new build (or the one of the new hash that exists), the old one is
 * forgotten. New release notes alone are an update that sends nothing and says so (the API takes notes only
 * with the upload; the build keeps its own). Destroy forgets the build and says so (the API cannot delete builds),
 * as DeviceMigration does.
 */
import { basename } from "node:path";
import {
  resourceLog,
  uploadProgress,
  clientForProps,
  containsUnknown,
  jsonClean,
  type Props,
  checkKind,
  diffKindAsked,
  liveInputs,
  type InputsOf,
  type KindHandler,
  stateFrom,
  checkContentSource,
} from "../../framework";
import { AdoptionError, NotPossibleError } from "../../errors";
import { awaitBuild, type AppBuild, type DeviceMgmtClient } from "../../client";
import { appVersionProperties, type AppVersionProperties, appVersionIdentity } from "./properties";

type Inputs = InputsOf<AppVersionProperties>;

function toOutputs(live: AppBuild, props: Props): Props {
  return jsonClean({
    ...stateFrom(appVersionProperties, live, props),
    code: live.code ?? null,
    sizeBytes: live.sizeBytes ?? null,
    status: live.status ?? null,
    createdAt: live.createdAt,
  });
}

/** Only an Android package is a build; an expansion file goes into a bundle. */
function refuse(extension: string): string | undefined {
  if (extension === ".apk") return undefined;
  if (extension === ".obb")
    return "an expansion file (.obb) belongs to an app bundle, not to an AppVersion. Give the path of the .apk.";
  return (
    `an AppVersion is an Android package (.apk), not ${extension ? `a ${extension} file` : "a file without extension"}. ` +
    "Give the path of the .apk (other content is a File)."
  );
}

const processing = (status: string) => void resourceLog.info(`build status: ${status}`);
/** How a create waits for a build it found: as long as the stack config allows (the upload's own wait too). */
const waiting = (client: DeviceMgmtClient) => ({
  onStatus: processing,
  processingTimeoutMs: client.processingTimeoutMs,
});

/** The build of this app with this id, looked for among those of `sha256` first (there is no single-build GET). */
async function buildById(client: DeviceMgmtClient, appId: string, id: string, sha256?: string) {
  const wanted = id.toLowerCase();
  if (sha256) {
    const same = await client.releases.versions(appId, [sha256]).all();
    const found = same.find((b) => b.id === wanted);
    if (found) return found;
  }
  return (await client.releases.versions(appId).all()).find((b) => b.id === wanted);
}

/** A build taken over must be the declared one: same hash and, since the API renames none, same version name. */
function refuseOtherBuild(live: AppBuild, inputs: Inputs, property: "adoptId" | "versionName"): void {
  const sha256 = live.checksum?.value.toLowerCase();
  if (sha256 !== inputs.sha256)
    throw new NotPossibleError(
      `adoptId: build ${live.id} has the SHA-256 ${sha256 ?? "(none)"}, not that of ${inputs.source} ` +
        `(${inputs.sha256}). Nothing was changed. Adopt the build of the declared .apk, or remove adoptId to upload it.`,
      { kind: "AppVersion", property: "adoptId", fix: "adopt the build of the declared .apk" },
    );
  if (live.version !== inputs.versionName)
    throw new NotPossibleError(
      `versionName: app ${inputs.appId} already has the build of ${inputs.source} (id ${live.id}, SHA-256 ` +
        `${sha256}) as version "${live.version ?? ""}", not "${inputs.versionName}", and the API can neither rename ` +
        `nor delete a build. Nothing was uploaded. Declare versionName "${live.version ?? ""}", or upload ` +
        "another build (a changed .apk).",
      {
        kind: "AppVersion",
        property,
        fix: `declare versionName "${live.version ?? ""}" or upload another build`,
      },
    );
}

export const appVersionHandler: KindHandler<AppVersionProperties> = {
  async check(_olds, news) {
    const { inputs, failures } = checkKind(appVersionIdentity, news);
    // (During a preview the source may still be the engine's unknown value: hashed at the up.)
    if (failures.some((f) => f.property === "source") || containsUnknown(inputs.source))
      return { inputs, failures };
    const found = await checkContentSource(inputs.source, process.cwd(), { algorithm: "SHA-256", refuse });
    if ("failure" in found) {
      failures.push({ property: "source", reason: found.failure });
      return { inputs, failures };
    }
    if (inputs.sha256 !== undefined && inputs.sha256 !== found.checksum)
      failures.push({
        property: "sha256",
        reason:
          `sha256: ${inputs.source} has the SHA-256 ${found.checksum}, not the declared ${inputs.sha256}. Declare ` +
          `the new hash, or leave sha256 out to take whatever the .apk holds.`,
      });
    return { inputs: { ...inputs, sha256: found.checksum }, failures };
  },

  diff: (_id, olds, news) => diffKindAsked(appVersionIdentity, olds, news),

  async create(inputs) {
    const client = clientForProps(inputs);
    const { appId } = inputs;
    const sha256 = inputs.sha256 as string;
    if (inputs.adoptId !== undefined) {
      const live = await buildById(client, appId, inputs.adoptId, sha256);
      if (live === undefined)
        throw new AdoptionError(
          `adoptId: app ${appId} has no build with id ${inputs.adoptId}, so there is nothing to adopt. Remove ` +
            "adoptId (a build of the same .apk is found by its hash anyway), or correct the id.",
          inputs.adoptId,
          "AppVersion",
        );
      refuseOtherBuild(live, inputs, "adoptId");
      const ready = await awaitBuild(client.releases, appId, live, waiting(client));
      return { id: ready.id, outs: toOutputs(ready, inputs) };
    }
    // The same bytes uploaded before (by another run, the portal, the vendor's CLI, or a run of this stack that
    // was killed or lost the complete's answer): that build, never a second one. A failed build is no build.
    const same = (await client.releases.versions(appId, [sha256]).all()).filter((b) => b.status !== "error");
    const existing = same.find((b) => b.status === "available") ?? same[0];
    if (existing !== undefined) {
      refuseOtherBuild(existing, inputs, "versionName");
      await resourceLog.info(
        `AppVersion: app ${appId} already has the build of ${inputs.source} (id ${existing.id}, version ` +
          `"${existing.version ?? ""}", ${existing.status ?? "available"}): taken over, nothing uploaded. Builds are ` +
          "found by their SHA-256 and reused, as the vendor's CLI does; its release notes are those it was uploaded with.",
      );
      const ready = await awaitBuild(client.releases, appId, existing, waiting(client));
      return { id: ready.id, outs: toOutputs(ready, inputs) };
    }
    const { made } = await client.uploadAppVersion({
      appId,
      source: inputs.source,
      filename: basename(inputs.source),
      versionName: inputs.versionName,
      ...(inputs.releaseNotes !== undefined ? { releaseNotes: inputs.releaseNotes } : {}),
      expectedChecksum: sha256,
      onProgress: uploadProgress(basename(inputs.source)),
      onStatus: processing,
    });
    return { id: made.id, outs: toOutputs(made, inputs) };
  },

  async read(id, props) {
    const appId = String(props.appId);
    const sha256 = typeof props.sha256 === "string" ? props.sha256 : undefined;
    // Gone, or another hash under the same id (content replaced in the portal): both are drift.
    const live = await buildById(clientForProps(props), appId, id, sha256);
    if (live === undefined) return {};
    const outputs = toOutputs(live, props);
    return { id, props: outputs, inputs: liveInputs(appVersionIdentity, outputs) };
  },

  async update(id, olds, news) {
    // Only source (never compared), releaseNotes and connection update in place: nothing is sent; the build is
    // read again.
    const live = await buildById(clientForProps(news), news.appId, id, news.sha256);
    if (live === undefined)
      throw new NotPossibleError(
        `AppVersion ${id}: app ${news.appId} no longer lists this build. Run \`pulumi refresh\`, then \`pulumi up\` to upload it again.`,
        { kind: "AppVersion", fix: "run pulumi refresh, then pulumi up" },
      );
    if ((olds.releaseNotes ?? "") !== (news.releaseNotes ?? ""))
      await resourceLog.warn(
        `AppVersion ${id}: releaseNotes changed, but the API takes a build's release notes only with its upload, ` +
          `so version "${news.versionName}" keeps the notes it was uploaded with; nothing was sent. New notes ` +
          "reach devices with the next build: upload it with a new versionName and source.",
      );
    return { outs: toOutputs(live, news) };
  },

  async delete(id, props) {
    await resourceLog.warn(
      `AppVersion ${id}: the API cannot delete an app build; version "${String(props.versionName)}" stays in app ` +
        `${String(props.appId)}. Removed from the stack only.`,
    );
  },
};
