/**
 * The step generator of the engine for dynamic resources (pkg/resource/deploy/step_generator.go): what each
 * registration of the program becomes, over the step executor (executor.ts). The deletes after the program are
 * deployment.ts's. Each behaviour names the file of pulumi/pulumi it follows.
 */
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import { Struct, type PropertyMap } from "./plugin";
import { ReplacementSteps } from "./replacements";
import { dependenciesOf } from "./schedule";
import {
  StepFailed,
  goalOf,
  registerResponse,
  registrationRefused,
  type DeploymentSettings,
  type Plan,
} from "./steps";
import type { Step, StateEntry } from "./types";
import { applyIgnoreChanges } from "./ignoreChanges";
import { TargetFilter, isReplaceTarget, unknownLiteralTargetErrors } from "./targets";
import { aliasUrns, createUrn } from "./urns";
import { ROOT_STACK_TYPE, changedKeys, changedValues } from "./values";

export class StepGenerator extends ReplacementSteps {
  private targetsChecked = false;
  protected readonly seen = new Set<string>();
  private readonly old: Map<string, StateEntry>;
  /** Old URN -> new URN, for resources found through an alias (their old URN must not be deleted). */
  protected readonly aliased = new Map<string, string>();
  /** New URN -> the old URN it was found under, so children can inherit the alias. */
  private readonly oldUrnOf = new Map<string, string>();
  protected stackOutputs: PropertyMap = {};
  private rootUrn?: string;
  protected readonly targets: TargetFilter;

  constructor(settings: DeploymentSettings) {
    super(settings);
    this.targets = new TargetFilter(settings.targets ?? {});
    this.old = new Map(settings.oldState.filter((e) => !e.pendingDelete).map((e) => [e.urn, e]));
  }

  async register(req: resproto.RegisterResourceRequest): Promise<resproto.RegisterResourceResponse> {
    this.inFlight++;
    try {
      return await this.registerGoal(req);
    } finally {
      this.inFlight--;
      this.noticeStop();
    }
  }

  private async registerGoal(
    req: resproto.RegisterResourceRequest,
  ): Promise<resproto.RegisterResourceResponse> {
    this.checkReplaceTargets();
    const { project, stack } = this.settings;
    const type = req.getType();
    const name = req.getName();
    const parent = req.getParent();
    const urn = createUrn(name, type, parent, project, stack);
    if (type === ROOT_STACK_TYPE && !parent) this.rootUrn = urn;
    if (this.seen.has(urn) || this.aliased.has(urn)) {
      this.fail({
        urn,
        op: "register",
        message: `Duplicate resource URN '${urn}'; try giving it a unique name`,
      });
      throw registrationRefused(`duplicate resource URN ${urn}`);
    }
    this.seen.add(urn);
    if (this.failed) throw registrationRefused("the deployment has failed; no new steps start");
    const goal = goalOf(req, { urn, type, name, parent });
    let old: StateEntry | undefined;
    try {
      const found = this.oldResource(goal, req);
      old = found;
      // Deleted ahead by a delete-first replacement's chain: under its own URN it is re-created (sg.deletes[urn]).
      const recreated = goal.custom && this.isDeletedAhead(found) && found.urn === goal.urn;
      old = await this.deletedAheadOf(found);
      if (this.settings.continueOnError && dependenciesOf(goal).some((dep) => this.skipped.has(dep))) {
        // A dependency failed or was skipped: so is this one, and it keeps its old state (CreateStep.Skip,
        // UpdateStep.Skip in step.go; deployment_executor.go, handleSingleEvent, doesStepDependOn).
        // (The engine answers Result SKIP; the SDK 3.270's protocol knows only FAIL and treats both alike.)
        this.skipped.add(urn);
        return registerResponse(urn, old, resproto.Result.FAIL);
      }
      // Re-created before the targets are looked at: deleted already, it cannot stay as it was
      // (continueStepsFromImport: case 1 comes first, for an untargeted resource too).
      if (recreated) return this.respond(await this.recreate(goal, found));
      if (!this.targets.includes(goal, goal.type === ROOT_STACK_TYPE && !parent)) {
        return this.respond(this.untargeted(goal, old));
      }
      this.refuseSkippedDependencies(goal);
      const importId = req.getImportid();
      if (!goal.custom || (importId && !old)) this.operatedOn.add(urn);
      const entry = !goal.custom
        ? this.stepComponent(goal, old)
        : importId && !old
          ? await this.importResource(goal, importId)
          : await this.stepCustom(goal, old);
      return this.respond(entry);
    } catch (err) {
      if (err instanceof StepFailed) {
        // The SDK is told the registration failed (the engine's Result FAIL): the resource's outputs reject,
        // and the program goes on with everything that does not need them (step_executor.go, step.Fail()).
        this.skipped.add(urn);
        return registerResponse(urn, this.registered.get(urn) ?? old, resproto.Result.FAIL);
      }
      if (!this.failed) this.fail({ urn, op: "register", message: (err as Error).message });
      throw registrationRefused((err as Error).message);
    }
  }

