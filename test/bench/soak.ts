/**
 * `npm run soak [-- --users 600 --groups 100 --attachments 90 --rounds 4 --seed 1]`: the long fault soak
 * (test/soak/scenario.ts) — create, several edit rounds and destroy under 10% 5xx, 429 bursts and connections
 * dropped after writes — printing how many runs each stage needed and whether it converged exactly.
 */
import { parseArgs } from "node:util";
import { runSoak } from "../soak/scenario";
import { assertFreshBuild } from "./freshBuild";

const { values } = parseArgs({
  options: {
    users: { type: "string", default: "600" },
    groups: { type: "string", default: "100" },
    attachments: { type: "string", default: "90" },
    rounds: { type: "string", default: "4" },
    seed: { type: "string", default: "1" },
    "error-rate": { type: "string", default: "0.1" },
    "drop-after-write-rate": { type: "string", default: "0.1" },
    "max-runs": { type: "string", default: "5" },
  },
});
const number = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number, got "${values[name]}"`);
  return n;
};

async function main(): Promise<void> {
  assertFreshBuild();
  const started = performance.now();
  const report = await runSoak({
    extra: { users: number("users"), groups: number("groups"), attachments: number("attachments") },
    faults: {
      errorRate: number("error-rate"),
      rateLimitBurst: { every: 200, length: 3 },
      dropAfterWriteRate: number("drop-after-write-rate"),
      seed: number("seed"),
    },
    rounds: number("rounds"),
    destroy: true,
    maxRuns: number("max-runs"),
    log: (line) => console.log(line),
  });
  const { faults } = report.emulatorStats;
  console.log(
    `\n${report.objects} resources; ${report.emulatorStats.requests} requests, ${faults.errorsInjected} 5xx, ` +
      `${faults.rateLimitBursts} burst 429s, ${faults.droppedAfterWrite} connections dropped after a write; ` +
      `${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  let ok = report.tokenFound.length === 0;
  for (const stage of report.stages) {
    const exact = stage.differences.length === 0 && stage.duplicates.length === 0;
    const quiet = !stage.followUp || (stage.followUp.steps === 0 && stage.followUp.writes === 0);
    ok &&= stage.converged && exact && quiet;
    console.log(
      `${stage.stage.padEnd(8)} ${stage.converged ? "converged" : "DID NOT CONVERGE"} after ${stage.runs} run(s)` +
        `${exact ? ", exactly as declared" : `, ${stage.differences.length} difference(s), ${stage.duplicates.length} duplicate(s)`}` +
        `${stage.followUp ? `; next up: ${stage.followUp.steps} step(s), ${stage.followUp.writes} write(s)` : ""}`,
    );
    for (const line of [...stage.differences, ...stage.duplicates].slice(0, 10)) console.log(`    ${line}`);
    for (const failure of stage.failures.slice(0, 5)) console.log(`    failed: ${failure}`);
  }
  console.log(
    `token in ${report.tokenFound.length ? report.tokenFound.join(", ") : "no state file or log line"}`,
  );
  if (!ok) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
