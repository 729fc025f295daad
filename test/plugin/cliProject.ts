/**
 * Pulumi project folders run by the real CLI with the provider plugin, as a user runs them: the CLI
 * (tools/pulumi-cli), the YAML language host beside it (tools/pulumi-language-yaml) and the plugin installed into
 * a PULUMI_HOME of its own from its tarball (tools/plugin), with a file backend. Each command runs asynchronously,
 * so that an emulator of the test's own process answers meanwhile.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { offlineEnvironment, readyPulumiCli } from "../../tools/pulumi-cli";
import { readyYamlHost } from "../../tools/pulumi-language-yaml";
import { installPlugin, packPlugin } from "../../tools/plugin";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI with the plugin installed: one backend and one PULUMI_HOME under `dir` for every folder. */
export interface PluginCli {
  binary: string;
  env: NodeJS.ProcessEnv;
  /** Everything every command printed so far: no token may be in it. */
  printed: string[];
}

export function pluginCli(dir: string, passphrase: string): PluginCli {
  const binary = readyPulumiCli().binary;
  const env: NodeJS.ProcessEnv = { ...process.env, ...offlineEnvironment(dir, passphrase) };
  // The stack's configuration is the only connection.
  delete env.DEVICEMGMT_API_TOKEN;
  delete env.DEVICEMGMT_BASE_URL;
  readyYamlHost();
  installPlugin(binary, packPlugin(path.join(dir, "plugin")), env);
  return { binary, env, printed: [] };
}

/** A project folder: `pulumi <args> --non-interactive` run in it. */
export class CliFolder {
  constructor(
    readonly cli: PluginCli,
    readonly folder: string,
  ) {
    fs.mkdirSync(folder, { recursive: true });
  }

  run(...args: string[]): Promise<CliRun> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.cli.binary, [...args, "--non-interactive"], {
        cwd: this.folder,
        env: this.cli.env,
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("error", reject);
      child.on("close", (code) => {
        this.cli.printed.push(stdout, stderr);
        resolve({ code, stdout, stderr });
      });
    });
  }

  async ok(...args: string[]): Promise<CliRun> {
    const run = await this.run(...args);
    if (run.code !== 0)
      throw new Error(`pulumi ${args.join(" ")} exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
    return run;
  }

  /** Writes the project file. */
  writeProject(text: string): void {
    fs.writeFileSync(path.join(this.folder, "Pulumi.yaml"), text);
  }

  /** A new stack of this folder connected to one organization (the token as a secret). */
  async initStack(stack: string, baseUrl: string, apiToken: string): Promise<void> {
    await this.ok("stack", "init", stack);
    await this.ok("config", "set", "devicemgmt:baseUrl", baseUrl);
    await this.ok("config", "set", "--secret", "devicemgmt:apiToken", apiToken);
  }

  /** The stack's resources as `pulumi stack export` shows them (secrets encrypted). */
  async resources(): Promise<StateResource[]> {
    const exported = JSON.parse((await this.ok("stack", "export")).stdout) as {
      deployment: { resources?: StateResource[] };
    };
    return exported.deployment.resources ?? [];
  }
}

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The steps of `pulumi preview --json`, as "<op> <name>" for the resources of the package. */
export function previewSteps(stdout: string): string[] {
  const { steps } = JSON.parse(stdout) as { steps: { op: string; urn: string }[] };
  return steps
    .filter((step) => step.urn.includes("::devicemgmt:"))
    .map((step) => `${step.op} ${step.urn.split("::").pop()}`)
    .sort();
}
