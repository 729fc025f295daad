#!/usr/bin/env node
/**
 * devicemgmt-export: reads an organization and writes a Pulumi program that declares it, with a stack config
 * file holding the ids to adopt (see docs/guide/export.md).
 */
import {
  apiTokenFromEnv,
  printableIo,
  processIo,
  refuseTokenArguments,
  UsageError,
  type CliIo,
} from "../cliSupport";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { closeDispatchers, DeviceMgmtClient, resolveEndpoints } from "../client";
import { baseUrlProblem, envFlag, ENV_KEYS } from "../connection";
import { ExportOptionError, PackageNotFoundError } from "./errors";
import { CONTENT_FOLDER } from "./content";
import { countedContent, downloadContent } from "./contentRead";
import { EXPORT_KINDS, type ExportKind, type OrgModel } from "./model";
import { declaredGroupCount, planProgram, slugify, type ProgramPlan } from "./naming";
import { readOrganization } from "./read";
import { renderFiles, renderSplitReadme } from "./render";
import { splitModel } from "./split";
import type { RenderOptions } from "./renderOptions";
import { matchTarget, type StagingMatch } from "./staging";
import { FROM_STATE_USAGE, fromStateMain } from "./stateProgramCli";

const USAGE = `Usage: devicemgmt-export [options]

Reads an organization through the v3 API and writes a Pulumi program that declares it: the group tree, users
with their roles, release channels on groups and devices, custom themes, and the headset and device
experiences of configured groups and ungrouped devices (admin PINs become config secrets you set), tags and
the tags of apps, files and videos, every device's placement (by serial number: never migrated), the files and
videos of ungrouped devices, each release channel's version, and the files and videos the API lets it
download (into content/, verified against their SHA-512, declared as File and Video resources uploaded from
there). Adoption ids go to the stack config file, so the
same program manages the organization as it is (with that file) or builds a copy elsewhere (without it).

Options:
  --out DIR          folder to write (default: ./<project>)
  --only KINDS       what to export, comma-separated: ${EXPORT_KINDS.join(",")} (default: all)
  --skip-users       leave users out (for a staging organization with other people)
  --project NAME     Pulumi project name (default: <organization slug>-org)
  --stack NAME       the stack that adopts the organization; its config file is Pulumi.<NAME>.yaml
                     (default: production)
  --base-url URL     API base URL ending in /api/v3 (default: $DEVICEMGMT_BASE_URL)
  --force            write into --out even when it is not empty (files of the same name are overwritten)
  --split            write one program per region (a group at --split-depth, with its subtree, devices,
                     release channels, experiences and users) into its own folder, one for what the whole
                     organization shares (shared/: run it first) and one for users with group roles in
                     several regions (cross-region/: run it last); each is its own project and stack, and
                     finds what another declares by lookup. README.md at the top says the order
  --split-depth N    the depth of the regions' groups: 1 the top-level groups (default), 2 their children
  --no-content       download no content: files and videos stay lookups by name (getFile, getVideo), as in
                     an export of the organization's structure only (same as leaving "content" out of --only)
  -h, --help         show this help

Staging in an organization that already holds some of the objects:
  --match-base-url URL   also read this TARGET organization, and write the staging stack's config with the
                         ids of the objects it already holds (users by e-mail, groups by name path, attached
                         release channels): the staging stack adopts them and its destroy leaves them
  --match-token-env VAR  environment variable holding the target's API token
                         (default: DEVICEMGMT_MATCH_API_TOKEN)
  --match-stack NAME     the staging stack; its config file is Pulumi.<NAME>.yaml (default: staging)

${FROM_STATE_USAGE}
The API token comes from the environment variable DEVICEMGMT_API_TOKEN, never from the command line.
Progress goes to stderr; a summary to stdout (with --match-base-url, one line per adopted object).
`;

/** ", 2 themes" for the summary line; nothing for none (an organization without them reads as before). */
const counted = (n: number, what: string) => (n ? `, ${n} ${what}${n === 1 ? "" : "s"}` : "");

