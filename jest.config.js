/** Tests run from TypeScript sources; types are checked by `npm run typecheck`, so ts-jest only transpiles. */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  testTimeout: 60000,
  maxWorkers: 2,
};
