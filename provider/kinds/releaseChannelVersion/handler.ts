/**
 * The ReleaseChannelVersion kind's CRUD, on typed inputs: create and update move the channel to the declared
 * version (a bundle is looked up for its version) and judge the rollout gate (rolloutGate.ts); read follows the
 * channel; delete leaves it where it is.
 */
import { MalformedIdError, NotPossibleError, ObjectGoneError } from "../../errors";
import {
  NotFoundError,
  type ChannelTarget,
  type DeviceMgmtClient,
  type ReleaseChannel as ApiChannel,
} from "../../client";
import {
  clientForProps,
  asError,
  containsUnknown,
  deepEqual,
  jsonClean,
  partialFailure,
  unlessGone,
  type Props,
  checkKind,
  diffKindAsked,
  liveInputs,
  type InputsOf,
  type KindHandler,
  liveStateOf,
  explainedNotFound,
} from "../../framework";
import { parseAttachmentId } from "../attachment/properties";
import { appChannelFailures } from "../app/catalogue";
import { groupListFailures } from "../group/catalogue";
import { awaitRollout, describeRollout, RolloutGateError } from "./rolloutGate";
import {
  releaseChannelVersionProperties,
  type ReleaseChannelVersionProperties,
  releaseChannelVersionIdentity,
} from "./properties";

type Declared = InputsOf<ReleaseChannelVersionProperties>;

/**
 * What check returns: the declared properties and, carried beside them (not an argument), the declared version's
 * name (`versionNameOf`).
 */
type CheckedInputs = Declared & { versionName?: string };

interface Target {
  target: ChannelTarget;
  /** The version the channel delivers afterwards (a bundle's version). */
  versionId: string;
}

/** The declared target; a bundle is looked up for its version (the channel shows versions, not bundles). */
async function targetOf(client: DeviceMgmtClient, declared: Declared): Promise<Target> {
  const { appId, versionId, bundleId } = declared;
  if (versionId !== undefined) return { target: { versionId }, versionId };
  for await (const bundle of client.releases.bundles(appId)) {
    if (bundle.id === bundleId && bundle.appBuild)
      return { target: { bundleId }, versionId: bundle.appBuild.id };
  }
  throw new NotPossibleError(`bundleId: app ${appId} has no bundle ${String(bundleId)}.`, {
    kind: "ReleaseChannelVersion",
    property: "bundleId",
    fix: "correct bundleId (see GET /apps/{appId}/app-bundles), or declare versionId",
  });
}

const labelOf = (channel: ApiChannel) => `release channel "${channel.name}" of app "${channel.app.name}"`;

function toOutputs(channel: ApiChannel, declared: Declared, extra: Props): Props {
  return jsonClean({
    appId: declared.appId,
    releaseChannelId: declared.releaseChannelId,
    ...liveStateOf(releaseChannelVersionProperties, channel),
    // A declared bundle holds while the channel still delivers its version (a read cannot name the bundle).
    bundleId:
      declared.bundleId !== undefined &&
      declared.versionId !== undefined &&
      declared.versionId !== channel.version.id
        ? null
        : declared.bundleId,
    rollout: declared.rollout,
    connection: declared.connection,
    version: channel.version.version ?? null,
    channelName: channel.name,
    ...extra,
  });
}

/** What the last run's gate saw, from the recorded outputs (none on a create). */
interface RecordedGate {
  rollout?: unknown;
  rolloutStatus?: unknown;
  rolloutSummary?: unknown;
  rolloutVersionId?: unknown;
  versionId?: unknown;
  previousVersion?: unknown;
}

/**
 * Whether a declared gate still has to be judged while the channel delivers `versionId`: until it has passed for
 * that version under this very declaration. A create has nothing recorded (a failure the engine did not keep,
 * an import, a declaration of what the channel already ships), and a gate that failed, timed out, counted no
 * device or was never judged ("unchanged" in state of 0.1.0, whose runs skipped the gate when nothing moved) has
 * not passed. State of 0.1.0 has no `rolloutVersionId`: its status is about the version it recorded.
 */