/** Pulumi's own rule for project and stack names, minus the `org/project/` prefixes of a stack reference. */
const PULUMI_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export type { CliIo } from "../cliSupport";

interface CliOptions {
  out?: string;
  kinds: ExportKind[];
  project?: string;
  stack: string;
  baseUrl: string;
  apiToken: string;
  force: boolean;
  /** `--split`: the depth of the regions' groups. */
  splitDepth?: number;
  match?: { baseUrl: string; apiToken: string; stack: string };
}

function parseOptions(argv: string[], env: NodeJS.ProcessEnv): CliOptions | "help" {
  refuseTokenArguments(argv);
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
        force: { type: "boolean" },
        "no-content": { type: "boolean" },
        split: { type: "boolean" },
        "split-depth": { type: "string" },
        "match-base-url": { type: "string" },
        "match-token-env": { type: "string" },
        "match-stack": { type: "string" },
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
  if (values["no-content"]) kinds = kinds.filter((k) => k !== "content");
  if (!kinds.length) throw new UsageError("Nothing to export: --skip-users left no kind from --only.");

  for (const [flag, value] of [
    ["--project", values.project],
    ["--stack", values.stack],
    ["--match-stack", values["match-stack"]],
  ] as const) {
    if (value !== undefined && !PULUMI_NAME.test(value)) {
      throw new UsageError(
        `${flag} "${value}": use letters, digits, "-", "_" and "." (starting with a letter or digit).`,
      );
    }
  }

  let splitDepth: number | undefined;
  if (values["split-depth"] !== undefined && !values.split)
    throw new UsageError("--split-depth goes with --split.");
  if (values.split) {
    splitDepth = Number(values["split-depth"] ?? "1");
    if (!Number.isInteger(splitDepth) || splitDepth < 1) {
      throw new UsageError(
        `--split-depth "${values["split-depth"]}": give a whole number from 1 (the top-level groups).`,
      );
    }
    if (values["match-base-url"] !== undefined) {
      throw new UsageError(
        "--split does not write staging stacks: export the staging match without --split.",
      );
    }
  }

  const baseUrl = (values["base-url"] ?? env.DEVICEMGMT_BASE_URL ?? "").trim();
  if (!baseUrl) throw new UsageError("No API base URL: pass --base-url or set DEVICEMGMT_BASE_URL.");
  // The same rule as the provider's: a token goes over plain http only to this machine, unless opted in.
  const allowInsecureHttp = envFlag(env, ENV_KEYS.allowInsecureHttp) === true;
  const checkBaseUrl = (url: string, source: string) => {
    const problem = baseUrlProblem(url, source, allowInsecureHttp);
    if (problem) throw new UsageError(problem);
  };
  checkBaseUrl(baseUrl, values["base-url"] !== undefined ? "--base-url" : "DEVICEMGMT_BASE_URL");
  const apiToken = apiTokenFromEnv(env);
  let match: CliOptions["match"];
  const matchBaseUrl = values["match-base-url"]?.trim();
  if (!matchBaseUrl && (values["match-token-env"] !== undefined || values["match-stack"] !== undefined)) {
    throw new UsageError("--match-token-env and --match-stack go with --match-base-url.");
  }
  if (matchBaseUrl) {
    checkBaseUrl(matchBaseUrl, "--match-base-url");
    const variable = values["match-token-env"] ?? "DEVICEMGMT_MATCH_API_TOKEN";
    const matchToken = (env[variable] ?? "").trim();
    if (!matchToken) {
      throw new UsageError(
        `No API token for the target organization: set the environment variable ${variable} ` +
          "(or name another one with --match-token-env).",
      );
    }
    const stack = values["match-stack"] ?? "staging";
    if (stack === (values.stack ?? "production")) {
      throw new UsageError(`--match-stack "${stack}" is the source stack: name the staging stack.`);
    }
    match = { baseUrl: resolveEndpoints(matchBaseUrl).baseUrl, apiToken: matchToken, stack };
  }
  return {
    ...(values.out !== undefined ? { out: values.out } : {}),
    ...(match ? { match } : {}),
    force: values.force === true,
    ...(splitDepth !== undefined ? { splitDepth } : {}),
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
  given: CliIo = processIo,
): Promise<number> {
  const io = printableIo(given);
  if (argv.some((arg) => arg === "--from-state" || arg.startsWith("--from-state=")))
    return fromStateMain(argv, io);
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
  /** Refuses a non-empty folder without --force: true when the export must stop. */
  const refusedFolder = async (out: string): Promise<boolean> => {
    const existing = await readdir(out).catch(() => [] as string[]);
    if (!existing.length || options.force) return false;
    io.stderr(
      `devicemgmt-export: ${out} is not empty (${existing.slice(0, 5).join(", ")}${existing.length > 5 ? ", …" : ""}); ` +
        "choose an empty or new folder, or pass --force to overwrite the files the export writes.\n",
    );
    return true;
  };
  // A named folder is judged before the organization is read (a large one takes minutes); the default one is
  // named after the organization, so it can only be judged afterwards.
  if (options.out !== undefined && (await refusedFolder(path.resolve(options.out)))) return 2;
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
    if (options.out === undefined && (await refusedFolder(out))) return 2;
    if (options.splitDepth !== undefined) {
      await writeSplit(client, model, { ...options, splitDepth: options.splitDepth }, project, out, io);
      return 0;
    }
    const plan = planProgram(model);
    let staging: StagingMatch | undefined;
    if (options.match) {
      io.stderr(`devicemgmt-export: reading the target organization at ${options.match.baseUrl}\n`);
      const target = new DeviceMgmtClient({
        baseUrl: options.match.baseUrl,
        apiToken: options.match.apiToken,
        logger: (line) => io.stderr(`${line}\n`),
      });
      staging = await matchTarget(plan, target, {
        stack: options.match.stack,
        baseUrl: options.match.baseUrl,
      });
      if (staging.organization.id === model.organization.id) {
        throw new ExportOptionError(
          `--match-base-url reads the same organization (${staging.organization.slug}) as the export: ` +
            "give the staging organization's token in the --match-token-env variable.",
          "--match-token-env",
          "give the staging organization's token",
        );
      }
    }
    const files = renderFiles(plan, {
      project,
      stack: options.stack,
      baseUrl: options.baseUrl,
      ...(staging ? { staging } : {}),
      versions: await generatedVersions(out),
    });
    await mkdir(out, { recursive: true });
    // The content first: a refused download (bytes without the API's checksum) leaves no program behind.
    await downloadContent(client, plan.uploaded, out, (line) => io.stderr(`devicemgmt-export: ${line}\n`));
    for (const [name, content] of Object.entries(files)) await writeFile(path.join(out, name), content);

    io.stdout(`Wrote ${Object.keys(files).join(", ")} to ${out}: ${summary(plan)}\n`);
    if (staging) {
      const adopted = staging.objects.filter((o) => o.outcome === "adopt");
      io.stdout(
        `Staging stack "${staging.stack}" (Pulumi.${staging.stack}.yaml) in ${staging.organization.slug}: ` +
          `${adopted.length} objects already there are adopted and left in place by destroy; ` +
          `${staging.objects.length - adopted.length} are created and deleted by destroy (README.md lists each).\n`,
      );
      for (const o of adopted) {
        io.stdout(
          `  adopt ${o.kind} ${o.resourceName} (${o.label}) = ${o.targetId ?? "by serial number"}` +
            (o.notes.length ? `: ${o.notes.join("; ")}` : "") +
            "\n",
        );
      }
    }
    return 0;
  } catch (error) {
    io.stderr(`devicemgmt-export: ${(error as Error).message}\n`);
    return 1;
  }
}

