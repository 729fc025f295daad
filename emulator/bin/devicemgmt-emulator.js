#!/usr/bin/env node
// `npx devicemgmt-emulator`: runs the emulator's command line, compiled by the repository's build (`npm run build`,
// which `npm ci` runs through this workspace's `prepare`) into dist/emulator/. The command only starts when it is the main module.
"use strict";
const path = require("node:path");
const fs = require("node:fs");
const cli = path.resolve(__dirname, "../../dist/emulator/cli.js");
if (!fs.existsSync(cli)) {
  console.error(`devicemgmt-emulator: ${cli} is missing; run \`npm run build\` in the repository first`);
  process.exit(1);
}
process.argv[1] = cli;
require("node:module").runMain(cli);
