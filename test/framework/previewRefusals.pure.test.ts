// Issue 40 item 5, the rules that need no request: tag names without control characters, no two names of one
// list that differ only in case. Through each kind's declared schema (checkKind), as check applies it; the plugin
// and emulator tests are in previewRefusals.provider.test.ts.
import { checkKind } from "../../provider/framework";
import { deviceKind } from "../../provider/kinds/device/definition";
import { tagKind } from "../../provider/kinds/tag/definition";
import { tagSetKind } from "../../provider/kinds/tagSet/definition";
import { controlCharacterIn, sameNamesIn } from "../../provider/kinds/tag/properties";

const OWNER = "0c4f3b1e-9d7a-4e2b-8f6c-1a2b3c4d5e6f";
const reasons = (result: { failures: { property: string; reason: string }[] }) =>
  Object.fromEntries(result.failures.map((f) => [f.property, f.reason]));

describe("control characters", () => {
  it("are found with their code point and position; printable text, emoji and accents pass", () => {
    expect(controlCharacterIn("safety")).toBeUndefined();
    expect(controlCharacterIn("Sicherheit – Übung 🎧")).toBeUndefined();
    expect(controlCharacterIn("a\u0000")).toBe("U+0000 at position 2");
    expect(controlCharacterIn("line\r\nbreak")).toBe("U+000D at position 5");
    expect(controlCharacterIn("esc\u001b[31m")).toBe("U+001B at position 4");
    expect(controlCharacterIn("del\u007f")).toBe("U+007F at position 4");
    expect(controlCharacterIn("c1\u0085")).toBe("U+0085 at position 3");
  });

  it("are refused in a Tag's name, a TagSet's and a Device's tags; surrounding white space is trimmed", () => {
    expect(reasons(checkKind(tagKind, { name: "on\u0000site" }))).toEqual({
      name: "name: name must not contain control characters (NUL, tab, line breaks, …): found U+0000 at position 3. Remove it",
    });
    expect(checkKind(tagKind, { name: "  onsite\n" })).toMatchObject({
      failures: [],
      inputs: { name: "onsite" },
    });
    expect(
      reasons(checkKind(tagSetKind, { ownerType: "app", ownerId: OWNER, tags: ["ok", "a\tb"] })),
    ).toEqual({
      tags: "tags[1]: tags[] must not contain control characters (NUL, tab, line breaks, …): found U+0009 at position 2. Remove it",
    });
    expect(reasons(checkKind(deviceKind, { deviceId: OWNER, tags: ["x\u0007"] })).tags).toMatch(
      /^tags\[0\]: .*found U\+0007 at position 2/,
    );
  });
});

describe("names of one list that differ only in case", () => {
  it("are named in pairs, each once, with their positions", () => {
    expect(sameNamesIn(["VR", "safety", "vr", "Vr", "SAFETY"], "tags")).toEqual([
      'tags[2] ("vr") and tags[0] ("VR")',
      'tags[3] ("Vr") and tags[0] ("VR")',
      'tags[4] ("SAFETY") and tags[1] ("safety")',
    ]);
    expect(sameNamesIn(["a", "b"], "tags")).toEqual([]);
  });

  it("are refused in a TagSet's and a Device's tags, as is a name given twice", () => {
    expect(
      reasons(checkKind(tagSetKind, { ownerType: "group", ownerId: OWNER, tags: ["Lobby", "lobby"] })),
    ).toEqual({
      tags:
        'tags: tags[1] ("lobby") and tags[0] ("Lobby") name one tag: tag names are compared without case. ' +
        "Keep one spelling of each name",
    });
    expect(reasons(checkKind(deviceKind, { deviceId: OWNER, tags: ["lobby", "lobby"] })).tags).toMatch(
      /tags\[1\] \("lobby"\) and tags\[0\] \("lobby"\) name one tag/,
    );
    expect(checkKind(deviceKind, { deviceId: OWNER, tags: ["Lobby", "Safety"] }).failures).toEqual([]);
  });
});
