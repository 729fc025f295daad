// The example GitHub Actions workflows (examples/ci): which step sees which secret, and the guarantees the
// README promises (read-only token in pull requests, nothing secret in `npm ci`, one run per stack).
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { spawnSync } from "child_process";
import { parse } from "yaml";
import { EXIT } from "../../provider/drift/cli";

const dir = path.resolve(__dirname, "../../examples/ci");

interface Step {
  name?: string;
  if?: string;
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
const isDriftReport = (s: Step) => /\bdevicemgmt-drift\b/.test(s.run ?? "");
const isPulumi = (s: Step) => s.uses?.startsWith("pulumi/actions") || /\bpulumi\b/.test(s.run ?? "");

it("has the four workflows", () => {
  expect(Object.keys(workflows).sort()).toEqual([
    "deploy-split.yml",
    "deploy.yml",
    "drift.yml",
    "preview.yml",
  ]);
});

describe.each(Object.keys(workflows))("%s", (file) => {
  const workflow = workflows[file];

  it("keeps secrets out of the workflow and job level, and out of every step but Pulumi's and the drift report's", () => {
    expect(secretsIn(workflow.env)).toEqual([]);
    for (const job of Object.values(workflow.jobs)) expect(secretsIn(job.env)).toEqual([]);
    for (const step of steps(workflow)) {
      // The drift report reads the organization with the read-only token, and nothing else secret.
      if (isDriftReport(step)) expect(secretsIn(step)).toEqual(["DEVICEMGMT_READONLY_API_TOKEN"]);
      else if (!isPulumi(step) || step.with?.command === "install") expect(secretsIn(step)).toEqual([]);
    }
  });

  it("gives npm ci no secret and no token at all", () => {
    for (const job of Object.values(workflow.jobs)) {
      const installs = job.steps.filter((s) => /npm (ci|install)/.test(s.run ?? ""));
      expect(installs).toHaveLength(1);
      for (const step of installs) expect(JSON.stringify(step)).not.toMatch(/secrets\.|TOKEN/);
    }
  });

  it("runs Node 22 and sets concurrency", () => {
    for (const job of Object.values(workflow.jobs)) {
      const setup = job.steps.filter((s) => s.uses?.startsWith("actions/setup-node"));
      expect(setup.map((s) => s.with?.["node-version"])).toEqual([22]);
    }
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
    if (!file.startsWith("deploy")) expect(writers).toEqual([]);
  }
  const deploy = workflows["deploy.yml"];
  expect(Object.keys(deploy.on)).toEqual(["push"]);
  expect(deploy.jobs.deploy.environment).toBe("production");
  const writers = steps(deploy).filter((s) => secretsIn(s).includes("DEVICEMGMT_API_TOKEN"));
  expect(writers.map((s) => s.with?.command)).toEqual(["up"]);
  expect(deploy.concurrency?.["cancel-in-progress"]).toBe(false);
  expect(JSON.stringify(deploy)).not.toContain("READONLY");
});

it("the split deploy runs shared first, then the regions in a matrix, then cross-region, each up behind production", () => {
  const split = workflows["deploy-split.yml"];
  expect(Object.keys(split.on)).toEqual(["push"]);
  expect(split.concurrency?.["cancel-in-progress"]).toBe(false);
  const jobs = split.jobs as Record<
    string,
    Job & { needs?: string; strategy?: { matrix: { region: string[] } } }
  >;
  expect(Object.keys(jobs)).toEqual(["shared", "regions", "cross-region"]);
  expect([jobs.shared.needs, jobs.regions.needs, jobs["cross-region"].needs]).toEqual([
    undefined,
    "shared",
    "regions",
  ]);
  expect(jobs.regions.strategy?.matrix.region.length).toBeGreaterThan(1);
  for (const [name, job] of Object.entries(jobs)) {
    expect(job.environment).toBe("production");
    const writers = job.steps.filter((s) => secretsIn(s).includes("DEVICEMGMT_API_TOKEN"));
    expect(writers.map((s) => [s.with?.command, s.with?.["work-dir"]])).toEqual([
      ["up", name === "regions" ? "${{ matrix.region }}" : name],
    ]);
  }
  expect(JSON.stringify(split)).not.toContain("READONLY");
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

describe("the drift report step", () => {
  const drift = workflows["drift.yml"];
  const all = steps(drift);
  const report = all.find(isDriftReport)!;
  const exportStep = all.find((s) => /pulumi stack export/.test(s.run ?? ""))!;

  it("runs after the preview, even when the preview found drift, on the exported state", () => {
    const preview = all.findIndex((s) => /--expect-no-changes/.test(s.run ?? ""));
    expect(all.indexOf(exportStep)).toBeGreaterThan(preview);
    expect(all.indexOf(report)).toBeGreaterThan(all.indexOf(exportStep));
    for (const step of [exportStep, report]) expect(step.if).toBe("${{ !cancelled() }}");
    const file = exportStep.run!.match(/--file "?([^"\s]+)"?/)![1];
    expect(report.run).toContain(file);
    expect(report.run).toMatch(/--markdown "\$GITHUB_STEP_SUMMARY"/);
    expect(secretsIn(exportStep)).toEqual(["PULUMI_ACCESS_TOKEN"]);
    expect(report.env?.DEVICEMGMT_API_TOKEN).toBe("${{ secrets.DEVICEMGMT_READONLY_API_TOKEN }}");
  });

  /** The step's script under bash, with `npx` standing in for the command and exiting with `code`. */
  function runReportStep(code: number, failOnAny: string) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-step-"));
    fs.writeFileSync(path.join(dir, "npx"), `#!/bin/sh\necho "npx $*" >> "${dir}/calls"\nexit ${code}\n`, {
      mode: 0o755,
    });
    const result = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", report.run!], {
      cwd: dir,
      encoding: "utf8",
      env: {
        PATH: `${dir}:${process.env.PATH}`,
        GITHUB_STEP_SUMMARY: path.join(dir, "summary.md"),
        RUNNER_TEMP: dir,
        FAIL_ON_ANY_DRIFT: failOnAny,
      },
    });
    return {
      status: result.status,
      stdout: result.stdout,
      calls: fs.readFileSync(path.join(dir, "calls"), "utf8"),
    };
  }

  it("fails on an unmanaged organization Admin by default, warns on other findings, fails on any when asked", () => {
    const outcomes = [EXIT.clean, EXIT.found, EXIT.unmanagedAdmin, EXIT.failed, EXIT.usage].flatMap((code) =>
      ["false", "true"].map((failOnAny) => {
        const run = runReportStep(code, failOnAny);
        return `${code}/${failOnAny}: ${run.status}${/::(error|warning)/.exec(run.stdout)?.[0] ?? ""}`;
      }),
    );
    expect(outcomes).toEqual([
      "0/false: 0",
      "0/true: 0",
      "3/false: 0::warning",
      "3/true: 1::error",
      "4/false: 1::error",
      "4/true: 1::error",
      "1/false: 1::error",
      "1/true: 1::error",
      "2/false: 1::error",
      "2/true: 1::error",
    ]);
    expect(runReportStep(0, "false").calls).toMatch(/^npx --no-install devicemgmt-drift --markdown /);
  });
});

it("no workflow sets the token as stack config, which would outrank the environment's token", () => {
  for (const workflow of Object.values(workflows)) {
    expect(JSON.stringify(workflow)).not.toMatch(/config set[^"]*apiToken/);
  }
  const readme = fs.readFileSync(path.join(dir, "README.md"), "utf8");
  expect(readme).toMatch(/Stack config outranks the environment/);
  expect(readme).toMatch(/pulumi refresh --run-program/);
});
