/**
 * The App kind's CRUD, on typed inputs. Create never adopts silently: the API lets names repeat (unless the
 * service is strict, emulator switch `uniqueAppNames`) and has no DELETE /apps, so a second app of one name could
 * never be removed again and would break every lookup by app name; a lost create answer is resolved by looking
 * for the app. Update is one PUT of name and description. Delete forgets the app (the API cannot delete one) and
 * says so, as DeviceMigration does.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  resourceLog,
  clientForProps,
  adoptable,
  containsUnknown,
  jsonClean,
  notCreatedHere,
  partialFailure,
  untilApplied,
  type Props,
  heldByAnother,
  leftByUnfinishedCreate,
  checkKind,
  diffKindAsked,
  readById,
  type InputsOf,
  type KindHandler,
  liveStateOf,
  stateFrom,
} from "../../framework";
import { NotPossibleError, ObjectGoneError } from "../../errors";
import { NotFoundError, type App as ApiApp, type DeviceMgmtClient } from "../../client";
import { appProperties, type AppProperties, type AppState, appIdentity } from "./properties";

/** What a PUT /apps/{id} brings to the declared state: the name and the description ("" and null: none). */
type Text = Pick<AppState, "name" | "description">;

const textOf = ({ name, description }: Text): Text => ({ name, description: description || null });

/** Names as the no-silent-takeover rule compares them: without case (a strict service refuses such a twin too). */
const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function toOutputs(live: ApiApp, props: Props): Props {
  return jsonClean({
    ...stateFrom(appProperties, live, props),
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
  });
}

/**
 * Pure: the diff, refusing at preview a change of `deviceModelIds` that keeps the name. UpdateApp cannot change an
 * app's models, so the change needs a new app; the API cannot delete the old one, so the new one would be a second
 * app of the same name (which the create refuses anyway, after the preview said it would replace).
 */
export function diffApp(
  olds: Props,
  news: Props,
  result: pulumi.dynamic.DiffResult,
): pulumi.dynamic.DiffResult {
  const replacing = result.replaces ?? [];
  const keepsName =
    typeof olds.name === "string" &&
    typeof news.name === "string" &&
    !containsUnknown(news.name) &&
    sameName(olds.name, news.name);
  if (replacing.includes("deviceModelIds") && !replacing.includes("connection") && keepsName) {
    throw new NotPossibleError(
      `deviceModelIds: an app's device models are set only when it is created (the API cannot change them), so ` +
        `this change needs a new app; the API cannot delete apps, so the old app "${String(olds.name)}" would stay ` +
        `beside a new one of the same name. Nothing was changed. Keep deviceModelIds as they were (or leave them ` +
        `out: the models are then not managed), or give the app a new name in the same change (the old app then ` +
        `stays in the organization, no longer managed).`,
      {
        kind: "App",
        property: "deviceModelIds",
        fix: "keep deviceModelIds, or rename the app in the same change",
      },
    );
  }
  return result;
}

/**
 * Pure: the device model ids of `declared` that are not among the organization's models, as check failures naming
 * each and what there is. Ids the recorded inputs already had are not asked about again.
 */
export function unknownModelFailures(
  declared: unknown,
  recorded: unknown,
  models: { id: string; name: string }[],
): pulumi.dynamic.CheckFailure[] {
  if (!Array.isArray(declared)) return [];
  const before = new Set(Array.isArray(recorded) ? recorded.map((id) => String(id).toLowerCase()) : []);
  const known = new Set(models.map((m) => m.id.toLowerCase()));
  const unknown = declared.filter(
    (id): id is string => typeof id === "string" && !before.has(id) && !known.has(id) && !containsUnknown(id),
  );
  if (!unknown.length) return [];
  const available = models.map((m) => `${m.name} (${m.id})`).join(", ");
  return [
    {
      property: "deviceModelIds",
      reason:
        `deviceModelIds: no device model with id ${unknown.join(", ")} is among the organization's models. ` +
        `Use ids of GET /device-models: ${available || "none"}.`,
    },
  ];
}

/** The models check compares declared ids with; none (no failure) when the organization cannot be asked. */
async function organizationModels(inputs: Props): Promise<{ id: string; name: string }[] | undefined> {
  if (containsUnknown(inputs.connection)) return undefined;
  try {
    return await clientForProps(inputs).deviceModels.all();
  } catch {
    return undefined; // the API still has the last word at `up`
  }
}

/** Adoption cannot change the models (UpdateApp has none): declared models the app lacks are refused, before any write. */
function refuseOtherModels(live: ApiApp, inputs: InputsOf<AppProperties>): void {
  if (
    appProperties.deviceModelIds.equal(liveStateOf(appProperties, live).deviceModelIds, inputs.deviceModelIds)
  )
    return;
  throw new NotPossibleError(
    `deviceModelIds: app ${live.id} ("${live.name}") is for the models ` +
      `[${(live.deviceModels ?? []).map((m) => m.name).join(", ")}], not the declared ones, and the API cannot ` +
      `change an app's models. Nothing was changed. Declare the app's models, or leave deviceModelIds out.`,
    {
      kind: "App",
      property: "deviceModelIds",
      fix: "declare the app's own models, or leave deviceModelIds out",
    },
  );
}

/**
 * Creates the app unless one of that name exists (refused: notCreatedHere), surviving a lost answer: an app of
 * that name found afterwards is the one the request made (there was none just before, and claims.ts lets one
 * resource of the run declare one name). The app a killed run of this very resource made is taken over.
 */
