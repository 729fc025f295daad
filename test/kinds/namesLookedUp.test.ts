// Issue #41 item 1: the names a generated program's lookups find content by are each kind's own
// (`namesLookedUp` in the app, file and video definitions). The staging check counts a program's lookups against
// them: one object of the name passes, none or two are reported as lacking.
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { EMPTY_DEVICE_PLAN } from "../../provider/export/devicePlan";
import { planProgram } from "../../provider/export/naming";
import { matchTarget } from "../../provider/export/staging";
import { model } from "../export/support";

let emulator: RunningEmulator;
let client: DeviceMgmtClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  await client.apps.create({ name: "Trainer" });
  await client.apps.create({ name: "Twin" });
  await client.apps.create({ name: "Twin" });
});
afterAll(() => emulator?.close());

it("a program's lookups by name are counted against each kind's own names", async () => {
  const plan = planProgram(model({ groups: [] }, []));
  const lookups = [
    { type: "app", name: "Trainer", variable: "trainerApp" },
    { type: "app", name: "Twin", variable: "twinApp" },
    { type: "app", name: "Missing", variable: "missingApp" },
    { type: "file", name: "manual.pdf", variable: "manualFile" },
    { type: "video", name: "Welcome", variable: "welcomeVideo" },
  ] as const;
  const match = await matchTarget(
    { ...plan, placement: { ...EMPTY_DEVICE_PLAN, contentLookups: [...lookups] } },
    client,
    { stack: "staging", baseUrl: emulator.baseUrl },
  );
  expect(match.lacks).toEqual([
    'the app "Twin" (2 of that name)',
    'the app "Missing"',
    'the file "manual.pdf"',
    'the video "Welcome"',
  ]);
});
