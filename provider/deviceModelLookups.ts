/**
 * Lookups of the headset models an app can be for (`App.deviceModelIds`): one model by name or id, and the
 * whole list. `GET /device-models` answers the supported models and the unsupported ones a device of the
 * organization has enrolled with, so a model nobody enrolled and the service does not support is not found.
 */
import type { DeviceModel } from "./client";
import { checker } from "./client/arguments";
import {
  byId,
  exactlyOne,
  lookup,
  lookupClient,
  toOutput,
  toOutputWithOptionalArgs,
  type LookupOptions,
} from "./lookupSupport";

/** A headset model. */
export interface DeviceModelResult {
  /** The model's UUID, for an App's `deviceModelIds`. */
  id: string;
  /** e.g. "Quest 3". */
  name: string;
  /** e.g. "Meta"; null when the API does not say. */
  manufacturer: string | null;
  /** False for a model the service does not support that a device of the organization enrolled with. */
  isSupported: boolean;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const modelResult = (m: DeviceModel): DeviceModelResult => ({
  id: m.id,
  name: m.name,
  manufacturer: m.manufacturer ?? null,
  isSupported: m.isSupported,
});

/** {@link getDeviceModel} by id. */
export interface GetDeviceModelByIdArgs {
  /** The model's UUID. */
  id: string;
  name?: never;
  manufacturer?: never;
}

/** {@link getDeviceModel} by name. */
export interface GetDeviceModelByNameArgs {
  id?: never;
  /** The model's exact name, e.g. "Quest 3" (case-sensitive). */
  name: string;
  /** Only models of this manufacturer, e.g. "Meta": needed when two manufacturers use the same name. */
  manufacturer?: string;
}

/** Arguments of {@link getDeviceModel}: `{ id }`, or `{ name, manufacturer? }`. */
export type GetDeviceModelArgs = GetDeviceModelByIdArgs | GetDeviceModelByNameArgs;

const MODEL_USAGE =
  'getDeviceModel({ name: "Quest 3" }), getDeviceModel({ name: "Quest 3", manufacturer: "Meta" }) or ' +
  'getDeviceModel({ id: "<device model uuid>" })';

/**
 * Finds a headset model by id, or by name (and manufacturer); an error lists the models there are.
 *
 * @function
 * @example
 * const quest3 = dm.getDeviceModelOutput({ name: "Quest 3", manufacturer: "Meta" });
 * new dm.App("trainer", { name: "Forklift Trainer", deviceModelIds: [quest3.id] });
 */
export const getDeviceModel = lookup(async function getDeviceModel(
  args: GetDeviceModelArgs,
  options?: LookupOptions,
): Promise<DeviceModelResult> {
  const check = checker("getDeviceModel", args, MODEL_USAGE);
  check.only("id", "name", "manufacturer");
  const client = lookupClient(options);
  if (check.has("id")) {
    if (check.has("name") || check.has("manufacturer"))
      check.fail('give either "id", or "name" with an optional "manufacturer" — not both.');
    const id = check.uuid("id", "device model");
    return modelResult(await byId("device model", id, () => client.deviceModels.get(id)));
  }
  if (!check.has("name")) check.fail('it needs "id" or "name".');
  const name = check.name("name", "device model's name");
  const manufacturer = check.has("manufacturer")
    ? check.name("manufacturer", "manufacturer's name")
    : undefined;
  const models = await client.deviceModels.all();
  const model = exactlyOne(
    `device model named "${name}"${manufacturer === undefined ? "" : ` by ${manufacturer}`}`,
    models.filter((m) => m.name === name && (manufacturer === undefined || m.manufacturer === manufacturer)),
    (m) => `${m.id} (${m.manufacturer ?? "manufacturer unknown"})`,
    models.map((m) => (m.manufacturer ? `${m.name} (${m.manufacturer})` : m.name)),
  );
  return modelResult(model);
});
/** {@link getDeviceModel} with Inputs, as an Output. */
export const getDeviceModelOutput = toOutput(getDeviceModel);

/** Arguments of {@link getDeviceModels}; none: every model the organization can use. */
export interface GetDeviceModelsArgs {
  /** Only this manufacturer's models, e.g. "Meta". */
  manufacturer?: string;
  /** Only the models the service supports (true), or only the unsupported ones enrolled devices have (false). */
  supported?: boolean;
}

/** The models {@link getDeviceModels} found, and their ids for an App's `deviceModelIds`. */
export interface DeviceModelsResult {
  /**
   * By manufacturer, then name (the documents promise no order, and a list that reorders would otherwise show
   * as a change of the App that takes it); possibly empty.
   */
  models: DeviceModelResult[];
  /** The same models' ids, in the same order. */
  ids: string[];
}

const MODELS_USAGE = 'getDeviceModels(), getDeviceModels({ manufacturer: "Meta", supported: true })';

/**
 * The headset models of the organization, filtered by manufacturer or support; none matching is an empty list,
 * not an error (a program decides what it needs).
 *
 * @function
 * @example
 * const meta = dm.getDeviceModelsOutput({ manufacturer: "Meta", supported: true });
 * new dm.App("trainer", { name: "Forklift Trainer", deviceModelIds: meta.ids });
 */
export const getDeviceModels = lookup(async function getDeviceModels(
  args: GetDeviceModelsArgs = {},
  options?: LookupOptions,
): Promise<DeviceModelsResult> {
  const check = checker("getDeviceModels", args, MODELS_USAGE);
  check.only("manufacturer", "supported");
  const manufacturer = check.has("manufacturer")
    ? check.name("manufacturer", "manufacturer's name")
    : undefined;
  const supported = args.supported;
  if (supported !== undefined && typeof supported !== "boolean")
    check.fail(
      `argument "supported" must be true or false (or left out), got ${JSON.stringify(supported)}.`,
      "supported",
    );
  const models = (await lookupClient(options).deviceModels.all())
    .filter((m) => manufacturer === undefined || m.manufacturer === manufacturer)
    .filter((m) => supported === undefined || m.isSupported === supported)
    .map(modelResult)
    .sort((a, b) => byText(a.manufacturer ?? "", b.manufacturer ?? "") || byText(a.name, b.name));
  return { models, ids: models.map((m) => m.id) };
});
/** {@link getDeviceModels} with Inputs, as an Output (no arguments: every model). */
export const getDeviceModelsOutput = toOutputWithOptionalArgs(getDeviceModels);
