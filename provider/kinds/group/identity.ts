/**
 * Who the Group kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity, knownText } from "../../framework";
import { groupProperties } from "./properties";

export const groupIdentity = defineIdentity({
  kind: "group",
  type: "Group",
  naturalKey: false,
  properties: groupProperties,
  // Named only for the repair after a killed run: create.ts has its own rule, with same-named groups the program
  // may declare on purpose (`sameNameOrdinal`).
  claim: {
    property: "name",
    keys: (p) => {
      const parent = p.parentId === undefined || p.parentId === null ? "root" : knownText(p.parentId);
      const ordinal = typeof p.sameNameOrdinal === "number" ? String(p.sameNameOrdinal) : "";
      return knownText(p.name) === undefined || parent === undefined
        ? undefined
        : [`${parent}/${p.name}/${ordinal}`];
    },
    describe: (p) => `the group "${String(p.name)}"`,
    refuses: false,
  },
});
