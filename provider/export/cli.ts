#!/usr/bin/env node
/**
 * devicemgmt-export: reads an organization and writes a Pulumi program that declares it, with a stack config
 * file holding the ids to adopt (see the README's "Exporting an organization").
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { closeDispatchers, DeviceMgmtClient, resolveEndpoints } from "../client";
import { EXPORT_KINDS, type ExportKind } from "./model";
import { planProgram, slugify } from "./naming";
import { readOrganization } from "./read";
import { renderFiles, type RenderOptions } from "./render";

const USAGE = `Usage: devicemgmt-export [options]

Reads an organization through the v3 API and writes a Pulumi program that declares it: the group tree, users
with their roles, and release channels on groups and devices. Adoption ids go to the stack config file, so the
same program manages the organization as it is (with that file) or builds a copy elsewhere (without it).

Options:
  --out DIR          folder to write (default: ./<project>)
  --only KINDS       what to export, comma-separated: ${EXPORT_KINDS.join(",")} (default: all)
  --skip-users       leave users out (for a staging organization with other people)
  --project NAME     Pulumi project name (default: <organization slug>-org)
  --stack NAME       the stack that adopts the organization; its config file is Pulumi.<NAME>.yaml
                     (default: production)
  --base-url URL     API base URL ending in /api/v3 (default: $DEVICEMGMT_BASE_URL)
  -h, --help         show this help

The API token comes from the environment variable DEVICEMGMT_API_TOKEN, never from the command line.
Progress goes to stderr; a one-line summary to stdout.
`;

/** Pulumi's own rule for project and stack names, minus the `org/project/` prefixes of a stack reference. */
const PULUMI_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

class UsageError extends Error {}

interface CliOptions {
  out?: string;
  kinds: ExportKind[];
  project?: string;
  stack: string;
  baseUrl: string;
  apiToken: string;
}

function parseOptions(argv: string[], env: NodeJS.ProcessEnv): CliOptions | "help" {
  if (argv.some((arg) => /^--?(api[-_]?)?token(=|$)/i.test(arg))) {
    throw new UsageError(
      "A token on the command line would end up in shell history and process lists. " +
        "Set the environment variable DEVICEMGMT_API_TOKEN instead.",
    );
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        out: { type: "string" },
        only: { type: "string" },
        "skip-users": { type: "boolean" },
        project: { type: "string" },
        stack: { type: "string" },
        "base-url": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return "help";

  let kinds = [...EXPORT_KINDS];
  if (values.only !== undefined) {
    const requested = values.only
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean);
    const unknown = requested.filter((k) => !(EXPORT_KINDS as readonly string[]).includes(k));
    if (unknown.length || !requested.length) {
      throw new UsageError(`--only takes ${EXPORT_KINDS.join(", ")}; got "${values.only}".`);
    }
    kinds = EXPORT_KINDS.filter((k) => requested.includes(k));
  }
  if (values["skip-users"]) kinds = kinds.filter((k) => k !== "users");
  if (!kinds.length) throw new UsageError("Nothing to export: --skip-users left no kind from --only.");

  for (const [flag, value] of [
    ["--project", values.project],
    ["--stack", values.stack],
  ] as const) {
    if (value !== undefined && !PULUMI_NAME.test(value)) {
      throw new UsageError(
        `${flag} "${value}": use letters, digits, "-", "_" and "." (starting with a letter or digit).`,
      );
    }
  }

  const baseUrl = (values["base-url"] ?? env.DEVICEMGMT_BASE_URL ?? "").trim();
  if (!baseUrl) throw new UsageError("No API base URL: pass --base-url or set DEVICEMGMT_BASE_URL.");
  const apiToken = (env.DEVICEMGMT_API_TOKEN ?? "").trim();
  if (!apiToken) {
    throw new UsageError(
      "No API token: set the environment variable DEVICEMGMT_API_TOKEN to a v3 token of the organization.",
    );
  }
  return {
    ...(values.out !== undefined ? { out: values.out } : {}),
    ...(values.project !== undefined ? { project: values.project } : {}),
    kinds,
    stack: values.stack ?? "production",
    baseUrl: resolveEndpoints(baseUrl).baseUrl,
    apiToken,
  };
}

/** Runs the command; resolves to the exit code (0 done, 1 failed, 2 bad usage). Never prints the token. */
export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = processIo,
): Promise<number> {
  let options: CliOptions | "help";
  try {
    options = parseOptions(argv, env);
  } catch (error) {
    io.stderr(`devicemgmt-export: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options === "help") {
    io.stdout(USAGE);
    return 0;
  }
  try {
    const client = new DeviceMgmtClient({
      baseUrl: options.baseUrl,
      apiToken: options.apiToken,
      logger: (line) => io.stderr(`${line}\n`),
    });
    const model = await readOrganization(client, {
      kinds: options.kinds,
      progress: (line) => io.stderr(`devicemgmt-export: ${line}\n`),
    });
    const project = options.project ?? `${slugify(model.organization.slug) || "organization"}-org`;
    const out = path.resolve(options.out ?? project);
    const plan = planProgram(model);
    const files = renderFiles(plan, {
      project,
      stack: options.stack,
      baseUrl: options.baseUrl,
      versions: await generatedVersions(),
    });
    await mkdir(out, { recursive: true });
    for (const [name, content] of Object.entries(files)) await writeFile(path.join(out, name), content);

    const attachments = plan.groupChannels.length + plan.devices.reduce((n, d) => n + d.channels.length, 0);
    io.stdout(
      `Wrote ${Object.keys(files).join(", ")} to ${out}: ` +
        `${plan.declaresGroups ? plan.groups.length : 0} groups, ${plan.users.length} users, ${attachments} ` +
        `release-channel attachments` +
        (plan.leftOut.length ? `; ${plan.leftOut.length} left out (listed in README.md).` : ".") +
        "\n",
    );
    return 0;
  } catch (error) {
    io.stderr(`devicemgmt-export: ${(error as Error).message}\n`);
    return 1;
  }
}

interface Manifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** The versions this package is built and tested with, from its own package.json (found walking up). */
async function generatedVersions(): Promise<RenderOptions["versions"]> {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const manifest = await readFile(path.join(dir, "package.json"), "utf8").then(
      (text) => JSON.parse(text) as Manifest,
      () => undefined,
    );
    if (manifest?.name === "pulumi-devicemgmt") {
      const dependency = (name: string) =>
        manifest.dependencies?.[name] ?? manifest.devDependencies?.[name] ?? "*";
      return {
        pulumi: dependency("@pulumi/pulumi"),
        provider: `^${manifest.version ?? "0.0.0"}`,
        typescript: dependency("typescript"),
        tsNode: dependency("ts-node"),
        typesNode: dependency("@types/node"),
      };
    }
    if (path.dirname(dir) === dir) throw new Error("The pulumi-devicemgmt package.json was not found.");
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    async (code) => {
      await closeDispatchers();
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`devicemgmt-export: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