async function createOnce(client: DeviceMgmtClient, inputs: InputsOf<AppProperties>): Promise<ApiApp> {
  const named = async () => (await client.apps.all()).filter((a) => sameName(a.name, inputs.name));
  const existing = await named();
  const own = leftByUnfinishedCreate(appIdentity.kind, inputs, existing);
  if (own) return own;
  if (existing.length > 0) {
    throw notCreatedHere(
      `An app named "${inputs.name}" already exists (id ${existing.map((a) => a.id).join(", ")}), and this App ` +
        `did not create it.`,
      "an app",
      existing[0].id,
      " Apps of one name are refused (names compare without case) because the API cannot delete an app: a second " +
        "one could never be removed again, and every lookup by app name (getApp, getReleaseChannel) would stop " +
        "finding one. Give a new app another name.",
    );
  }
  return untilApplied(
    () => client.apps.create({ name: inputs.name, deviceModelIds: inputs.deviceModelIds }),
    async () => (await named()).find((a) => !heldByAnother(appIdentity.kind, a.id, inputs)),
  );
}

/**
 * A rename onto the name of another app of the organization is refused before the PUT, for the reason a create is
 * (a strict service refuses it too, with a bare 422): two apps of one name break every lookup by that name.
 */
async function refuseTakenName(
  client: DeviceMgmtClient,
  id: string,
  olds: Props,
  name: string,
): Promise<void> {
  if (typeof olds.name === "string" && olds.name === name) return;
  const taken = (await client.apps.all()).filter((a) => a.id !== id && sameName(a.name, name));
  if (!taken.length) return;
  throw new NotPossibleError(
    `name: another app of the organization is named "${taken[0].name}" (id ${taken.map((a) => a.id).join(", ")}), ` +
      `so renaming app ${id} to "${name}" would leave two apps of one name (compared without case), and every ` +
      `lookup by that name (getApp, getReleaseChannel) would find two. Nothing was changed. Choose another name, ` +
      `or rename the other app first.`,
    { kind: "App", property: "name", fix: "choose a name no other app has" },
  );
}

/** One PUT when the live name or description differs from the declared ones; undefined when none was needed. */
async function reconcile(
  client: DeviceMgmtClient,
  id: string,
  current: Text,
  want: Text,
): Promise<ApiApp | undefined> {
  const [now, wanted] = [textOf(current), textOf(want)];
  if (now.name === wanted.name && now.description === wanted.description) return undefined;
  return client.apps.update(id, wanted);
}

export const appHandler: KindHandler<AppProperties> = {
  async check(olds, news) {
    const { inputs, failures } = checkKind(appIdentity, news);
    // Only ids new since the recorded inputs are asked about (a preview of an unchanged App asks nothing).
    const recorded = Array.isArray(olds.deviceModelIds) ? olds.deviceModelIds : [];
    // (During a preview the list, or an id of it, may still be the engine's unknown value.)
    const declared: unknown = inputs.deviceModelIds;
    const fresh = Array.isArray(declared) ? declared.filter((id) => !recorded.includes(id)) : [];
    if (!failures.some((f) => f.property === "deviceModelIds") && fresh.length) {
      const models = await organizationModels(inputs);
      if (models) failures.push(...unknownModelFailures(inputs.deviceModelIds, olds.deviceModelIds, models));
    }
    return { inputs, failures };
  },

  async diff(id, olds, news) {
    const result = diffApp(olds, news, await diffKindAsked(appIdentity, olds, news));
    // At preview already, where the name and the connection are known; the update asks again before its PUT.
    if (result.changes && typeof news.name === "string" && !containsUnknown(news.name)) {
      try {
        if (!containsUnknown(news.connection))
          await refuseTakenName(clientForProps(news), id, olds, news.name);
      } catch (error) {
        if (error instanceof NotPossibleError) throw error; // an organization that cannot be asked lets it pass
      }
    }
    return result;
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    let live: ApiApp;
    if (inputs.adoptId !== undefined) {
      live = await adoptable("app", inputs.adoptId, (id) => client.apps.get(id));
      refuseOtherModels(live, inputs);
    } else {
      live = await createOnce(client, inputs);
    }
    try {
      // CreateApp takes no description: a declared one is a PUT after the create (or after adoption).
      live = (await reconcile(client, live.id, liveStateOf(appProperties, live), inputs)) ?? live;
    } catch (error) {
      throw partialFailure(live.id, toOutputs(live, inputs), inputs, error);
    }
    return { id: live.id, outs: toOutputs(live, inputs) };
  },

  read: (id, props) => readById(appIdentity, id, props, (client, appId) => client.apps.get(appId), toOutputs),

  async update(id, olds, news) {
    const client = clientForProps(news);
    await refuseTakenName(client, id, olds, news.name);
    try {
      // Planned from the recorded outputs (no extra read): a connection-only change sends nothing.
      const updated = (await reconcile(client, id, olds, news)) ?? (await client.apps.get(id));
      return { outs: toOutputs(updated, news) };
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      throw new ObjectGoneError(
        `App ${id} no longer exists in the organization. Run \`pulumi refresh\` to forget it, then \`pulumi up\` ` +
          `creates it again.`,
        "App",
        id,
      );
    }
  },

  async delete(id, props) {
    // No DELETE /apps in the API: the app, its builds, channels and tags stay. Only the stack forgets it.
    await resourceLog.warn(
      `App ${id} ("${String(props.name)}"): the API cannot delete apps; the app stays in the organization with ` +
        `its builds, release channels and tags. Removed from the stack only.`,
    );
  },
};
