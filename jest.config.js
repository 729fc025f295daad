/** Tests run from TypeScript sources; types are checked by `npm run typecheck`, so ts-jest only transpiles. */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  testTimeout: 180000,
  maxWorkers: 2,
  // Every test file loads its own copy of the SDK and the provider, and process-wide hooks (jest --detectLeaks)
  // keep copies alive, so a worker's heap grows to ~700 MB. Tearing that
  // down took longer than the 500 ms jest allows a worker to exit, and jest then reported a "failed to exit
  // gracefully" leak that was not one (no handle was open). A worker past this limit is replaced between files.
  workerIdleMemoryLimit: "400MB",
};
