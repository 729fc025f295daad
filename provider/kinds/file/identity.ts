/**
 * Who the File kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity, knownText } from "../../framework";
import { fileProperties } from "./properties";

export const fileIdentity = defineIdentity({
  kind: "file",
  type: "File",
  // A file name in a device folder: replacements delete the old file first (handler.ts says why).
  naturalKey: true,
  properties: fileProperties,
  // A file name in a device folder (names and folders compare exactly, as the API's conflict rule does).
  claim: {
    property: "filename",
    keys: (p) =>
      knownText(p.filename) === undefined || knownText(p.path) === undefined
        ? undefined
        : [`${knownText(p.path)}/${knownText(p.filename)}`],
    describe: (p) => `the file "${String(p.filename)}" in ${String(p.path)}`,
  },
});
