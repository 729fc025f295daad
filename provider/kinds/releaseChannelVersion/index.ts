import * as pulumi from "@pulumi/pulumi";
import { MalformedIdError, NotPossibleError, ObjectGoneError } from "../../errors";
import {
  NotFoundError,
  type ChannelTarget,
  type DeviceMgmtClient,
  type ReleaseChannel as ApiChannel,
} from "../../client";
import { DeviceMgmtResource, type ConnectionArg } from "../../framework/common";
import { clientForProps } from "../../framework/context";
import {
  asError,
  containsUnknown,
  deepEqual,
  jsonClean,
  partialFailure,
  unlessGone,
  uuid,
  type Props,
  type ResourceHandler,
} from "../../framework/framework";
import { checkKind, defineKind, diffKindAsked, liveInputs, registration } from "../../framework/kind";
import { carried, type PropertySpecs } from "../../framework/properties";
import { parseAttachmentId } from "../attachment/properties";
import { appChannelFailures, explainedNotFound } from "../../framework/catalogueChecks";
import {
  awaitRollout,
  describeRollout,
  rolloutSchema,
  RolloutGateError,
  type RolloutGate,
} from "./rolloutGate";

/** Left out, a property is not compared: `versionId` is what a declared bundle delivers, and the reverse. */
const unlessUndeclared = (recorded: unknown, declared: unknown) =>
  declared === undefined || deepEqual(recorded, declared);

const channelVersionProperties = {
  appId: { schema: uuid("appId"), change: "replace" },
  releaseChannelId: { schema: uuid("releaseChannelId"), change: "replace" },
  versionId: { schema: uuid("versionId").optional(), change: "update", equal: unlessUndeclared },
  bundleId: { schema: uuid("bundleId").optional(), change: "update", equal: unlessUndeclared },
  rollout: { schema: rolloutSchema, change: "update" },
  connection: carried.connection,
} satisfies PropertySpecs<never>;

interface Target {
  target: ChannelTarget;
  /** The version the channel delivers afterwards (a bundle's version). */
  versionId: string;
}

/** The declared target; a bundle is looked up for its version (the channel shows versions, not bundles). */
async function targetOf(client: DeviceMgmtClient, props: Props): Promise<Target> {
  if (typeof props.versionId === "string")
    return { target: { versionId: props.versionId }, versionId: props.versionId };
  const bundleId = props.bundleId as string;
  for await (const bundle of client.releases.bundles(props.appId as string)) {
    if (bundle.id === bundleId && bundle.appBuild)
      return { target: { bundleId }, versionId: bundle.appBuild.id };
  }
  throw new NotPossibleError(`bundleId: app ${String(props.appId)} has no bundle ${bundleId}.`, {
    kind: "ReleaseChannelVersion",
    property: "bundleId",
    fix: "correct bundleId (see GET /apps/{appId}/app-bundles), or declare versionId",
  });
}

const labelOf = (channel: ApiChannel) => `release channel "${channel.name}" of app "${channel.app.name}"`;

