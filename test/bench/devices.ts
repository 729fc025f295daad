/**
 * `npx ts-node --transpile-only test/bench/devices.ts [--devices 1000] [--latency-ms 40]`
 *
 * The issue-20 preset: an organization with N enrolled headsets (emulator seed), a program that declares a
 * `Device` for every one of them (name and tags as they are, so nothing changes), run through the real
 * Pulumi CLI (test/engine) and the real plugin against the emulator in its own process (2000 requests per
 * minute, added latency). Prints per phase (adopting up, up again, refresh) the requests sent, requests per
 * resource, 429s and wall time (the Engine's call: the `pulumi` command and the Automation API's commands around
 * it). A refresh reads devices in pages (`GET /devices`), not one request each.
 */
import * as os from "node:os";
import { parseArgs } from "node:util";
import * as dm from "../../provider";
import { closeDispatchers, DeviceMgmtClient } from "../../provider/client";
import { createEngine, type RunResult } from "../engine";
import { startEmulatorProcess } from "./emulatorProcess";
import { findRepoRoot } from "./repoRoot";

const repoRoot = findRepoRoot(__dirname);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: "string", default: "1000" },
      "latency-ms": { type: "string", default: "40" },
    },
  });
  const count = Number(values.devices);
  const latencyMs = Number(values["latency-ms"]);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`--devices must be a whole number, got "${values.devices}"`);
  if (!Number.isInteger(latencyMs) || latencyMs < 0)
    throw new Error(`--latency-ms must be a whole number, got "${values["latency-ms"]}"`);

  const limit = 2000;
  const emulator = await startEmulatorProcess({
    rateLimit: { limit, windowMs: 60_000 },
    latencyMs,
    seed: { devices: count },
  });
  const loadAtStart = os.loadavg()[0];
  try {
    // The bench's own read of what to declare (not counted: the phases' numbers are differences).
    const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    const devices = await client.devices.all();
    console.log(
      `bench devices: ${devices.length} Device resources; ${limit} requests / 60 s, ${latencyMs} ms latency; ` +
        `${os.cpus().length} CPUs, load ${loadAtStart.toFixed(1)}, Node ${process.version}`,
    );
    const program = () => {
      for (const d of devices) {
        new dm.Device(`device-${d.serialNumber.toLowerCase()}`, {
          serialNumber: d.serialNumber,
          name: d.name,
          tags: d.tags,
        });
      }
    };
    const engine = await createEngine({
      cwd: repoRoot,
      project: "devicemgmt-bench-devices",
      config: { "devicemgmt:baseUrl": emulator.baseUrl },
      secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
    });
    try {
      const rows: string[] = [];
      const phase = async (name: string, run: () => Promise<RunResult>) => {
        const before = await emulator.stats();
        const started = Date.now();
        const result = await run();
        const seconds = (Date.now() - started) / 1000;
        const after = await emulator.stats();
        if (result.errors.length) throw new Error(`${name}: ${JSON.stringify(result.errors.slice(0, 3))}`);
        const requests = after.requests - before.requests;
        const limited = after.rateLimited - before.rateLimited;
        const changed =
          result.steps.create.length +
          result.steps.update.length +
          result.steps.replace.length +
          result.steps.delete.length;
        rows.push(
          `${name.padEnd(9)} ${String(requests).padStart(8)} ${(requests / devices.length).toFixed(4).padStart(12)} ` +
            `${String(limited).padStart(5)} ${seconds.toFixed(1).padStart(7)} s  ${changed} steps with a change`,
        );
        return { requests, limited };
      };
      await phase("up", () => engine.up(program));
      await phase("up again", () => engine.up(program));
      const refresh = await phase("refresh", () => engine.refresh());
      console.log("phase     requests  per resource   429     wall");
      for (const row of rows) console.log(row);
      const perResource = refresh.requests / devices.length;
      console.log(
        `refresh: ${refresh.requests} requests for ${devices.length} devices = ${perResource.toFixed(4)} per ` +
          `resource; ${refresh.limited} 429s`,
      );
    } finally {
      await engine.close();
    }
  } finally {
    await emulator.close();
    await closeDispatchers();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
