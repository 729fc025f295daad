// The no-duplicate rule of Group creates, and its numbered exception, without Pulumi.
import { blockingSiblings, type Sibling } from "../../../provider/kinds/group/create";
import { sameNameOrdinals } from "../../../provider/export/naming";
import { groupTree } from "../../../provider/export/model";

const spare = (id: string): Sibling => ({ id, name: "Spare", parentId: "emea" });
const none = () => false;

describe("blockingSiblings", () => {
  it("without an ordinal, any same-named sibling blocks the create", () => {
    expect(blockingSiblings([], undefined, none)).toEqual([]);
    expect(blockingSiblings([spare("a")], undefined, none)).toEqual([spare("a")]);
    // Even one this run made: an unnumbered second group of one name is a duplicate.
    expect(blockingSiblings([spare("a")], undefined, () => true)).toEqual([spare("a")]);
  });

  it("copy n is created while fewer than n were there before the run", () => {
    expect(blockingSiblings([], 1, none)).toEqual([]);
    expect(blockingSiblings([spare("a")], 2, none)).toEqual([]);
    expect(blockingSiblings([spare("a")], 1, none)).toEqual([spare("a")]);
    expect(blockingSiblings([spare("a"), spare("b")], 2, none)).toEqual([spare("a"), spare("b")]);
  });

  it("the copies this run created do not count, whatever order the engine ran the creates in", () => {
    const madeHere = (id: string) => id === "copy-2";
    expect(blockingSiblings([spare("copy-2")], 1, madeHere)).toEqual([]);
    expect(blockingSiblings([spare("copy-2"), spare("old")], 1, madeHere)).toEqual([spare("old")]);
  });
});

describe("sameNameOrdinals", () => {
  it("numbers same-named siblings in tree order and leaves unique names alone", () => {
    const tree = groupTree([
      { id: "emea", name: "EMEA", parentId: null, configured: false },
      { id: "s2", name: "Spare", parentId: "emea", configured: false },
      { id: "s1", name: "Spare", parentId: "emea", configured: true },
      { id: "lab", name: "Lab", parentId: "emea", configured: true },
      { id: "us", name: "Americas", parentId: null, configured: false },
      { id: "s3", name: "Spare", parentId: "us", configured: false },
    ]);
    const spares = tree.filter((g) => g.name === "Spare" && g.parentId === "emea").map((g) => g.id);
    expect(Object.fromEntries(sameNameOrdinals(tree))).toEqual({ [spares[0]]: 1, [spares[1]]: 2 });
  });
});
