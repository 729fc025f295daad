// The repository workflow (.github/workflows/test.yml) splits `npm test` into a fast job and a slow one by the
// two jest projects of jest.config.js: together they must run exactly what `npm test` (and so `.ci/run`) runs,
// each test file once, and every file that starts the Pulumi CLI in the slow job, the only one with the CLI.
import * as fs from "fs";
import * as path from "path";
import { spawnSync } from "child_process";
import * as ts from "typescript";
import { parse } from "yaml";

const root = path.resolve(__dirname, "../..");
const workflowFile = path.join(root, ".github/workflows/test.yml");

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  jobs: Record<string, { steps: Step[] }>;
}
const workflow = parse(fs.readFileSync(workflowFile, "utf8")) as Workflow;

/** The test files jest runs, repository-relative: all projects, or the one `--selectProjects` names. */
function jestFiles(project?: string): string[] {
  const args = ["--listTests", "--json", ...(project ? ["--selectProjects", project] : [])];
  const result = spawnSync(process.execPath, [require.resolve("jest/bin/jest"), ...args], {
    cwd: root,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`jest ${args.join(" ")} failed:\n${result.stderr}`);
  const list = result.stdout.split("\n").find((line) => line.startsWith("["));
  return (JSON.parse(list!) as string[]).map((file) => path.relative(root, file)).sort();
}

/** The jest project each job's test step selects: `npx jest --selectProjects <name>`, one per job. */
const projectOf = (steps: Step[]) =>
  steps.flatMap((s) => [...(s.run ?? "").matchAll(/\bjest --selectProjects (\S+)$/gm)].map((m) => m[1]));

/** The functions that start the real Pulumi CLI: the CLI `npm run pulumi-cli` made ready, and test/engine's. */
const CLI_STARTERS = new Set(["readyPulumiCli", "createEngine"]);

/**
 * What `file` does when loaded, as far as the CLI goes: the repository-local modules it loads at run time
 * (type-only imports are erased, so they don't count), and whether it calls a CLI starter itself.
 */
function scan(file: string): { imports: string[]; callsCli: boolean } {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  let callsCli = false;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const onlyTypes =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          bindings &&
          ts.isNamedImports(bindings) &&
          bindings.elements.length > 0 &&
          bindings.elements.every((e) => e.isTypeOnly));
      if (!onlyTypes) specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === "require")) &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      callsCli ||= CLI_STARTERS.has(node.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const imports = specifiers
    .filter((s) => s.startsWith("."))
    .map((s) => path.resolve(path.dirname(file), s))
    .map((base) =>
      [base, `${base}.ts`, path.join(base, "index.ts")].find((f) =>
        fs.statSync(f, { throwIfNoEntry: false })?.isFile(),
      ),
    )
    .filter((f): f is string => f !== undefined);
  return { imports, callsCli };
}

/** Whether loading a test file starts the real Pulumi CLI: it, or any module it loads, calls a CLI starter. */
const startsCli = (() => {
  const scans = new Map<string, ReturnType<typeof scan>>();
  const scanned = (file: string) => scans.get(file) ?? scans.set(file, scan(file)).get(file)!;
  return (relative: string) => {
    const seen = new Set([path.join(root, relative)]);
    for (const file of seen) {
      const { imports, callsCli } = scanned(file);
      if (callsCli) return true;
      for (const next of imports) seen.add(next);
    }
    return false;
  };
})();

const all = jestFiles();
const jobs = Object.entries(workflow.jobs).map(([name, job]) => {
  const projects = projectOf(job.steps);
  return { name, job, projects, files: projects.flatMap((p) => jestFiles(p)) };
});
const job = (name: string) => jobs.find((j) => j.name === name)!;

it("the workflow's two jobs each run one jest project", () => {
  expect(jobs.map((j) => [j.name, j.projects])).toEqual([
    ["fast", ["fast"]],
    ["slow", ["slow"]],
  ]);
});

it("every test file of the repository runs in exactly one job, and together they are what `npm test` runs", () => {
  const onDisk = fs
    .readdirSync(path.join(root, "test"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.join("test", f))
    .sort();
  expect(all).toEqual(onDisk);
  const counted = jobs.flatMap((j) => j.files);
  expect(counted.filter((f, i) => counted.indexOf(f) !== i)).toEqual([]);
  expect([...counted].sort()).toEqual(all);
  // `npm test` (the README's command, which .ci/run runs) ends in `jest` with no selection: both projects.
  const test = (
    JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    }
  ).scripts.test;
  expect(test.split(" && ").at(-1)).toBe("jest");
  expect(fs.readFileSync(path.join(root, ".ci/run"), "utf8")).toMatch(/&& npm test\n/);
});

it("the jobs run npm test's other steps: build and lint in the fast job, build and the pinned CLI in the slow one", () => {
  const runs = (name: string) => job(name).job.steps.flatMap((s) => (s.run ? [s.run] : []));
  const before = (name: string) =>
    runs(name).slice(
      0,
      runs(name).findIndex((r) => /\bjest\b/.test(r)),
    );
  expect(before("fast")).toEqual(["npm ci --no-audit --no-fund", "npm run build", "npm run lint"]);
  expect(before("slow")).toEqual([
    "npm ci --no-audit --no-fund",
    "npm run build",
    "npm run pulumi-cli",
    "npm run pulumi-language-yaml",
  ]);
  // Together, every step of `npm test` before jest.
  const test = (
    JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    }
  ).scripts.test;
  const steps = test.split(" && ").slice(0, -1);
  expect(steps.filter((s) => !before("fast").includes(s) && !before("slow").includes(s))).toEqual([]);
});

it("the slow job has Node 22, Go from tools/pulumi-cli/go.mod, and caches the built CLI", () => {
  for (const { job: j } of jobs) {
    expect(
      j.steps.filter((s) => s.uses?.startsWith("actions/setup-node")).map((s) => s.with?.["node-version"]),
    ).toEqual([22]);
  }
  const slow = job("slow").job.steps;
  expect(slow.find((s) => s.uses?.startsWith("actions/setup-go"))?.with?.["go-version-file"]).toBe(
    "tools/pulumi-cli/go.mod",
  );
  expect(slow.find((s) => s.uses?.startsWith("actions/cache"))?.with?.path).toBe(
    "~/.cache/pulumi-devicemgmt",
  );
});

it("a test file that starts the Pulumi CLI is in the slow job, and the slow job runs no other", () => {
  const cli = all.filter(startsCli);
  // The analysis sees through helpers: test/harness/programStack.ts and test/export/support.ts start it indirectly.
  expect(cli).toEqual(
    expect.arrayContaining([
      "test/programs/org.test.ts",
      "test/demo/demo.test.ts",
      "test/package/pack.test.ts",
    ]),
  );
  expect(job("fast").files.filter(startsCli)).toEqual([]);
  expect(job("slow").files.filter((f) => !startsCli(f))).toEqual([]);
});
