// The App kind without Pulumi or HTTP: check's typed inputs and failures, the diff (what updates, what replaces,
// what is no change), and the preview-time refusals, asserted by class and fields.
import { NotPossibleError } from "../../../provider/errors";
import { UNKNOWN, comparedOf, liveStateOf } from "../../../provider/framework";
import { appHandler, unknownModelFailures } from "../../../provider/kinds/app/handler";
import { appProperties } from "../../../provider/kinds/app/properties";
import type { App as ApiApp } from "../../../provider/client";

const Q2 = "aaaaaaaa-1111-4111-8111-111111111111";
const Q3 = "bbbbbbbb-2222-4222-8222-222222222222";
const PICO = "cccccccc-3333-4333-8333-333333333333";

/** What create records for an app made with these values (the diff's olds). */
const recorded = (over: Record<string, unknown> = {}) => ({
  name: "Forklift Trainer",
  description: null,
  deviceModelIds: [Q2, Q3],
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
  ...over,
});

describe("App check", () => {
  it("returns typed inputs: the name trimmed, no description as null, models as a lower-case set", async () => {
    const { inputs, failures } = await appHandler.check(
      {},
      { name: "  Forklift Trainer ", description: "", deviceModelIds: [Q3.toUpperCase(), Q2, Q3] },
    );
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ name: "Forklift Trainer", description: null, deviceModelIds: [Q2, Q3] });
    expect((await appHandler.check({}, { name: "A", description: null })).inputs.description).toBeNull();
    expect((await appHandler.check({}, { name: "A" })).inputs).toEqual({ name: "A", description: null });
    // A list not known yet (preview) passes as it is.
    expect(await appHandler.check({}, { name: "A", deviceModelIds: UNKNOWN })).toMatchObject({
      inputs: { deviceModelIds: UNKNOWN },
      failures: [],
    });
  });

  it("refuses bad input, one failure per property, naming the property and the limit", async () => {
    const { failures } = await appHandler.check(
      {},
      { name: "x".repeat(101), description: 7, deviceModelIds: ["quest-3"], tags: ["training"] },
    );
    expect(Object.fromEntries(failures.map((f) => [f.property, f.reason]))).toEqual({
      name: expect.stringMatching(/^name: name must be at most 100 characters/),
      description: expect.stringMatching(/^description: description must be a string, or null for none/),
      deviceModelIds: expect.stringMatching(/^deviceModelIds\[0\]: deviceModelIds\[\] must be an id/),
      // Tags belong to TagSet: not a property of App.
      tags: "tags is not a property of App.",
    });
    expect((await appHandler.check({}, {})).failures).toEqual([
      { property: "name", reason: expect.stringMatching(/name is required/) },
    ]);
  });

  it("names the device model ids the organization lacks, and what it has", () => {
    const models = [
      { id: Q2, name: "Quest 2" },
      { id: Q3, name: "Quest 3" },
    ];
    expect(unknownModelFailures([Q2, PICO], undefined, models)).toEqual([
      {
        property: "deviceModelIds",
        reason:
          `deviceModelIds: no device model with id ${PICO} is among the organization's models. Use ids of ` +
          `GET /device-models: Quest 2 (${Q2}), Quest 3 (${Q3}).`,
      },
    ]);
    // An id the recorded inputs had is not asked about again (a model the service dropped since is not new).
    expect(unknownModelFailures([Q2, PICO], [PICO], models)).toEqual([]);
    expect(unknownModelFailures([UNKNOWN], undefined, models)).toEqual([]);
  });
});

describe("App diff", () => {
  const diff = (olds: ReturnType<typeof recorded>, news: Record<string, unknown>) =>
    appHandler.diff("id", olds, news);

  it("renames and re-describes in place", async () => {
    expect(await diff(recorded(), { name: "Forklift Trainer 2", deviceModelIds: [Q2, Q3] })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await diff(recorded(), { name: "Forklift Trainer", description: "New" })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("shows no change for the same values in another form, or for models left out", async () => {
    // "" and null are both no description (check makes both null; state written otherwise compares alike).
    expect(
      await diff(recorded({ description: null }), { name: "Forklift Trainer", description: null }),
    ).toMatchObject({ changes: false });
    expect(await diff(recorded(), { name: "Forklift Trainer", deviceModelIds: [Q3, Q2] })).toMatchObject({
      changes: false,
    });
    expect(await diff(recorded(), { name: "Forklift Trainer" })).toMatchObject({ changes: false });
  });

  it("replaces on other models with a new name, and refuses other models under the same name at preview", async () => {
    expect(await diff(recorded(), { name: "Forklift Trainer XR", deviceModelIds: [Q2] })).toMatchObject({
      changes: true,
      replaces: ["deviceModelIds"],
    });
    const refused = await diff(recorded(), { name: "forklift trainer", deviceModelIds: [Q2] }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(NotPossibleError);
    expect(refused).toMatchObject({ kind: "App", property: "deviceModelIds" });
    // A name not known yet (preview) is not refused: it may be a new one.
    expect(await diff(recorded(), { name: UNKNOWN, deviceModelIds: [Q2] })).toMatchObject({ changes: true });
  });
});

describe("App's live mapping", () => {
  const STAMPS = { createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" };
  const live: ApiApp = {
    id: "app-1",
    name: "Forklift Trainer",
    description: "",
    tags: ["training"],
    deviceModels: [
      { id: Q3.toUpperCase(), name: "Quest 3", isSupported: true, ...STAMPS },
      { id: Q2, name: "Quest 2", isSupported: true, ...STAMPS },
    ],
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
  };

  it("reads name, description (empty as none) and the models as a set; never the tags", () => {
    expect(liveStateOf(appProperties, live)).toEqual({
      name: "Forklift Trainer",
      description: null,
      deviceModelIds: [Q2, Q3],
    });
  });

  it("gives the drift report the same equality: models in any order, empty and null descriptions alike", () => {
    const compared = comparedOf(appProperties);
    expect(Object.keys(compared).sort()).toEqual(["description", "deviceModelIds", "name"]);
    expect(compared.deviceModelIds([Q3, Q2], [Q2, Q3])).toBe(true);
    expect(compared.deviceModelIds([Q2], [Q2, Q3])).toBe(false);
    expect(compared.description(undefined, null)).toBe(true);
    expect(compared.name("Forklift Trainer", "Forklift Trainer 2")).toBe(false);
  });
});
