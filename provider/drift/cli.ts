#!/usr/bin/env node
/**
 * devicemgmt-drift: compares an organization with the states of the stacks that manage it and reports what no
 * stack manages, what changed outside Pulumi and what is gone, with the audit records that explain each (see
 * docs/guide/drift.md).
 */
import {
  apiTokenFromEnv,
  printableIo,
  processIo,
  refuseTokenArguments,
  UsageError,
  type CliIo,
} from "../cliSupport";
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { closeDispatchers, DeviceMgmtClient, resolveEndpoints } from "../client";
import { baseUrlProblem, envFlag, ENV_KEYS } from "../connection";
import { terminalText } from "../printable";
import type { ResourceKind } from "../kindKeys";
import { readIgnoreFile, type IgnoreRule } from "./ignore";
import { DRIFT_KINDS } from "./kinds";
import { LiveOrganization } from "./live";
import { renderMarkdown } from "./render";
import { driftReport, type DriftReport } from "./report";
import { readStackExport } from "./state";

/** The exit codes, as docs/guide/drift.md documents them. */
export const EXIT = {
  /** Nothing found. */
  clean: 0,
  /** The report could not be made (a state file, the ignore file or the organization could not be read). */
  failed: 1,
  usage: 2,
  /** Something found (unmanaged, declared twice, changed or gone), but no unmanaged organization Admin. */
  found: 3,
  /** An organization Admin that no stack manages (and no ignore rule names). */
  unmanagedAdmin: 4,
} as const;

/** Kinds that name objects of the organization (a device migration is an action, not an object). */
const REPORTED_KINDS = (Object.keys(DRIFT_KINDS) as ResourceKind[]).filter((k) => DRIFT_KINDS[k].read);
const KIND_NAMES = REPORTED_KINDS.map((k) => DRIFT_KINDS[k].noun);

const USAGE = `Usage: devicemgmt-drift [options] STACK_EXPORT.json [STACK_EXPORT.json ...]

Compares the organization with the given stacks' states (\`pulumi stack export --file STACK_EXPORT.json\`, one
file per stack that manages part of the organization; a file backend's checkpoint file,
~/.pulumi/stacks/<project>/<stack>.json, is read as well) and reports:
  - objects of the organization that no stack manages (users with their roles, groups, release-channel
    attachments, themes, tags, files and videos of ungrouped devices), organization Admins first;
  - objects that more than one resource declares (of two stacks, or two of one stack);
  - managed objects whose live fields differ from the state, field by field;
  - objects a state names that are gone;
each with the audit records about it (who, what, when), newest first. Secrets of the states are never shown.

Options:
  --ignore FILE       objects managed elsewhere on purpose, one "<kind> <pattern>" a line (docs/guide/drift.md);
                      a rule only keeps an object out of "not managed", and one that matches nothing is
                      warned about; the API token's own user is always left out
  --kinds KINDS       comma-separated: ${KIND_NAMES.join(",")} (default: all)
  --audit-days N      audit records of the last N days (default 7)
  --markdown FILE     also write the Markdown report to FILE (e.g. "$GITHUB_STEP_SUMMARY"; appended to)
  --json FILE         also write the report as JSON to FILE
  --format FORMAT     what goes to stdout: markdown (default), json or none
  --base-url URL      API base URL ending in /api/v3 (default: $DEVICEMGMT_BASE_URL)
  -h, --help          show this help

The API token comes from the environment variable DEVICEMGMT_API_TOKEN, never from the command line; a
read-only token is enough (it needs to see users, groups, devices, themes, tags, apps, files, videos,
experiences and the audit log).

Exit status: ${EXIT.clean} nothing found; ${EXIT.found} something found; ${EXIT.unmanagedAdmin} an organization Admin no stack manages;
${EXIT.failed} the report could not be made; ${EXIT.usage} bad usage.
`;

export type { CliIo } from "../cliSupport";

interface CliOptions {
  files: string[];
  ignore?: string;
  kinds: ResourceKind[];
  auditDays: number;
  markdown?: string;
  json?: string;
  format: "markdown" | "json" | "none";
  baseUrl: string;
  apiToken: string;
}

