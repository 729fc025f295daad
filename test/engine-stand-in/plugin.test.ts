import * as pulumi from "@pulumi/pulumi";
import { itemProvider } from "./fixtures/item-resource";
import { ItemBackend, newItemBackend, repoRoot } from "./fixtures/item-fixture";
import {
  PropertyMap,
  ProviderCallError,
  ProviderPlugin,
  startProviderPlugin,
} from "../../engine-stand-in/plugin";

const URN = "urn:pulumi:stack::project::pulumi-nodejs:dynamic/fixture:Item::thing";

let providerText: string;
let backend: ItemBackend;
let plugin: ProviderPlugin;

beforeAll(async () => {
  // What `new dynamic.Resource(itemProvider, ...)` puts in its `__provider` input.
  providerText = (await pulumi.runtime.serializeFunction(() => itemProvider, { allowSecrets: true })).text;
});

beforeEach(async () => {
  backend = newItemBackend();
  plugin = await startProviderPlugin({ cwd: repoRoot });
  await plugin.configure({ "fixture:storePath": backend.storePath, "fixture:token": backend.token }, [
    "fixture:token",
  ]);
});

afterEach(() => plugin.close());

const inputs = (props: PropertyMap): PropertyMap => ({ __provider: providerText, ...props });

test("drives check, create, read, update and delete of a serialized provider", async () => {
  const checked = await plugin.check({ urn: URN, olds: {}, news: inputs({ name: "thing", value: "1" }) });
  expect(checked).toEqual({ inputs: inputs({ name: "thing", value: "1" }), failures: [] });

  const created = await plugin.create({ urn: URN, properties: checked.inputs });
  expect(created.id).toBe(backend.byName("thing")?.id);
  expect(created.properties).toEqual(inputs({ id: created.id, name: "thing", value: "1", revision: 1 }));

  const diff = await plugin.diff({
    urn: URN,
    id: created.id,
    olds: created.properties,
    news: inputs({ name: "thing", value: "2", kind: "k" }),
  });
  expect(diff).toEqual({ changes: "some", replaces: ["kind"], stables: [], deleteBeforeReplace: false });

  const updated = await plugin.update({
    urn: URN,
    id: created.id,
    olds: created.properties,
    news: inputs({ name: "thing", value: "2" }),
  });
  expect(updated).toMatchObject({ value: "2", revision: 2 });

  const read = await plugin.read({ urn: URN, id: created.id, properties: updated });
  expect(read).toEqual({
    id: created.id,
    properties: inputs({ id: created.id, name: "thing", value: "2", revision: 2 }),
    inputs: inputs({ name: "thing", value: "2" }),
  });

  await plugin.delete({ urn: URN, id: created.id, properties: updated });
  expect(backend.data().objects).toEqual({});
  const gone = await plugin.read({ urn: URN, id: created.id, properties: updated });
  expect(gone.id).toBe("");
});

test("check failures come back as property and reason", async () => {
  const checked = await plugin.check({ urn: URN, olds: {}, news: inputs({ name: "Bad Name" }) });

  expect(checked.failures).toEqual([{ property: "name", reason: '"Bad Name" is not a lower-case slug' }]);
});

test("a failed create keeps the provider's message; an initialization failure also gives id and properties", async () => {
  const rejected = await plugin
    .create({ urn: URN, properties: inputs({ name: "thing", failOn: "create" }) })
    .catch((err: unknown) => err);
  expect(rejected).toBeInstanceOf(ProviderCallError);
  expect(rejected).toMatchObject({ method: "create", message: "item thing: create rejected", id: undefined });

  const halfDone = await plugin
    .create({ urn: URN, properties: inputs({ name: "thing", failOn: "init" }) })
    .catch((err: unknown) => err);
  const storedId = backend.byName("thing")?.id;
  expect(storedId).toBeDefined();
  expect(halfDone).toMatchObject({
    message: "item thing: created but failed to initialize",
    id: storedId,
    properties: { id: storedId, name: "thing", failOn: "init", revision: 1 },
    initFailure: { reasons: ["initialization failed"] },
  });
});

test("the plugin's stderr is captured, and the secret config value is not in it", async () => {
  await plugin.create({ urn: URN, properties: inputs({ name: "loud" }) });

  expect(plugin.stderr()).toContain("item provider: create loud");
  expect(plugin.stderr()).not.toContain(backend.token);
});

test("a provider configured with another token is refused by the store", async () => {
  const other = await startProviderPlugin({ cwd: repoRoot });
  try {
    await other.configure({ "fixture:storePath": backend.storePath, "fixture:token": "not-the-token" }, [
      "fixture:token",
    ]);

    await expect(other.create({ urn: URN, properties: inputs({ name: "thing" }) })).rejects.toThrow(
      "item store: unauthorized",
    );
  } finally {
    await other.close();
  }
});