function gatePending(recorded: RecordedGate | undefined, declared: unknown, versionId: unknown): boolean {
  if (declared === undefined) return false;
  const judged = recorded?.rolloutVersionId ?? recorded?.versionId;
  return !(
    recorded?.rolloutStatus === "passed" &&
    judged === versionId &&
    deepEqual(recorded.rollout, declared)
  );
}

/**
 * Moves the channel to the declared version when it delivers another, then (with `rollout`) judges the gate: after
 * a move, and on every later run until it has passed. Returns the outputs. Once the channel has moved or the gate
 * is being judged, any failure (the gate's verdict, or a request that failed while polling) is a partial failure
 * that records the channel's version and `rolloutStatus: "failed"`, so the next `up` judges the gate again; a
 * plain error would leave the engine without the move (a create is then forgotten, an update keeps the old
 * version's pass) and the next run, finding the channel already on the version, would judge nothing.
 */
async function apply(
  client: DeviceMgmtClient,
  id: string,
  declared: Declared,
  recorded?: RecordedGate,
): Promise<Props> {
  const { appId, releaseChannelId, rollout: gate } = declared;
  let channel = await client.apps.releaseChannel(appId, releaseChannelId);
  const before = channel.version.version ?? channel.version.id;
  const { target, versionId } = await targetOf(client, declared);
  const moved = channel.version.id !== versionId;
  if (moved) channel = await client.releases.setChannelVersion(appId, releaseChannelId, target);
  const outputs = (gateOutputs: Props) =>
    toOutputs(
      channel,
      { ...declared, versionId: declared.versionId ?? versionId },
      { previousVersion: moved ? before : recorded?.previousVersion, ...gateOutputs },
    );
  if (!gate) return outputs({ rolloutStatus: "none" });
  if (!moved && !gatePending(recorded, gate, channel.version.id)) {
    // Passed for this version under this declaration: what it saw then still stands.
    return outputs({
      rolloutStatus: "passed",
      rolloutSummary: recorded?.rolloutSummary,
      rolloutVersionId: channel.version.id,
    });
  }
  const judged = (rolloutStatus: string, rolloutSummary: string) =>
    outputs({ rolloutStatus, rolloutSummary, rolloutVersionId: channel.version.id });
  try {
    const count = await awaitRollout(
      client,
      { appId, releaseChannelId, label: labelOf(channel) },
      channel.version.version ?? versionId,
      gate,
    );
    return judged("passed", describeRollout(count));
  } catch (error) {
    const summary =
      error instanceof RolloutGateError
        ? describeRollout(error.count)
        : `not judged: ${asError(error).message}`;
    throw partialFailure(id, judged("failed", summary), declared, error);
  }
}

/**
 * The declared version's name, carried beside the inputs (`versionName`, not an argument) so that a preview
 * shows a promotion as a reviewer reads it: `versionName: "2.4.0" => "2.4.1"`, not two ids. Read at check
 * only when the declared version or bundle changed; a version or bundle the app does not have fails there.
 * During a preview any declared value may still be unknown: then nothing is read.
 */
async function versionNameOf(
  olds: Props,
  inputs: Declared,
): Promise<{ versionName?: string; failure?: { property: string; reason: string } }> {
  const key = inputs.versionId !== undefined ? "versionId" : "bundleId";
  const id = inputs[key];
  const { appId } = inputs;
  if (id === undefined || containsUnknown(id) || containsUnknown(appId) || containsUnknown(inputs.connection))
    return {};
  if (olds[key] === id && olds.appId === appId && typeof olds.versionName === "string")
    return { versionName: olds.versionName };
  let name: string | null | undefined;
  try {
    const client = clientForProps(inputs);
    if (key === "versionId") {
      for await (const v of client.releases.versions(appId)) if (v.id === id) name = v.version ?? id;
    } else {
      for await (const b of client.releases.bundles(appId))
        if (b.id === id) name = b.appBuild?.version ?? b.label ?? id;
    }
  } catch {
    return {}; // the connection or the app cannot answer now: create and update report it
  }
  if (name === undefined) {
    const noun = key === "versionId" ? "version" : "bundle";
    return {
      failure: {
        property: key,
        reason: `${key}: app ${appId} has no ${noun} ${id}. Take the ${noun} from getAppVersion (or the app's bundles).`,
      },
    };
  }
  return { versionName: name ?? undefined };
}

