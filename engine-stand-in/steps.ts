/** What the step generator (deployment.ts) and the step executor (executor.ts) share: errors, results, settings. */
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import { Struct, grpc, type PropertyMap, type ProviderPlugin } from "./plugin";
import type { Limiter } from "./schedule";
import type { TargetOptions } from "./targets";
import {
  STEP_KINDS,
  type EngineError,
  type RunResult,
  type StateEntry,
  type Step,
  type StepKind,
} from "./types";

export type Mode = "up" | "preview" | "destroy";

export class DeploymentFailed extends Error {}

/**
 * A delete refused because the resource is protected (pkg/resource/deploy/step.go, deleteProtectedError): the
 * one failure after which the step executor goes on with other steps (step_executor.go, cancelDueToError).
 */
export class DeleteProtected extends DeploymentFailed {}

/**
 * A create, update or delete that failed under `--continue-on-error`: recorded, and the deployment goes on
 * (pkg/resource/deploy/step_executor.go, cancelDueToError: step.Fail() and erroredSteps instead of cancel()).
 */
export class StepFailed extends DeploymentFailed {}

/**
 * The error a registration gets once the deployment has stopped: the gRPC "unavailable" a terminating engine
 * gives. The SDK then leaves the resource's outputs (and so its dependents) pending instead of rejecting them,
 * as a program the engine abandons; the run ends when the in-flight steps have finished.
 */
export function registrationRefused(message: string): Error {
  return Object.assign(new Error(message), {
    code: grpc.status.UNAVAILABLE,
    details: message,
    metadata: new grpc.Metadata(),
  });
}

/** The answer to a registration whose step failed or was skipped: the state it keeps, and the result. */
export function registerResponse(
  urn: string,
  kept: StateEntry | undefined,
  result: resproto.Result,
): resproto.RegisterResourceResponse {
  const response = new resproto.RegisterResourceResponse();
  response.setUrn(urn);
  response.setId(kept?.id ?? "");
  response.setObject(
    Struct.fromJavaScript((kept?.outputs ?? {}) as Record<string, structTypes.JavaScriptValue>),
  );
  response.setResult(result);
  return response;
}

/** The engine's refusal to delete a protected resource (step.go, deleteProtectedError). */
export function deleteProtectedError(urn: string): EngineError {
  return {
    urn,
    op: "delete",
    message:
      `resource "${urn}" cannot be deleted\nbecause it is protected. To unprotect the resource, either remove ` +
      "the `protect` flag from the resource in your Pulumi program and run `pulumi up`, or use the command:\n" +
      `\`pulumi state unprotect '${urn}'\``,
  };
}

/** The engine's refusal to replace a protected resource (step_generator.go, "unable to replace resource"). */
export function protectedReplaceError(urn: string): EngineError {
  return {
    urn,
    op: "delete",
    message:
      `unable to replace resource "${urn}"\nas it is currently marked for protection. To unprotect the ` +
      "resource, remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`",
  };
}

/**
 * The engine's refusal to delete a protected dependent of a delete-first replacement (step_generator.go,
 * continueStepsFromDiff: "unable to replace resource ... as part of replacing ..."), before any delete.
 */
export function protectedDependentError(dependent: string, root: string): EngineError {
  return {
    urn: root,
    op: "delete",
    message:
      `unable to replace resource "${dependent}" as part of replacing "${root}" as it is currently marked for ` +
      "protection. To unprotect the resource, remove the `protect` flag from the resource in your Pulumi program " +
      `and run \`pulumi up\`, or use the command:\n\`pulumi state unprotect '${dependent}'\``,
  };
}

/**
 * Every target must name a resource of the stack (deployment_executor.go, Execute: checkTargets, before the
 * program), with the engine's texts (sdk/go/common/diag/errors.go, codes 2010 and 2011, chosen as there).
 */
export function unknownTargetErrors(
  targets: string[],
  resources: Array<Pick<StateEntry, "urn" | "name">>,
): EngineError[] {
  const known = (target: string) => resources.some((e) => e.urn === target || e.name === target);
  return targets
    .filter((target) => !known(target))
    .map((target) => ({
      op: "register",
      message: target.includes("$")
        ? `Target '${target}' could not be found in the stack.`
        : `Target '${target}' could not be found in the stack. Did you forget to escape $ in your shell?`,
    }));
}

export function newResult(): RunResult {
  return {
    ok: true,
    errors: [],
    warnings: [],
    steps: Object.fromEntries(STEP_KINDS.map((k) => [k, []])) as unknown as Record<StepKind, Step[]>,
    operations: [],
    outputs: {},
    secretOutputs: [],
    interrupted: false,
  };
}

export interface DeploymentSettings {
  mode: Mode;
  plugin: ProviderPlugin;
  oldState: StateEntry[];
  steps: Limiter;
  project: string;
  stack: string;
  /** URNs or names to replace without asking Diff (`pulumi up --replace`). */
  replace?: string[];
  interruptAfter?: number;
  /** Resolves when the interrupted CLI dies (after the interruptAfter-th call was sent); default 50 ms. */
  interruptWhen?: () => Promise<void>;
  /** `--continue-on-error`: a failed create/update/delete does not stop the deployment. */
  continueOnError?: boolean;
  /** `--target` / `--exclude` and their `-dependents` flags (targets.ts). */
  targets?: TargetOptions;
}

export interface Plan {
  kind: StepKind;
  checked: PropertyMap;
  changed: string[];
  replaceKeys: string[];
  deleteBeforeReplace: boolean;
  /**
   * A delete-first replacement's dependents that its chain deletes first, in the order of their deletes
   * (replacements.ts, planDependentDeletes).
   */
  dependents?: StateEntry[];
}

/** What a registration asks for, as a state entry without id and outputs (the goal of step_generator.go). */
export function goalOf(
  req: resproto.RegisterResourceRequest,
  { urn, type, name, parent }: { urn: string; type: string; name: string; parent: string },
): StateEntry {
  const propertyDependencies: Record<string, string[]> = {};
  for (const [key, deps] of req.getPropertydependenciesMap().entries()) {
    propertyDependencies[key] = deps.getUrnsList();
  }
  return {
    urn,
    type,
    name,
    custom: req.getCustom(),
    ...(parent ? { parent } : {}),
    inputs: (req.getObject()?.toJavaScript() ?? {}) as PropertyMap,
    outputs: {},
    dependencies: req.getDependenciesList(),
    propertyDependencies,
    options: {
      protect: req.getProtect() ?? false,
      // An option the program did not set is absent, and then the provider decides (step_generator.go).
      ...(req.getDeletebeforereplacedefined() ? { deleteBeforeReplace: req.getDeletebeforereplace() } : {}),
      ignoreChanges: req.getIgnorechangesList(),
      replaceOnChanges: req.getReplaceonchangesList(),
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      retainOnDelete: req.getRetainondelete() ?? false,
      ...(req.getDeletedwith() ? { deletedWith: req.getDeletedwith() } : {}),
    },
  };
}
