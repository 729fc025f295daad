// The example GitHub Actions workflows (examples/ci): which step sees which secret, and the guarantees the
// README promises (read-only token in pull requests, nothing secret in `npm ci`, one run per stack).
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";

const dir = path.resolve(__dirname, "../../examples/ci");

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  environment?: string;
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const load = (file: string) => parse(fs.readFileSync(path.join(dir, file), "utf8")) as Workflow;
const workflows = Object.fromEntries(
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".yml"))
    .map((f) => [f, load(f)]),
);
const secretsIn = (value: unknown) =>
  [...JSON.stringify(value ?? {}).matchAll(/secrets\.([A-Z_]+)/g)].map((m) => m[1]);
const steps = (w: Workflow) => Object.values(w.jobs).flatMap((job) => job.steps);
const isPulumi = (s: Step) => s.uses?.startsWith("pulumi/actions") || /\bpulumi\b/.test(s.run ?? "");

it("has the three workflows", () => {
  expect(Object.keys(workflows).sort()).toEqual(["deploy.yml", "drift.yml", "preview.yml"]);
});

describe.each(Object.keys(workflows))("%s", (file) => {
  const workflow = workflows[file];

  it("keeps secrets out of the workflow and job level, and out of every step but Pulumi's", () => {
    expect(secretsIn(workflow.env)).toEqual([]);
    for (const job of Object.values(workflow.jobs)) expect(secretsIn(job.env)).toEqual([]);
    for (const step of steps(workflow)) {
      if (!isPulumi(step) || step.with?.command === "install") expect(secretsIn(step)).toEqual([]);
    }
  });

  it("gives npm ci no secret and no token at all", () => {
    const installs = steps(workflow).filter((s) => /npm (ci|install)/.test(s.run ?? ""));
    expect(installs).toHaveLength(1);
    for (const step of installs) expect(JSON.stringify(step)).not.toMatch(/secrets\.|TOKEN/);
  });

  it("runs Node 22 and sets concurrency", () => {
    const setup = steps(workflow).filter((s) => s.uses?.startsWith("actions/setup-node"));
    expect(setup.map((s) => s.with?.["node-version"])).toEqual([22]);
    expect(workflow.concurrency?.group).toBeTruthy();
  });
});

it("pull requests preview with the read-only token only, and never see the write token", () => {
  const preview = workflows["preview.yml"];
  expect(Object.keys(preview.on)).toEqual(["pull_request"]);
  expect(JSON.stringify(preview)).not.toContain("secrets.DEVICEMGMT_API_TOKEN");
  const withToken = steps(preview).filter((s) => secretsIn(s).includes("DEVICEMGMT_READONLY_API_TOKEN"));
  expect(withToken.map((s) => s.with?.command)).toEqual(["preview"]);
  expect(withToken[0].env?.DEVICEMGMT_API_TOKEN).toBe("${{ secrets.DEVICEMGMT_READONLY_API_TOKEN }}");
});

it("the write token is only in the deploy job's up step, behind the production environment", () => {
  for (const [file, workflow] of Object.entries(workflows)) {
    const writers = steps(workflow).filter((s) => secretsIn(s).includes("DEVICEMGMT_API_TOKEN"));
    if (file !== "deploy.yml") expect(writers).toEqual([]);
  }
  const deploy = workflows["deploy.yml"];
  expect(Object.keys(deploy.on)).toEqual(["push"]);
  expect(deploy.jobs.deploy.environment).toBe("production");
  const writers = steps(deploy).filter((s) => secretsIn(s).includes("DEVICEMGMT_API_TOKEN"));
  expect(writers.map((s) => s.with?.command)).toEqual(["up"]);
  expect(deploy.concurrency?.["cancel-in-progress"]).toBe(false);
  expect(JSON.stringify(deploy)).not.toContain("READONLY");
});

it("the drift check is scheduled, read-only, expects no changes and fails loudly with what drifted", () => {
  const drift = workflows["drift.yml"];
  expect(drift.on.schedule).toBeDefined();
  const check = steps(drift).find((s) => /--expect-no-changes/.test(s.run ?? ""))!;
  expect(check.run).toMatch(/pulumi preview .*--refresh/);
  expect(check.run).toContain("GITHUB_STEP_SUMMARY");
  expect(check.run).toMatch(/::error/);
  expect(check.run).toMatch(/exit 1/);
  expect(secretsIn(check)).toEqual(["PULUMI_ACCESS_TOKEN", "DEVICEMGMT_READONLY_API_TOKEN"]);
});

it("no workflow sets the token as stack config, which would outrank the environment's token", () => {
  for (const workflow of Object.values(workflows)) {
    expect(JSON.stringify(workflow)).not.toMatch(/config set[^"]*apiToken/);
  }
  const readme = fs.readFileSync(path.join(dir, "README.md"), "utf8");
  expect(readme).toMatch(/Stack config outranks the environment/);
  expect(readme).toMatch(/pulumi refresh --run-program/);
});
