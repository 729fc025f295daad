/** Tests run from TypeScript sources; types are checked by `npm run typecheck`, so ts-jest only transpiles. */
const os = require("os");
const path = require("path");

/**
 * How much longer than on an idle machine a test may take (test/timeouts.ts reads it back in the workers). A run of
 * the Pulumi CLI is CPU-bound: on 2 cores at a load of 12, test/policy/policy.test.ts ran 925 s and one of its tests
 * went over 180 s. DEVICEMGMT_TEST_TIMEOUT_SCALE sets it (e.g. 3 on a shared machine); unset, it is the load per core
 * when jest starts, from 1 to 4, so an idle CI machine keeps 180 s and a hung test cannot stretch the run much.
 */
const given = Number(process.env.DEVICEMGMT_TEST_TIMEOUT_SCALE);
const scale = given >= 1 ? given : Math.min(4, Math.max(1, os.loadavg()[0] / os.cpus().length));
process.env.DEVICEMGMT_TEST_TIMEOUT_SCALE = scale.toFixed(2);

/**
 * The test files that start the Pulumi CLI (tools/pulumi-cli, through test/engine or the packed package): the
 * repository workflow's slow job runs them (`jest --selectProjects slow`, .github/workflows/test.yml) on a machine
 * with Go and the cached CLI; every other test file is the fast job's. `jest` alone (`npm test`, `.ci/run`) runs
 * both projects. test/ci/jobs.test.ts checks this list against what each file imports.
 */
const SLOW = [
  "test/programs/*.test.ts",
  "test/kinds/*/*.program.test.ts",
  "test/demo/demo.test.ts",
  "test/policy/{policy,pluginPolicy}.test.ts",
  "test/soak/soak.test.ts",
  "test/engine/fence.test.ts",
  "test/package/pack.test.ts",
  "test/drift/{claimed,content,drift,names}.emulator.test.ts",
  "test/drift/state.test.ts",
  "test/export/{contentStaging,devices,experiences,roundtrip,splitRoundtrip,staging}.test.ts",
  "test/kinds/**/*.program.test.ts",
  "test/framework/*.program.test.ts",
  "test/plugin/{sdk,sdkNames,yaml,bothWays,import,move}.test.ts",
];

const project = {
  rootDir: __dirname,
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  // Timeouts a test or hook gives itself scale too, and a test that timed out cannot run its remaining CLI
  // operations into the next test (test/setup.ts).
  setupFilesAfterEnv: ["<rootDir>/test/setup.ts"],
};

module.exports = {
  projects: [
    {
      ...project,
      displayName: "fast",
      testMatch: ["**/*.test.ts", ...SLOW.map((glob) => `!${path.join(__dirname, glob)}`)],
    },
    { ...project, displayName: "slow", testMatch: SLOW.map((glob) => `<rootDir>/${glob}`) },
  ],
  testTimeout: Math.round(180000 * scale),
  maxWorkers: 2,
  // Every test file loads its own copy of the SDK and the provider, and process-wide hooks (jest --detectLeaks)
  // keep copies alive, so a worker's heap grows to ~700 MB. Tearing that
  // down took longer than the 500 ms jest allows a worker to exit, and jest then reported a "failed to exit
  // gracefully" leak that was not one (no handle was open). A worker past this limit is replaced between files.
  workerIdleMemoryLimit: "400MB",
};
