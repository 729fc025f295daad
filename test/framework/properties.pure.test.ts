// Checking and diffing properties by their declared schemas, without Pulumi or HTTP: checkProperties, jsonClean
// (what the engine's protocol can carry) and diffProperties.
import { checkProperties, diffProperties, jsonClean, UNKNOWN, uuid } from "../../provider/framework";
import { z } from "zod";

const A = "11111111-1111-4111-8111-111111111111";

describe("checkProperties", () => {
  const shape = { name: z.string().min(1), id: uuid("id"), tags: z.array(z.string()).optional() };

  it("returns one failure per bad property, with the property named in the reason", () => {
    const { failures } = checkProperties("Thing", shape, { name: "", id: "not-a-uuid", tags: [1] });
    expect(failures.map((f) => f.property).sort()).toEqual(["id", "name", "tags"]);
    expect(failures.find((f) => f.property === "tags")?.reason).toMatch(/^tags\[0\]:/);
    expect(failures.find((f) => f.property === "id")?.reason).toMatch(/id must be an id/);
  });

  it("lets values unknown during preview through untouched", () => {
    const { inputs, failures } = checkProperties("Thing", shape, {
      name: "x",
      id: UNKNOWN,
      tags: ["a", UNKNOWN],
    });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ name: "x", id: UNKNOWN, tags: ["a", UNKNOWN] });
  });

  it("refuses properties the resource does not have, but ignores engine keys", () => {
    const { failures } = checkProperties("Thing", shape, {
      name: "x",
      id: A,
      colour: "red",
      __provider: "p",
    });
    expect(failures).toEqual([{ property: "colour", reason: "colour is not a property of Thing." }]);
  });
});

describe("jsonClean", () => {
  it("drops undefined at every depth (the plugin cannot encode it) and keeps null", () => {
    expect(jsonClean({ a: undefined, b: null, c: [{ d: undefined, e: 1 }] })).toEqual({
      b: null,
      c: [{ e: 1 }],
    });
  });
});

describe("diffProperties", () => {
  it("uses per-property equality and defaults", () => {
    const spec = { updatable: ["a"], replaceOn: ["b"], equal: { a: () => true }, defaults: { b: 1 } };
    expect(diffProperties({ a: 1 }, { a: 2, b: 1 }, spec)).toMatchObject({ changes: false });
    expect(diffProperties({ b: 1 }, { b: 2 }, spec)).toMatchObject({ changes: true, replaces: ["b"] });
  });
});