function toOutputs(channel: ApiChannel, props: Props, extra: Props): Props {
  return jsonClean({
    appId: props.appId,
    releaseChannelId: props.releaseChannelId,
    versionId: channel.version.id,
    // A declared bundle holds while the channel still delivers its version (a read cannot name the bundle).
    bundleId:
      typeof props.bundleId === "string" &&
      props.versionId !== undefined &&
      props.versionId !== channel.version.id
        ? null
        : props.bundleId,
    rollout: props.rollout,
    connection: props.connection,
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
  props: Props,
  recorded?: RecordedGate,
): Promise<Props> {
  const appId = props.appId as string;
  const releaseChannelId = props.releaseChannelId as string;
  let channel = await client.apps.releaseChannel(appId, releaseChannelId);
  const before = channel.version.version ?? channel.version.id;
  const { target, versionId } = await targetOf(client, props);
  const moved = channel.version.id !== versionId;
  if (moved) channel = await client.releases.setChannelVersion(appId, releaseChannelId, target);
  const gate = props.rollout as RolloutGate | undefined;
  const outputs = (gateOutputs: Props) =>
    toOutputs(
      channel,
      { ...props, versionId: props.versionId ?? versionId },
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
    throw partialFailure(id, judged("failed", summary), props, error);
  }
}

/**
 * The declared version's name, carried beside the inputs (`versionName`, not an argument) so that a preview
 * shows a promotion as a reviewer reads it: `versionName: "2.4.0" => "2.4.1"`, not two ids. Read at check
 * only when the declared version or bundle changed; a version or bundle the app does not have fails there.
 */
async function versionNameOf(
  olds: Props,
  inputs: Props,
): Promise<{ versionName?: string; failure?: { property: string; reason: string } }> {
  const key = typeof inputs.versionId === "string" ? "versionId" : "bundleId";
  const id = inputs[key];
  if (typeof id !== "string" || typeof inputs.appId !== "string") return {};
  if (containsUnknown(id) || containsUnknown(inputs.appId) || containsUnknown(inputs.connection)) return {};
  if (olds[key] === id && olds.appId === inputs.appId && typeof olds.versionName === "string")
    return { versionName: olds.versionName };
  let name: string | null | undefined;
  try {
    const client = clientForProps(inputs);
    if (key === "versionId") {
      for await (const v of client.releases.versions(inputs.appId)) if (v.id === id) name = v.version ?? id;
    } else {
      for await (const b of client.releases.bundles(inputs.appId))
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
        reason: `${key}: app ${inputs.appId} has no ${noun} ${id}. Take the ${noun} from getAppVersion (or the app's bundles).`,
      },
    };
  }
  return { versionName: name ?? undefined };
}

export const releaseChannelVersionHandler: ResourceHandler = {
  async check(olds, news) {
    const checked = checkKind(releaseChannelVersionKind, news);
    const declared = ["versionId", "bundleId"].filter((key) => news[key] !== undefined);
    if (declared.length !== 1)
      checked.failures.push({
        property: "versionId",
        reason:
          "exactly one of versionId and bundleId is required: the version the channel delivers (see getAppVersion) " +
          "or one bundle of the app.",
      });
    if (checked.failures.length === 0)
      checked.failures.push(...(await appChannelFailures(checked.inputs, olds)));
    if (checked.failures.length === 0) {
      const named = await versionNameOf(olds, checked.inputs);
      if (named.failure) checked.failures.push(named.failure);
      if (named.versionName !== undefined) Object.assign(checked.inputs, { versionName: named.versionName });
    }
    return checked;
  },

  async diff(_id, olds, news) {
    const result = await diffKindAsked(releaseChannelVersionKind, olds, news);
    // A gate that has not passed (under this declaration) is judged again by the next up.
    if (!result.replaces?.length && gatePending(olds, news.rollout, olds.versionId)) {
      return { ...result, changes: true };
    }
    return result;
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    const id = `${String(inputs.appId)}/${String(inputs.releaseChannelId)}`;
    try {
      return { id, outs: await apply(client, id, inputs) };
    } catch (error) {
      throw await explainedNotFound("ReleaseChannelVersion", error, () => appChannelFailures(inputs, {}));
    }
  },

  async read(id, props) {
    const parsed = parseAttachmentId(id);
    const appId = (props.appId as string | undefined) ?? parsed?.ownerId;
    const releaseChannelId = (props.releaseChannelId as string | undefined) ?? parsed?.attachedId;
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
    const inputs = liveInputs(releaseChannelVersionKind, outputs);
    return {
      id,
      props: outputs,
      inputs: jsonClean({ ...inputs, versionName: outputs.version ?? undefined }),
    };
  },

  async update(id, olds, news) {
    const client = clientForProps(news);
    try {
      return {
        outs: await apply(client, id, news, olds),
      };
    } catch (error) {
      if (error instanceof NotFoundError)
        throw new ObjectGoneError(
          `Release channel ${String(news.releaseChannelId)} of app ${String(news.appId)} no longer exists. Run \`pulumi refresh\` to forget it.`,
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

/** The inputs of a {@link ReleaseChannelVersion}. */
export interface ReleaseChannelVersionArgs extends ConnectionArg {
  /** The channel's app (see `getReleaseChannel`'s `appId`). */
  appId: pulumi.Input<string>;
  /** The release channel. */
  releaseChannelId: pulumi.Input<string>;
  /** The version the channel delivers (see `getAppVersion`); or give `bundleId`. */
  versionId?: pulumi.Input<string>;
  /** One bundle of the app the channel delivers; or give `versionId`. */
  bundleId?: pulumi.Input<string>;
  /**
   * A gate: once the channel delivers the version, wait until `share` of its devices (only those of `groupIds`, if
   * given) report it installed, for at most `timeoutSeconds` (1 to 21600), asking every `pollIntervalSeconds` (at
   * least 1 and at most the timeout; default a tenth of the timeout, 1 to 10). A failed install, the timeout, or
   * no device to count fails the run with the numbers (installed, pending, failed, by group); the channel stays
   * on the new version and every later `up` judges the gate again until it passes. A passed gate is not judged
   * again until the channel moves or the gate changes.
   */
  rollout?: pulumi.Input<{
    share: pulumi.Input<number>;
    timeoutSeconds: pulumi.Input<number>;
    groupIds?: pulumi.Input<pulumi.Input<string>[]>;
    pollIntervalSeconds?: pulumi.Input<number>;
  }>;
}

/**
 * The version a release channel delivers: promoting a build is a reviewed change of the program. Destroy leaves
 * the channel on the version it delivers. Its id is `<appId>/<releaseChannelId>`.
 *
 * @example
 * const production = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Production" });
 * const v24 = dm.getAppVersionOutput({ appName: "Training Simulator", version: "2.4.0" });
 * new dm.ReleaseChannelVersion("production", {
 *   appId: production.appId, releaseChannelId: production.id, versionId: v24.id,
 *   rollout: { share: 0.9, timeoutSeconds: 1800 },
 * });
 */
export class ReleaseChannelVersion extends DeviceMgmtResource {
  declare readonly appId: pulumi.Output<string>;
  declare readonly releaseChannelId: pulumi.Output<string>;
  declare readonly versionId: pulumi.Output<string>;
  /** The version's name (e.g. "2.4.0"), as last read. */
  declare readonly version: pulumi.Output<string | null>;
  /** The version's name before this resource last moved the channel. */
  declare readonly previousVersion: pulumi.Output<string | undefined>;
  /**
   * "passed" (the gate passed, and holds until the channel moves or the gate changes), "failed" (a device failed,
   * the timeout passed, or no device counted: every later `up` judges the gate again until it passes) or "none"
   * (no gate).
   */
  declare readonly rolloutStatus: pulumi.Output<string>;
  /** The gate's last numbers (installed, pending, failed, by group). */
  declare readonly rolloutSummary: pulumi.Output<string | undefined>;
  /** The version (id) the gate last judged: `rolloutStatus` is about it. */
  declare readonly rolloutVersionId: pulumi.Output<string | undefined>;

  constructor(name: string, args: ReleaseChannelVersionArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(releaseChannelVersionKind, name, args, opts));
  }
}

export const releaseChannelVersionKind = defineKind({
  kind: "releaseChannelVersion",
  type: "ReleaseChannelVersion",
  naturalKey: false,
  properties: channelVersionProperties,
  outputs: [
    "version",
    "channelName",
    "previousVersion",
    "rolloutStatus",
    "rolloutSummary",
    "rolloutVersionId",
  ],
  handler: releaseChannelVersionHandler,
});