/** What a program declares, for the summary line: "10 groups, 6 users, … ; 1 left out (listed in README.md)." */
function summary(plan: ProgramPlan): string {
  const attachments = plan.groupChannels.length + plan.devices.reduce((n, d) => n + d.channels.length, 0);
  return (
    `${declaredGroupCount(plan)} groups, ${plan.users.length} users, ${attachments} ` +
    `release-channel attachments` +
    counted(plan.content.themes.length, "theme") +
    counted(plan.content.experiences.length, "experience") +
    counted(plan.placement.tags.length, "tag") +
    counted(plan.placement.devices.length, "device") +
    counted(plan.placement.channelVersions.length, "channel version") +
    (plan.uploaded.length ? `, ${countedContent(plan.uploaded)} downloaded into ${CONTENT_FOLDER}/` : "") +
    (plan.leftOut.length ? `; ${plan.leftOut.length} left out (listed in README.md).` : ".")
  );
}

/**
 * `--split`: one program per folder (split.ts), each its own project (`<project>-<folder>`) and stack, and a
 * README at the top with the order to run them in. Every program is planned and rendered before anything is
 * written, and the content (the shared program's) is downloaded first, so a refusal leaves no program behind.
 */
async function writeSplit(
  client: DeviceMgmtClient,
  model: OrgModel,
  options: CliOptions & { splitDepth: number },
  project: string,
  out: string,
  io: CliIo,
): Promise<void> {
  const programs = splitModel(model, options.splitDepth);
  const listed = programs.map(({ folder, stage, label }) => ({ folder, stage, label }));
  const written = await Promise.all(
    programs.map(async (program, i) => {
      const dir = path.join(out, program.folder);
      const plan = planProgram(program.model);
      const files = renderFiles(plan, {
        project: `${project}-${program.folder}`,
        stack: options.stack,
        baseUrl: options.baseUrl,
        split: { program: listed[i], programs: listed },
        versions: await generatedVersions(dir),
      });
      return { dir, plan, files };
    }),
  );
  await mkdir(out, { recursive: true });
  for (const { dir, plan } of written) {
    await mkdir(dir, { recursive: true });
    await downloadContent(client, plan.uploaded, dir, (line) => io.stderr(`devicemgmt-export: ${line}\n`));
  }
  for (const { dir, files } of written) {
    for (const [name, content] of Object.entries(files)) await writeFile(path.join(dir, name), content);
  }
  await writeFile(path.join(out, "README.md"), renderSplitReadme(model.organization, listed, options.stack));
  io.stdout(`Wrote ${programs.length} programs and README.md (the order to run them in) to ${out}:\n`);
  for (const { dir, plan } of written) io.stdout(`  ${path.basename(dir)}/: ${summary(plan)}\n`);
}

interface Manifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/**
 * The versions this package is built and tested with, from its own package.json (found walking up). Run from
 * a checkout (not from an installed package), the provider is the checkout itself: a `file:` path relative to
 * the output folder, so `npm install` there works without a registry copy.
 */
async function generatedVersions(out: string): Promise<RenderOptions["versions"]> {
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
        provider: isCheckout(dir)
          ? `file:${path.relative(out, dir).split(path.sep).join("/") || "."}`
          : `^${manifest.version ?? "0.0.0"}`,
        typescript: dependency("typescript"),
        tsNode: dependency("ts-node"),
        typesNode: dependency("@types/node"),
      };
    }
    if (path.dirname(dir) === dir) throw new PackageNotFoundError(__dirname);
  }
}

/** A source checkout, not a copy installed from a registry or tarball (those live under node_modules). */
function isCheckout(dir: string): boolean {
  return !dir.split(path.sep).includes("node_modules") && existsSync(path.join(dir, ".git"));
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    async (code) => {
      await closeDispatchers();
      process.exitCode = code;
    },
    (error: unknown) => {
      printableIo(processIo).stderr(`devicemgmt-export: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