  private respond(entry: Pick<StateEntry, "urn" | "id" | "outputs">): resproto.RegisterResourceResponse {
    const response = new resproto.RegisterResourceResponse();
    response.setUrn(entry.urn);
    response.setId(entry.id ?? "");
    response.setObject(Struct.fromJavaScript(entry.outputs as Record<string, structTypes.JavaScriptValue>));
    return response;
  }

  /**
   * A resource left out by `--target` / `--exclude` (step_generator.go, generateSteps with !isTargeted): no Check,
   * no Diff; with an old state it stays as it was (a SameStep of the old inputs and outputs), without one it is
   * not created and not recorded (NewSkippedCreateStep), and the program sees no id and no outputs.
   */
  private untargeted(
    goal: StateEntry,
    old: StateEntry | undefined,
  ): Pick<StateEntry, "urn" | "id" | "outputs"> {
    if (!old) {
      this.targets.skippedCreates.add(goal.urn);
      return { urn: goal.urn, outputs: {} };
    }
    const { urn, name, type, parent } = goal;
    this.operatedOn.add(urn);
    const entry: StateEntry = { ...old, urn, name, type, ...(parent ? { parent } : {}) };
    this.record("same", entry, this.aliasDetails(goal));
    this.registered.set(urn, entry);
    return entry;
  }

  /**
   * A targeted resource that needs one whose create `--target` skipped fails the up before any step of its own;
   * a preview reports it and goes on (step_generator.go, GenerateSteps; only under --target or --replace).
   */
  private refuseSkippedDependencies(goal: StateEntry): void {
    if (!this.targets.targetsConstrained && (this.settings.replace ?? []).length === 0) return;
    const errors = this.targets.skippedDependencyErrors(goal);
    if (errors.length === 0) return;
    if (this.settings.mode === "preview") {
      errors.forEach((error) => this.previewError(error));
      return;
    }
    errors.forEach((error) => this.fail(error));
    throw registrationRefused("untargeted create");
  }

  /**
   * Unknown `--replace` targets fail the run at the first registration (the stack's), before any step; `--target`
   * ones are checked after the program, against old and new resources (deployment.ts, finish).
   */
  private checkReplaceTargets(): void {
    if (this.targetsChecked) return;
    this.targetsChecked = true;
    const errors = unknownLiteralTargetErrors(this.settings.replace, this.settings.oldState);
    errors.forEach((error) => this.fail(error));
    if (errors.length > 0) throw registrationRefused("one or more targets could not be found in the stack");
  }