export const releaseChannelVersionHandler: KindHandler<ReleaseChannelVersionProperties> = {
  async check(olds, news) {
    const { inputs, failures } = checkKind(releaseChannelVersionIdentity, news);
    const declared = ["versionId", "bundleId"].filter((key) => news[key] !== undefined);
    if (declared.length !== 1)
      failures.push({
        property: "versionId",
        reason:
          "exactly one of versionId and bundleId is required: the version the channel delivers (see getAppVersion) " +
          "or one bundle of the app.",
      });
    if (failures.length === 0) {
      const [channel, gate] = await Promise.all([
        appChannelFailures(inputs, olds),
        // A gate over a group that holds no device counts none: it would fail only after the channel moved.
        groupListFailures(
          "rollout.groupIds",
          inputs.rollout?.groupIds,
          (olds.rollout as { groupIds?: unknown } | undefined)?.groupIds,
          inputs,
          "only configured groups hold devices, so the rollout gate would count none there (it fails once the " +
            "channel has moved)",
        ),
      ]);
      failures.push(...channel, ...gate);
    }
    if (failures.length === 0) {
      const named = await versionNameOf(olds, inputs);
      if (named.failure) failures.push(named.failure);
      if (named.versionName !== undefined) {
        const carried: CheckedInputs = { ...inputs, versionName: named.versionName };
        return { inputs: carried, failures };
      }
    }
    return { inputs, failures };
  },

  async diff(_id, olds, news) {
    const result = await diffKindAsked(releaseChannelVersionIdentity, olds, news);
    // A gate that has not passed (under this declaration) is judged again by the next up.
    if (!result.replaces?.length && gatePending(olds, news.rollout, olds.versionId)) {
      return { ...result, changes: true };
    }
    return result;
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    const id = `${inputs.appId}/${inputs.releaseChannelId}`;
    try {
      return { id, outs: await apply(client, id, inputs) };
    } catch (error) {
      throw await explainedNotFound("ReleaseChannelVersion", error, () => appChannelFailures(inputs, {}));
    }
  },

  async read(id, props) {
    // An import hands read the id alone: the channel's app and id are the id's two parts.
    const parsed = parseAttachmentId(id);
    const appId = props.appId ?? parsed?.ownerId;
    const releaseChannelId = props.releaseChannelId ?? parsed?.attachedId;
    if (!appId || !releaseChannelId)
      throw new MalformedIdError(
        `ReleaseChannelVersion id "${id}" is not <appId>/<releaseChannelId>.`,
        "ReleaseChannelVersion",
        id,
      );
    const channel = await unlessGone(clientForProps(props).apps.releaseChannel(appId, releaseChannelId));
    if (!channel) return {};
    const outputs = toOutputs(
      channel,
      { ...props, appId, releaseChannelId },
      {
        previousVersion: props.previousVersion,
        rolloutStatus: props.rolloutStatus,
        rolloutSummary: props.rolloutSummary,
        rolloutVersionId: props.rolloutVersionId,
      },
    );
    const inputs = liveInputs(releaseChannelVersionIdentity, outputs);
    return {
      id,
      props: outputs,
      inputs: jsonClean({ ...inputs, versionName: outputs.version ?? undefined }),
    };
  },

  async update(id, olds, news) {
    const client = clientForProps(news);
    try {
      return { outs: await apply(client, id, news, olds) };
    } catch (error) {
      if (error instanceof NotFoundError)
        throw new ObjectGoneError(
          `Release channel ${news.releaseChannelId} of app ${news.appId} no longer exists. Run \`pulumi refresh\` to forget it.`,
          "ReleaseChannelVersion",
          id,
        );
      throw error;
    }
  },

  async delete() {
    // The channel stays on the version it delivers: destroying the declaration is not a rollback.
  },
};
