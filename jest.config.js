/** Tests run from TypeScript sources; types are checked by `npm run typecheck`, so ts-jest only transpiles. */
const path = require("path");

/**
 * The test files that start the Pulumi CLI (tools/pulumi-cli, through test/engine or the packed package): the
 * repository workflow's slow job runs them (`jest --selectProjects slow`, .github/workflows/test.yml) on a machine
 * with Go and the cached CLI; every other test file is the fast job's. `jest` alone (`npm test`, `.ci/run`) runs
 * both projects. test/ci/jobs.test.ts checks this list against what each file imports.
 */
const SLOW = [
  "test/programs/*.test.ts",
  "test/demo/demo.test.ts",
  "test/policy/policy.test.ts",
  "test/soak/soak.test.ts",
  "test/package/pack.test.ts",
  "test/drift/{claimed,content,drift,names}.emulator.test.ts",
  "test/drift/state.test.ts",
  "test/export/{content-staging,devices,experiences,roundtrip,split-roundtrip,staging}.test.ts",
  "test/resources/{connection.insecure,user.invitations}.test.ts",
];

const project = {
  rootDir: __dirname,
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
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
  testTimeout: 180000,
  maxWorkers: 2,
  // Every test file loads its own copy of the SDK and the provider, and process-wide hooks (jest --detectLeaks)
  // keep copies alive, so a worker's heap grows to ~700 MB. Tearing that
  // down took longer than the 500 ms jest allows a worker to exit, and jest then reported a "failed to exit
  // gracefully" leak that was not one (no handle was open). A worker past this limit is replaced between files.
  workerIdleMemoryLimit: "400MB",
};