  /**
   * The old state of a resource: by URN first, then by its aliases (step_generator.go, getOldResource). A
   * resource found through an alias takes over that entry, which is then not deleted at the end.
   */
  private oldResource(goal: StateEntry, req: resproto.RegisterResourceRequest): StateEntry | undefined {
    const direct = this.old.get(goal.urn);
    if (direct) return direct;
    const aliases = [
      ...req.getAliasurnsList(),
      ...aliasUrns(
        req.getAliasesList(),
        { name: goal.name, type: goal.type, parent: goal.parent ?? "" },
        {
          project: this.settings.project,
          stack: this.settings.stack,
          oldUrnOfParent: (p) => this.oldUrnOf.get(p),
        },
      ),
    ];
    for (const alias of aliases) {
      const old = this.old.get(alias);
      if (!old) continue;
      if (this.seen.has(alias) || this.aliased.has(alias)) {
        throw new Error(
          `Duplicate resource alias '${alias}' applied to resource with URN '${goal.urn}' conflicting with ` +
            `resource with URN '${this.aliased.get(alias) ?? alias}'`,
        );
      }
      this.aliased.set(alias, goal.urn);
      this.oldUrnOf.set(goal.urn, alias);
      return old;
    }
    return undefined;
  }

  registerOutputs(urn: string, outputs: PropertyMap): void {
    if (urn === this.rootUrn) this.stackOutputs = outputs;
    const entry = this.registered.get(urn);
    if (entry) entry.outputs = outputs;
  }

  private stepComponent(goal: StateEntry, old: StateEntry | undefined): StateEntry {
    const entry: StateEntry = { ...goal, outputs: old?.outputs ?? {} };
    this.record(old ? "same" : "create", entry, this.aliasDetails(goal));
    this.registered.set(goal.urn, entry);
    return entry;
  }

  private aliasDetails(goal: StateEntry): Partial<Step> {
    const alias = this.oldUrnOf.get(goal.urn);
    return alias ? { aliasOf: alias } : {};
  }

  /**
   * `--replace` targets, and tainted resources: "If the resource was marked tainted in the old state, we will
   * replace (and implicitly untaint) it" (step_generator.go, isTargetedReplace). The replacement's state is a
   * new one, without the mark.
   */
  private isTargetedReplace(goal: StateEntry, old: StateEntry | undefined): boolean {
    return isReplaceTarget(this.settings.replace, goal) || old?.taint === true;
  }

  /**
   * What a registration becomes, decided in the check queue as one piece of the engine's serial step
   * generation: the plan, and for a replacement what follows the decision (replacements.ts).
   */
  private async plan(goal: StateEntry, old: StateEntry | undefined, news: PropertyMap): Promise<Plan> {
    return this.checkQueue.run(async () => {
      this.stopIfFailed();
      const plan = await this.decide(goal, old, news);
      if (plan.kind === "replace" && old) {
        await this.prepareReplacement(goal, old, plan, this.isTargetedReplace(goal, old));
      }
      this.operatedOn.add(goal.urn);
      return plan;
    });
  }

