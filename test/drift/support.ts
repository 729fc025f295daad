// Shared helpers of the drift tests: running the command in-process and reading what it wrote.
import * as fs from "fs";
import * as path from "path";
import { main } from "../../provider/drift/cli";
import type { DriftReport, Finding } from "../../provider/drift/report";

export interface DriftRun {
  code: number;
  stdout: string;
  stderr: string;
  markdown: string;
  json: string;
  report: DriftReport;
}

/** Runs `devicemgmt-drift --markdown … --json … …args` in-process with the given environment. */
export async function runDrift(dir: string, args: string[], env: Record<string, string>): Promise<DriftRun> {
  const markdownFile = path.join(dir, `summary-${Date.now()}-${Math.random()}.md`);
  const jsonFile = path.join(dir, `report-${Date.now()}-${Math.random()}.json`);
  let stdout = "";
  let stderr = "";
  const code = await main(["--markdown", markdownFile, "--json", jsonFile, ...args], env, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  const markdown = fs.existsSync(markdownFile) ? fs.readFileSync(markdownFile, "utf8") : "";
  const json = fs.existsSync(jsonFile) ? fs.readFileSync(jsonFile, "utf8") : "{}";
  return { code, stdout, stderr, markdown, json, report: JSON.parse(json) as DriftReport };
}

/** A finding in a form a test can compare: category, kind and label, Admin flag. */
export const brief = (f: Finding) => `${f.category} ${f.kind} ${f.label}${f.admin ? " [Admin]" : ""}`;

/**
 * A stack export of project `project` holding these resources, written by hand (outputs as the provider records
 * them, inputs as declared): for what a program cannot make here (many resources, builds without an .apk).
 */
export function stackExport(
  project: string,
  resources: Array<{ type: string; name?: string; id: string; props: Record<string, unknown> }>,
): string {
  return JSON.stringify({
    version: 3,
    deployment: {
      resources: resources.map((r, i) => ({
        urn: `urn:pulumi:production::${project}::pulumi-nodejs:dynamic/devicemgmt:${r.type}::${r.name ?? `${r.type}-${i}`}`,
        custom: true,
        type: `pulumi-nodejs:dynamic/devicemgmt:${r.type}`,
        id: r.id,
        inputs: r.props,
        outputs: r.props,
      })),
    },
  });
}
