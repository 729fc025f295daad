// Inputs that the engine's protocol would alter silently (a "__proto__" key, an unpaired surrogate) are found in
// the program, where the real value still is, and become the property's check failure; everything else is
// registered exactly as given.
import * as pulumi from "@pulumi/pulumi";
import { alteredInput, guardedInput, refusalIn, REFUSED } from "../../provider/framework";
import { deviceHandler } from "../../provider/kinds/device/handler";

const resolved = (value: unknown) =>
  new Promise<unknown>((resolve) =>
    (pulumi.output(value as pulumi.Input<string>) as pulumi.Output<unknown>).apply(resolve),
  );

describe("alteredInput", () => {
  it("finds a reserved key and unpaired surrogates, with where", () => {
    expect(alteredInput(JSON.parse('{"a": {"__proto__": "x"}}'), "customFields")).toMatch(
      /^customFields\.a has the key "__proto__"/,
    );
    expect(alteredInput(["ok", "a\ud800b"], "tags")).toMatch(
      /^tags\[1\] has an unpaired UTF-16 surrogate at position 1/,
    );
    expect(alteredInput("\udc00", "name")).toMatch(/position 0/);
    expect(alteredInput({ ["k\ud800"]: "v" }, "customFields")).toMatch(/a key with an unpaired/);
  });

  it("passes whole surrogate pairs, other text and other values", () => {
    expect(alteredInput(["🙂 lobby", "ünïcödé", 3, null, { a: ["b"] }], "tags")).toBeUndefined();
    // "__proto__" set as an object literal's prototype is not an own key: nothing is lost.
    expect(alteredInput({ __proto__: { x: 1 }, a: "b" }, "customFields")).toBeUndefined();
  });

  it("never puts the value in the reason (it may be secret)", () => {
    expect(alteredInput("secret-\ud800-pin", "adminPin")).not.toMatch(/secret/);
  });
});

describe("guardedInput", () => {
  it("keeps a value with nothing altered as it is (same object), and refuses one that would be", () => {
    const tags = ["a", "b"];
    expect(guardedInput(tags, "tags")).toBe(tags);
    expect(guardedInput(undefined, "tags")).toBeUndefined();
    expect(refusalIn(guardedInput(["a", "x\ud800"], "tags"))).toMatch(/^tags\[1\]/);
  });

  it("looks into Outputs when they resolve, leaving the rest of the value in place", async () => {
    const value = guardedInput(["plain", pulumi.output("cut \ud83c")], "tags") as unknown[];
    expect(value[0]).toBe("plain");
    expect(refusalIn(await resolved(value[1]))).toMatch(/^tags\[1\] has an unpaired/);
    const fine = guardedInput(pulumi.secret({ Room: "Atrium" }), "customFields");
    expect(await resolved(fine)).toEqual({ Room: "Atrium" });
    expect(await pulumi.isSecret(fine as pulumi.Output<unknown>)).toBe(true);
  });
});

describe("check", () => {
  it("reports a refusal as the property's failure, whatever the schema says of the rest", async () => {
    const result = await deviceHandler.check(
      {},
      { deviceId: "11111111-1111-4111-8111-111111111111", customFields: { [REFUSED]: "customFields has …" } },
    );
    expect(result.failures).toEqual([{ property: "customFields", reason: "customFields has …" }]);
  });
});