  private async decide(goal: StateEntry, old: StateEntry | undefined, news: PropertyMap): Promise<Plan> {
    if (!old) {
      const checked = await this.check(goal, {}, news);
      return { kind: "create", checked, changed: [], replaceKeys: [], deleteBeforeReplace: false };
    }
    if (this.isTargetedReplace(goal, old)) {
      // `--replace` (or taint): checked without the old inputs and with the program's values (ignoreChanges left out),
      // and no Diff: the replacement "blames the id" (step_generator.go, diff()); only the deleteBeforeReplace
      // option can ask for delete-first.
      const checked = await this.check(goal, {}, goal.inputs);
      return {
        kind: "replace",
        checked,
        changed: changedKeys(old.inputs, checked),
        replaceKeys: ["id"],
        deleteBeforeReplace: goal.options.deleteBeforeReplace ?? false,
      };
    }
    const checked = await this.check(goal, old.inputs, news);
    const deletedWith = goal.options.deletedWith;
    if (deletedWith && this.replaced.has(deletedWith)) {
      // Replaced with the resource it is deleted with, before Diff (step_generator.go, diff(): "marked for
      // replacement because ... (its DeletedWith resource) is being replaced").
      const deleteBeforeReplace = goal.options.deleteBeforeReplace ?? false;
      const changed = changedKeys(old.inputs, checked);
      return { kind: "replace", checked, changed, replaceKeys: ["deletedWith"], deleteBeforeReplace };
    }
    const diff = await this.diffResource(goal.urn, old, checked, goal.options.ignoreChanges);
    const changed = changedKeys(old.inputs, checked);
    // A dynamic provider's Diff carries no changed keys and no detailed diff, so `replaceOnChanges` has
    // nothing to act on (step_generator.go, applyReplaceOnChanges): it is ignored here as there.
    const hasChanges =
      diff.changes === "some" ||
      (diff.changes === "unknown" && changed.length > 0) || // diffResource: engine-side comparison
      (old.initErrors?.length ?? 0) > 0; // continueStepsFromDiff: init errors force an update
    // A resource pending replacement is replaced whatever Diff says (step_generator.go: `|| old.PendingReplacement`).
    const replaces = (diff.changes !== "none" && diff.replaces.length > 0) || old.pendingReplacement === true;
    return {
      kind: !hasChanges && !replaces ? "same" : replaces ? "replace" : "update",
      checked,
      changed,
      replaceKeys: diff.replaces,
      // An explicit option wins over the provider's answer (step_generator.go, continueStepsFromDiff).
      deleteBeforeReplace:
        old.pendingReplacement === true || (goal.options.deleteBeforeReplace ?? diff.deleteBeforeReplace),
    };
  }

  private async stepCustom(goal: StateEntry, old: StateEntry | undefined): Promise<StateEntry> {
    if (!goal.type.startsWith("pulumi-nodejs:dynamic")) {
      throw new Error(`${goal.type}: only dynamic resources (pulumi-nodejs:dynamic*) are supported here`);
    }
    // ignoreChanges: each ignored property path keeps its old value, before Check (processIgnoreChanges).
    const news = old
      ? applyIgnoreChanges(goal.inputs, old.inputs, goal.options.ignoreChanges).inputs
      : { ...goal.inputs };
    const plan = await this.plan(goal, old, news);
    const details = {
      changedKeys: plan.changed,
      replaceKeys: plan.replaceKeys,
      // Additive, for displays (the demo's preview): what each changed input of an update or replacement was
      // and becomes (a "same" step shows no diff in the CLI either: pkg/backend/display/object_diff.go).
      ...(old && plan.changed.length > 0 && (plan.kind === "update" || plan.kind === "replace")
        ? { changedValues: changedValues(old.inputs, plan.checked, plan.changed) }
        : {}),
      ...this.aliasDetails(goal),
    };
    if (plan.kind === "same" && old) {
      const entry: StateEntry = { ...goal, id: old.id, inputs: plan.checked, outputs: old.outputs };
      this.record("same", entry, details);
      this.registered.set(goal.urn, entry);
      return entry;
    }
    if (this.settings.mode === "preview") {
      // Providers without preview support: the engine returns the inputs as outputs, with a new id unknown.
      const id = plan.kind === "create" || plan.kind === "replace" ? undefined : old?.id;
      const entry: StateEntry = { ...goal, id, inputs: plan.checked, outputs: plan.checked };
      this.record(plan.kind, entry, {
        ...details,
        ...(plan.kind === "replace" ? { oldId: old?.id, deleteBeforeReplace: plan.deleteBeforeReplace } : {}),
      });
      return entry;
    }
    if (plan.kind === "create") {
      const entry = await this.create(goal, plan.checked);
      this.record("create", entry, details);
      return entry;
    }
    if (plan.kind === "update" && old) {
      const entry = await this.update(goal, old, plan.checked);
      this.record("update", entry, details);
      return entry;
    }
    return this.replace(goal, old as StateEntry, plan, details);
  }
}
