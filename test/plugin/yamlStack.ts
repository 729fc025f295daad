// A Pulumi YAML project on the real CLI with the provider plugin, as a user runs one: its own folder, the CLI of
// tools/pulumi-cli, the YAML language host of tools/pulumi-language-yaml, the plugin installed into PULUMI_HOME
// from its tarball (tools/plugin), a file backend, and one stack configured for one organization. Each run's
// engine events (`--event-log`) are folded as the Automation API harness folds them (test/engine/events.ts), so
// a test compares a YAML run with a run of the dynamic resources in the same terms.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { offlineEnvironment, readyPulumiCli } from "../../tools/pulumi-cli";
import { readyYamlHost } from "../../tools/pulumi-language-yaml";
import { installPlugin, packPlugin } from "../../tools/plugin";
import { foldEvents, type FoldedRun } from "../engine/events";

/** The commands that run the engine, and so take `--event-log`. */
const ENGINE_COMMANDS = new Set(["preview", "up", "refresh", "destroy"]);

export interface YamlRun extends FoldedRun {
  code: number | null;
  /** What the CLI printed, stdout then stderr. */
  output: string;
}

export interface YamlStack {
  /** The project folder: Pulumi.yaml is written here. */
  project: string;
  /** Replaces the project's Pulumi.yaml (the program). */
  writeProgram(yamlText: string): void;
  /** `pulumi <args> --non-interactive --event-log …`, its events folded; never rejects on a failed run. */
  run(...args: string[]): Promise<YamlRun>;
  /** `run`, throwing with the CLI's output when the command failed. */
  ok(...args: string[]): Promise<YamlRun>;
}

/**
 * A YAML stack "dev" of project `name` in `dir` (which the caller removes), on the organization `baseUrl` with
 * `apiToken` as the stack's secret config.
 */
export async function yamlStack(
  dir: string,
  name: string,
  organization: { baseUrl: string; apiToken: string },
): Promise<YamlStack> {
  const pulumi = readyPulumiCli().binary;
  // PULUMI_DEBUG_COMMANDS: `--event-log` is one of these.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...offlineEnvironment(dir, `${name}-passphrase`),
    PULUMI_DEBUG_COMMANDS: "true",
  };
  delete env.DEVICEMGMT_API_TOKEN; // the stack's config is the only token
  delete env.DEVICEMGMT_BASE_URL;
  readyYamlHost(); // beside the CLI, where the CLI looks for its bundled language hosts
  installPlugin(pulumi, packPlugin(path.join(dir, "plugin")), env);
  const project = path.join(dir, "project");
  fs.mkdirSync(project, { recursive: true });
  let runs = 0;

  const run = (...args: string[]): Promise<YamlRun> => {
    const events = path.join(dir, `events-${++runs}.json`);
    return new Promise((resolve, reject) => {
      const logging = ENGINE_COMMANDS.has(args[0]) ? ["--event-log", events] : [];
      const child = spawn(pulumi, [...args, "--non-interactive", ...logging], { cwd: project, env });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("error", reject);
      child.on("close", (code) => {
        const logged = fs.existsSync(events)
          ? fs.readFileSync(events, "utf8").split("\n").filter(Boolean)
          : [];
        const folded = foldEvents(
          logged.map((line) => JSON.parse(line) as EngineEvent),
          args[0] === "refresh" ? "refresh" : "none",
        );
        resolve({ ...folded, code, output });
      });
    });
  };
  const ok = async (...args: string[]) => {
    const result = await run(...args);
    if (result.code !== 0)
      throw new Error(`pulumi ${args.join(" ")} exited ${result.code}:\n${result.output}`);
    return result;
  };

  const stack: YamlStack = {
    project,
    writeProgram: (yamlText) => fs.writeFileSync(path.join(project, "Pulumi.yaml"), yamlText),
    run,
    ok,
  };
  stack.writeProgram(`name: ${name}\nruntime: yaml\n`);
  await ok("stack", "init", "dev");
  await ok("config", "set", "devicemgmt:baseUrl", organization.baseUrl);
  await ok("config", "set", "--secret", "devicemgmt:apiToken", organization.apiToken);
  return stack;
}
