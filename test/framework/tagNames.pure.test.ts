// Issue #40 item 3, the logic alone: what an owner's tag write attaches and detaches while a Tag of the same run
// is about to be renamed (tagWrites), and the run's hold that keeps a rename from falling between an owner's read
// of its tags and its write (TagNames). The same on the real CLI: test/framework/tagNames.program.test.ts.
import { tagWrites } from "../../provider/kinds/device/tags";
import { TagNames } from "../../provider/framework";

const pilot = { from: "emea-pilot", to: "emea-pilot-2025" };

describe("tagWrites", () => {
  test("without renames it is the difference, without case", () => {
    expect(tagWrites(["Safety", "old"], ["safety", "new"], [])).toEqual({
      attach: ["new"],
      detach: ["old"],
      after: ["Safety", "new"],
    });
  });

  test("a set that drops a tag about to be renamed detaches it under its name now", () => {
    expect(tagWrites(["safety", "emea-pilot"], ["safety"], [pilot])).toEqual({
      attach: [],
      detach: ["emea-pilot"],
      after: ["safety"],
    });
  });

  test("a set that drops a tag already renamed detaches it under its new name", () => {
    // The rename was made (settled): the owner carries the new name, and no rename is planned any more.
    expect(tagWrites(["safety", "emea-pilot-2025"], ["safety"], [])).toEqual({
      attach: [],
      detach: ["emea-pilot-2025"],
      after: ["safety"],
    });
  });

  test("a set that keeps it by its new name writes nothing, and records the new name", () => {
    expect(tagWrites(["safety", "EMEA-pilot"], ["safety", "emea-pilot-2025"], [pilot])).toEqual({
      attach: [],
      detach: [],
      after: ["safety", "emea-pilot-2025"],
    });
  });

  test("a new name not yet given is attached under the tag's name now, never as a second tag", () => {
    expect(tagWrites(["safety"], ["safety", "Emea-Pilot-2025"], [pilot])).toEqual({
      attach: ["emea-pilot"],
      detach: [],
      after: ["safety", "emea-pilot-2025"],
    });
  });

  test("tags no rename touches are written as they are", () => {
    expect(tagWrites(["lobby"], ["training"], [pilot])).toEqual({
      attach: ["training"],
      detach: ["lobby"],
      after: ["training"],
    });
  });
});

describe("TagNames", () => {
  /** Runs `name` in the hold, logging its start and its end after `release` resolves. */
  function holder(names: TagNames, log: string[], name: string, exclusive: boolean) {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const done = (exclusive ? names.exclusive.bind(names) : names.shared.bind(names))(async () => {
      log.push(`${name} starts`);
      await released;
      log.push(`${name} ends`);
    });
    return { release, done };
  }
  const settle = () => new Promise((r) => setImmediate(r));

  test("owners' writes overlap each other; a rename waits for them, and later writes wait for the rename", async () => {
    const names = new TagNames();
    const log: string[] = [];
    const setA = holder(names, log, "set A", false);
    const setB = holder(names, log, "set B", false);
    const rename = holder(names, log, "rename", true);
    const setC = holder(names, log, "set C", false);
    await settle();
    expect(log).toEqual(["set A starts", "set B starts"]);
    setA.release();
    await settle();
    expect(log).toEqual(["set A starts", "set B starts", "set A ends"]);
    setB.release();
    await settle();
    expect(log.slice(3)).toEqual(["set B ends", "rename starts"]);
    rename.release();
    setC.release();
    await Promise.all([setA.done, setB.done, rename.done, setC.done]);
    expect(log.slice(5)).toEqual(["rename ends", "set C starts", "set C ends"]);
  });

  test("a failed write releases the hold", async () => {
    const names = new TagNames();
    await expect(names.shared(() => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    await expect(names.exclusive(async () => "renamed")).resolves.toBe("renamed");
  });

  test("a planned rename is known until it is settled", () => {
    const names = new TagNames();
    names.announceRename("tag-1", pilot);
    expect(names.plannedRenames()).toEqual([pilot]);
    names.renameSettled("tag-1");
    expect(names.plannedRenames()).toEqual([]);
  });
});
