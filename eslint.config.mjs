import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "**/node_modules/**",
      "coverage/**",
      "results/**",
      "**/*.js",
      "**/*.mjs",
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  {
    // Type-aware rules: what only types can tell, chiefly a promise nobody awaits (no-floating-promises) or one
    // handed where a void callback is expected (no-misused-promises), such as an async handler whose rejection
    // nothing would see. The project service gives each file the program of its nearest tsconfig.json.
    files: ["provider/**/*.ts", "emulator/**/*.ts", "test/**/*.ts", "tools/**/*.ts", "examples/**/*.ts"],
    extends: [...tseslint.configs.recommendedTypeCheckedOnly],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Not (yet) enforced. The no-unsafe-* family flags every use of an `any`, which tests get from JSON bodies
      // and snapshots at every turn (2,932 findings, 2,892 in test/). require-await (59) and unbound-method (37,
      // mostly jest's expect(obj.method)) are style, not bugs. The last three (29, 15 and 6 findings, 21 in
      // provider/) are worth fixing once the provider's kinds and framework stop moving (issue 41, item 1).
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/unbound-method": "off",
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
      "@typescript-eslint/no-base-to-string": "off",
      "@typescript-eslint/restrict-template-expressions": "off",
    },
  },
);
