/**
 * Page-size adaptation against the emulator's real refusal (`--max-per-page`): a server with a maximum of 25
 * or 50 is read at that maximum after one refused request, and the next list of the process starts there.
 * Assertions are on the server's request counts.
 */
import { type RunningEmulator, startEmulator } from "../../emulator";
import { closeDispatchers, DeviceMgmtClient } from "../../provider/client";

const DEVICES = 60;
const emulators: RunningEmulator[] = [];

afterAll(async () => {
  await closeDispatchers();
  await Promise.all(emulators.map((e) => e.close()));
});

describe.each([25, 50])("an emulator with a maximum page size of %i", (maxPerPage) => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true, maxPerPage, seed: { devices: DEVICES } });
    emulators.push(emulator);
  });

  test("one refused request, then pages of the maximum; the next list asks for the maximum at once", async () => {
    const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    await client.tokenInfo(); // learn the organization first, so the counts below are only of the lists
    emulator.resetStats();

    const devices = await client.devices.all();
    expect(devices).toHaveLength(DEVICES);
    expect(new Set(devices.map((d) => d.id)).size).toBe(DEVICES);
    const pages = Math.ceil(DEVICES / maxPerPage);
    let stats = emulator.stats();
    expect(stats.byRoute["GET /devices"]).toBe(1 + pages);
    expect(stats.byStatus["422"]).toBe(1);

    // A fresh client of the same server: no refusal, and still not 10 per page.
    const other = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    emulator.resetStats();
    const seen: string[] = [];
    for await (const device of other.devices.list()) seen.push(device.id);
    expect(seen).toHaveLength(DEVICES);
    stats = emulator.stats();
    expect(stats.byRoute["GET /devices"]).toBe(pages);
    expect(stats.byStatus["422"]).toBeUndefined();
  });
});