function parseOptions(argv: string[], env: NodeJS.ProcessEnv): CliOptions | "help" {
  refuseTokenArguments(argv);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        ignore: { type: "string" },
        kinds: { type: "string" },
        "audit-days": { type: "string" },
        markdown: { type: "string" },
        json: { type: "string" },
        format: { type: "string" },
        "base-url": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  if (!positionals.length) {
    throw new UsageError(
      "No stack export given: run `pulumi stack export --file state.json` and pass state.json.",
    );
  }
  let kinds = REPORTED_KINDS;
  if (values.kinds !== undefined) {
    const requested = values.kinds
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean);
    const unknown = requested.filter((k) => !KIND_NAMES.includes(k));
    if (unknown.length || !requested.length) {
      throw new UsageError(`--kinds takes ${KIND_NAMES.join(", ")}; got "${values.kinds}".`);
    }
    kinds = REPORTED_KINDS.filter((k) => requested.includes(DRIFT_KINDS[k].noun));
  }
  const auditDays = Number(values["audit-days"] ?? 7);
  if (!Number.isFinite(auditDays) || auditDays <= 0) {
    throw new UsageError(`--audit-days takes a positive number of days; got "${values["audit-days"]}".`);
  }
  const format = values.format ?? "markdown";
  if (format !== "markdown" && format !== "json" && format !== "none") {
    throw new UsageError(`--format takes markdown, json or none; got "${format}".`);
  }
  const baseUrl = (values["base-url"] ?? env[ENV_KEYS.baseUrl] ?? "").trim();
  if (!baseUrl) throw new UsageError("No API base URL: pass --base-url or set DEVICEMGMT_BASE_URL.");
  // The provider's rule: a token goes over plain http only to this machine, unless opted in.
  const problem = baseUrlProblem(
    baseUrl,
    values["base-url"] !== undefined ? "--base-url" : ENV_KEYS.baseUrl,
    envFlag(env, ENV_KEYS.allowInsecureHttp) === true,
  );
  if (problem) throw new UsageError(problem);
  const apiToken = apiTokenFromEnv(env, " (a read-only one is enough)");
  return {
    files: positionals,
    ...(values.ignore !== undefined ? { ignore: values.ignore } : {}),
    ...(values.markdown !== undefined ? { markdown: values.markdown } : {}),
    ...(values.json !== undefined ? { json: values.json } : {}),
    kinds,
    auditDays,
    format,
    baseUrl: resolveEndpoints(baseUrl).baseUrl,
    apiToken,
  };
}

/** The exit status a report calls for. */
export function exitCodeOf(report: DriftReport): number {
  if (report.findings.some((f) => f.category === "unmanaged" && f.admin)) return EXIT.unmanagedAdmin;
  return report.findings.length ? EXIT.found : EXIT.clean;
}

/** Runs the command; resolves to the exit code (see EXIT). Never prints the token or a secret of a state. */
export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  given: CliIo = processIo,
  now: () => Date = () => new Date(),
): Promise<number> {
  const io = printableIo(given);
  let options: CliOptions | "help";
  try {
    options = parseOptions(argv, env);
  } catch (error) {
    io.stderr(`devicemgmt-drift: ${(error as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (options === "help") {
    io.stdout(USAGE);
    return EXIT.clean;
  }
  try {
    const states = await Promise.all(options.files.map((file) => readStackExport(file)));
    for (const state of states) {
      for (const { urn, reason } of state.unreadable) {
        io.stderr(`devicemgmt-drift: ${state.file}: ${urn} is not compared: ${reason}.\n`);
      }
    }
    const ignore: IgnoreRule[] = options.ignore ? await readIgnoreFile(options.ignore, KIND_NAMES) : [];
    const client = new DeviceMgmtClient({
      baseUrl: options.baseUrl,
      apiToken: options.apiToken,
      logger: (line) => io.stderr(`${line}\n`),
    });
    const org = new LiveOrganization(client, (line) => io.stderr(`devicemgmt-drift: ${line}\n`));
    const report = await driftReport(org, states, {
      kinds: options.kinds,
      ignore,
      auditSince: new Date(now().getTime() - options.auditDays * 86_400_000).toISOString(),
      now,
    });
    const markdown = renderMarkdown(report);
    const json = `${JSON.stringify(report, null, 2)}\n`;
    if (options.markdown) await writeFile(options.markdown, markdown, { flag: "a" });
    // The same JSON with hidden code points as \u escapes: a file someone may `cat` is printed text too.
    if (options.json) await writeFile(options.json, terminalText(json));
    if (options.format === "markdown") io.stdout(markdown);
    if (options.format === "json") io.stdout(json);
    for (const rule of report.unusedIgnoreRules) {
      io.stderr(
        `devicemgmt-drift: warning: ${rule.source}: "${rule.kind} ${rule.pattern}" matched nothing the report ` +
          `would list as unmanaged; correct or remove it${rule.kind === "user" || rule.kind === "*" ? " (a pending invitation is not yet a user)" : ""}.\n`,
      );
    }
    const stats = client.stats();
    io.stderr(`devicemgmt-drift: ${report.findings.length} found; ${stats.requests} requests\n`);
    return exitCodeOf(report);
  } catch (error) {
    io.stderr(`devicemgmt-drift: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    async (code) => {
      await closeDispatchers();
      process.exitCode = code;
    },
    (error: unknown) => {
      printableIo(processIo).stderr(`devicemgmt-drift: ${(error as Error).message}\n`);
      process.exitCode = EXIT.failed;
    },
  );
}
