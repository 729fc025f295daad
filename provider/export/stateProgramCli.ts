/**
 * `devicemgmt-export --from-state <file>`: writes the Pulumi YAML program that moves a TypeScript stack to the
 * provider plugin (stateProgram.ts) and prints the steps of the move. It reads only the file: no token, no API.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { UsageError, type CliIo } from "../cliSupport";
import { programFromState, type ExportedResource, type StateProgram } from "./stateProgram";

export const FROM_STATE_USAGE = `Moving a stack of the TypeScript classes to the provider plugin (docs/plugin.md):
  --from-state FILE  instead of reading an organization, read FILE (\`pulumi stack export --file FILE\` of the
                     TypeScript stack) and write a Pulumi YAML program whose resources import the stack's
                     objects by id (options: import), with the inputs the stack recorded; then print the
                     steps of the move. Takes --out (default ./<project>), --project (default
                     <the stack's project>-yaml) and --force; needs no token
  --program-dir DIR  the TypeScript program's folder, which relative \`source\` paths start from
                     (default: the current folder); the YAML program names the same files from --out
`;

/** The resources of a `pulumi stack export` file (version 3), and its project's name. */
function exportedResources(text: string, file: string): { resources: ExportedResource[]; project: string } {
  let parsed: { deployment?: { resources?: unknown } };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new UsageError(
      `--from-state ${file}: not JSON; give the file \`pulumi stack export --file\` wrote.`,
    );
  }
  const resources = parsed?.deployment?.resources ?? [];
  if (!Array.isArray(resources))
    throw new UsageError(
      `--from-state ${file}: no deployment.resources; give a \`pulumi stack export\` file.`,
    );
  const urn = (resources as ExportedResource[]).find((r) => typeof r?.urn === "string")?.urn ?? "";
  return { resources: resources as ExportedResource[], project: urn.split("::")[1] ?? "organization" };
}

/** Runs `--from-state`; resolves to the exit code (0 done, 1 failed, 2 bad usage). */
export async function fromStateMain(argv: string[], io: CliIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        "from-state": { type: "string" },
        out: { type: "string" },
        project: { type: "string" },
        force: { type: "boolean" },
        "program-dir": { type: "string" },
      },
    }));
  } catch (error) {
    io.stderr(`devicemgmt-export: ${(error as Error).message} (with --from-state)\n\n${FROM_STATE_USAGE}`);
    return 2;
  }
  const file = values["from-state"]!;
  try {
    const { resources, project: source } = exportedResources(await readFile(file, "utf8"), file);
    const project = values.project ?? `${source}-yaml`;
    const out = path.resolve(values.out ?? project);
    const program = programFromState(resources, project, {
      program: path.resolve(values["program-dir"] ?? "."),
      out,
    });
    const existing = await readdir(out).catch(() => [] as string[]);
    if (existing.includes("Pulumi.yaml") && !values.force)
      throw new UsageError(`${out} already holds a Pulumi.yaml: choose another --out, or pass --force.`);
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, "Pulumi.yaml"), program.yaml);
    io.stdout(
      `Wrote Pulumi.yaml to ${out}: ${program.moved.length} resources, each imported by id.\n` +
        steps(out, program),
    );
    return 0;
  } catch (error) {
    io.stderr(`devicemgmt-export: ${(error as Error).message}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

/** The rest of the move, in the user's words (docs/plugin.md says the same, with the why). */
function steps(out: string, { moved, others, secretConfig: secrets }: StateProgram): string {
  const forget = others.length
    ? `  # the stack keeps ${others.length} resources of other packages (${others.join(", ")}): forget only ` +
      `the moved ones\n  pulumi state delete --force --yes ${moved.map((m) => `'${m.urn}'`).join(" ")}\n`
    : "  pulumi state delete --all --force --yes   # forgets (protected ones too), never deletes\n" +
      "  pulumi stack rm --yes\n";
  return (
    `Next, in ${out}:\n` +
    "  pulumi stack init <stack>\n" +
    "  pulumi config set devicemgmt:baseUrl <the TypeScript stack's base URL>\n" +
    "  pulumi config set --secret devicemgmt:apiToken <token>\n" +
    secrets
      .map((s) => `  pulumi config set --secret ${s.key} <the value the TypeScript stack declared>\n`)
      .join("") +
    "  pulumi preview                    # every resource: import; nothing to create, update or delete\n" +
    "  pulumi up --yes\n" +
    "  pulumi up --expect-no-changes\n" +
    "Then, in the TypeScript project, on its stack:\n" +
    forget
  );
}
