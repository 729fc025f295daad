// Refresh of many Device resources reads the devices from list pages, not one request each (request counts,
// not timing), and answers as one GET per device would.
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { deviceKind } from "../../../provider/kinds/device/definition";

const DEVICES = 400;
let emulator: RunningEmulator;

/** Runs `work` over `items` 16 at a time, the next starting as one finishes — the engine's refresh. */
async function engineLike<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]);
      }
    }),
  );
  return results;
}

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    seed: { devices: DEVICES },
    rateLimit: { limit: 100_000, windowMs: 60_000 },
  });
});
afterAll(() => emulator.close());

it(`refresh of ${DEVICES} devices costs under one request per 20 devices, with the same answers`, async () => {
  const connection = { baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin };
  const live = emulator.snapshot().devices;
  emulator.resetStats();
  const reads = await engineLike(live, (device) =>
    deviceKind.handler.read(device.id, { deviceId: device.id, connection }),
  );
  const stats = emulator.stats();
  const deviceReads = (stats.byRoute["GET /devices"] ?? 0) + (stats.byRoute["GET /devices/{deviceId}"] ?? 0);
  expect(deviceReads).toBeGreaterThan(0);
  expect(stats.requests).toBeLessThan(DEVICES / 20);
  reads.forEach((read, i) => {
    expect(read.id).toBe(live[i].id);
    expect(read.props).toMatchObject({
      name: live[i].name,
      serialNumber: live[i].serialNumber,
      groupId: live[i].groupId,
    });
  });
});
