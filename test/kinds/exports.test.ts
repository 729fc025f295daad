// Every kind of the kind table is a class the package exports under the kind's type name. The type-level check
// makes a kind added to the table without its export in provider/index.ts a compile error (npm run lint's
// typecheck); the test says the same at run time.
import * as dm from "../../provider";
import { KINDS, type KindType } from "../../provider/kinds";

type NotExported = Exclude<KindType, keyof typeof dm>;
const everyKindExported: [NotExported] extends [never] ? true : { notExported: NotExported } = true;

describe("the package's exports", () => {
  it("hold a resource class for every kind of the kind table", () => {
    expect(everyKindExported).toBe(true);
    for (const definition of Object.values(KINDS)) {
      const exported = (dm as Record<string, unknown>)[definition.type];
      expect([definition.type, typeof exported]).toEqual([definition.type, "function"]);
    }
  });
});
