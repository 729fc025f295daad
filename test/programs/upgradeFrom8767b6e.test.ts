// A stack that the package at 8767b6e really wrote (test/fixtures/checkpoint-8767b6e: the last commit whose
// resources serialized their provider with the SDK's closure serializer, 2.3 KB of `__provider` per resource)
// continues under today's package and the Pulumi CLI (checkpointReplay.ts). Its resources already have their
// per-kind types; only the `__provider` text changed, and that change must show as no diff and no replacement.
import * as path from "path";
import { describeReplay } from "../harness/checkpointReplay";

const WRITTEN_BASE_URL = "http://127.0.0.1:35485/api/v3";

describeReplay({
  dir: path.join(__dirname, "../fixtures/checkpoint-8767b6e"),
  stack: "main",
  release: "8767b6e",
  writtenTypes: "per-kind",
  // Exported by the CLI with the test engine's passphrase, which this engine uses too, so its secrets import as
  // they are. Its default provider recorded the stack's config, the base URL of an emulator long gone: that is
  // the restored emulator's now, as a stack whose API moved would set it (a refresh or destroy, which run no
  // program, configure the provider from what the state recorded).
  importable: async (_engine, checkpointText, emulator) =>
    JSON.parse(checkpointText.replaceAll(WRITTEN_BASE_URL, emulator.baseUrl)),
});
