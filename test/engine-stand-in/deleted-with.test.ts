/**
 * The `deletedWith` option (step.go, DeleteStep.Apply and isDeletedWith; step_generator.go, diff()): a resource
 * deleted with another that this run deletes gets no Delete call of its own; one whose deletedWith resource is
 * replaced is replaced too; otherwise it is deleted as any other. Each test reads the store's journal.
 */
import type { Engine } from "../../engine-stand-in";
import { Item } from "./fixtures/item-resource";
import { ItemBackend, useItemEngine } from "./fixtures/item-fixture";

let backend: ItemBackend;
let engine: Engine;
useItemEngine((fresh) => ({ backend, engine } = fresh));

const program =
  ({ owner = true, member = true, kind = "a" } = {}) =>
  () => {
    if (!owner) return;
    const site = new Item("owner", { name: "owner", kind });
    if (member) new Item("member", { name: "member" }, { deletedWith: site });
  };

beforeEach(async () => {
  const first = await engine.up(program());
  expect(first.errors).toEqual([]);
  expect(engine.resource("member").options.deletedWith).toBe(engine.resource("owner").urn);
  backend.edit((data) => (data.journal = []));
});

test("dropped with the resource it is deleted with: only that one is deleted through the provider", async () => {
  const result = await engine.up(program({ owner: false }));
  expect(result.errors).toEqual([]);
  expect(backend.mutations()).toEqual(["delete owner"]);
  expect(result.steps.delete.map((s) => s.name).sort()).toEqual(["member", "owner"]);
  expect(engine.resources()).toEqual([]);
});

test("dropped alone: deleted through the provider as any other", async () => {
  const result = await engine.up(program({ member: false }));
  expect(result.errors).toEqual([]);
  expect(backend.mutations()).toEqual(["delete member"]);
  expect(backend.byName("owner")).toBeDefined();
});

test("destroy: only the owner's Delete is called", async () => {
  const result = await engine.destroy();
  expect(result.errors).toEqual([]);
  expect(backend.mutations()).toEqual(["delete owner"]);
});

test("its deletedWith resource replaced: replaced too, its old one going with the old owner", async () => {
  const preview = await engine.preview(program({ kind: "b" }));
  expect(preview.steps.replace.map((s) => [s.name, s.replaceKeys])).toEqual([
    ["owner", ["kind"]],
    ["member", ["deletedWith"]],
  ]);
  const result = await engine.up(program({ kind: "b" }));
  expect(result.errors).toEqual([]);
  expect(result.steps.replace.map((s) => s.name)).toEqual(["owner", "member"]);
  expect(backend.mutations()).toEqual(["create owner", "create member", "delete owner"]);
  expect(engine.resource("member").options.deletedWith).toBe(engine.resource("owner").urn);
});
