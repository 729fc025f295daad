// Shared helpers of the export tests: hand-made models, running the exporter and a generated program's text
// in-process, and reading its stack config.
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import * as ts from "typescript";
import { parse as parseYaml } from "yaml";
import type { Program, RunResult } from "../engine";
import { main } from "../../provider/export/cli";
import type { ExportKind, ModelGroup, ModelUser, OrgModel, RoleRef } from "../../provider/export/model";
import type { RenderOptions } from "../../provider/export/renderOptions";

export const VERSIONS: RenderOptions["versions"] = {
  pulumi: "3.270.0",
  provider: "^0.1.0",
  typescript: "5.9.3",
  tsNode: "10.9.2",
  typesNode: "20.19.43",
};

/**
 * The kinds these tests were written for: tags, devices and channel versions (issue 20) are covered by
 * devices.test.ts, whose organization is built for them; the older tests export without them.
 */
export const WITHOUT_DEVICE_KINDS = ["--only", "groups,users,attachments,themes,experiences"];

export const RENDER_OPTIONS: RenderOptions = {
  project: "acme-org",
  stack: "production",
  baseUrl: "http://127.0.0.1:4010/api/v3",
  versions: VERSIONS,
};

/** A readable fake id: the same label always gives the same UUID-shaped id. */
export function id(label: string): string {
  let hash = 0;
  for (const c of label) hash = (Math.imul(hash, 31) + c.codePointAt(0)!) >>> 0;
  const hex = hash.toString(16).padStart(8, "0");
  return `${hex}-0000-4000-8000-${hex}0000`.slice(0, 36);
}

export const ADMIN: RoleRef = { name: "Admin", type: "organization" };
export const READ_ONLY: RoleRef = { name: "Read Only", type: "organization" };
export const GROUP_ADMIN: RoleRef = { name: "Group Admin", type: "group" };

export function group(label: string, name: string, parent: string | null, configured = false): ModelGroup {
  return { id: id(label), name, parentId: parent === null ? null : id(parent), configured };
}

export function user(email: string, defaultRole: RoleRef, groupRoles: [RoleRef, string][] = []): ModelUser {
  const [first, last] = email.split("@")[0].split(".");
  return {
    id: id(email),
    firstName: first,
    lastName: last ?? "Person",
    email,
    defaultRole,
    groupRoles: groupRoles.map(([role, groupLabel]) => ({ role, groupId: id(groupLabel) })),
  };
}

export function model(
  parts: Partial<OrgModel> = {},
  kinds: ExportKind[] = ["groups", "users", "attachments"],
): OrgModel {
  return {
    organization: { id: id("org"), name: "Acme Devices", slug: "acme" },
    exportedBy: "morgan.multi@acme.example",
    kinds,
    groups: [],
    users: [],
    groupChannels: [],
    deviceChannels: [],
    leftOut: [],
    ...parts,
  };
}

/** The example tree: Acme > EMEA > Berlin Lab [configured], Acme > Americas > Austin Lab [configured]. */
export function exampleGroups(): ModelGroup[] {
  return [
    group("acme", "Acme Training", null),
    group("emea", "EMEA", "acme"),
    group("berlin", "Berlin Lab", "emea", true),
    group("americas", "Americas", "acme"),
    group("austin", "Austin Lab", "americas", true),
  ];
}

/** A custom theme, "Night Shift", in one colour. */
export function nightShift(): NonNullable<OrgModel["themes"]>[number] {
  const colour = "#101820";
  return {
    id: id("night"),
    colors: {
      name: "Night Shift",
      background1: colour,
      background2: colour,
      text: colour,
      accent1: colour,
      accent2: colour,
      accent3: colour,
    },
  };
}

/** TypeScript → CommonJS JavaScript, as ts-node's transpile-only mode does. */
export function transpile(source: string): string {
  return ts.transpileModule(source, {
    fileName: "index.ts",
    reportDiagnostics: true,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
  }).outputText;
}

/** Runs a generated program's text with the given modules standing in for its imports; returns its exports. */
export function runModule(source: string, modules: Record<string, unknown>): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const requireModule = (name: string) => {
    if (!(name in modules)) throw new Error(`the generated program imports "${name}", which it should not`);
    return modules[name];
  };
  // Running the generated program is the point: it is this repository's own output, transpiled above.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function("exports", "require", "module", transpile(source))(module.exports, requireModule, module);
  return module.exports;
}

/**
 * The generated index.ts as an inline program of the Automation API (test/engine), evaluated afresh on every
 * run like a new `pulumi up`: the CLI here has no Node.js language host, so the exported project folder cannot
 * be run with `pulumi up` in it. As a user's program would: `pulumi-devicemgmt` is this repository
 * (node_modules/pulumi-devicemgmt links to it, required here and not at load, so the unit tests of this folder
 * need no build), and `@pulumi/pulumi` is the SDK instance the Automation API runs the inline program with.
 */
export function generatedProgram(dir: string): Program {
  const source = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
  const dm: unknown = require("pulumi-devicemgmt");
  return () => runModule(source, { "@pulumi/pulumi": pulumi, "pulumi-devicemgmt": dm });
}

/** What a run did, by resource name: compared whole where a run must change nothing. */
export const changes = (result: RunResult) => ({
  errors: result.errors,
  create: result.steps.create.map((s) => s.name),
  update: result.steps.update.map((s) => s.name),
  replace: result.steps.replace.map((s) => s.name),
  delete: result.steps.delete.map((s) => s.name),
});

/** Stack config as Pulumi gives it to a program: object values as JSON text. */
export function stackConfig(file: string): Record<string, string> {
  const { config } = parseYaml(fs.readFileSync(file, "utf8")) as { config: Record<string, unknown> };
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => [
      key,
      typeof value === "string" ? value : JSON.stringify(value),
    ]),
  );
}

export interface Exported {
  code: number;
  stdout: string;
  stderr: string;
  /** The files in `out` afterwards (not its folders), by name. */
  files: Record<string, string>;
}

/** Runs `devicemgmt-export --out <out> --project <project> …args` in-process with the given environment. */
export async function runExport(
  args: string[],
  out: string,
  project: string,
  env: Record<string, string>,
): Promise<Exported> {
  let stdout = "";
  let stderr = "";
  const code = await main(["--out", out, "--project", project, ...args], env, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  const files = Object.fromEntries(
    fs.existsSync(out)
      ? fs
          .readdirSync(out, { withFileTypes: true })
          // (content/ holds the downloaded content: read by the tests that download it.)
          .filter((f) => f.isFile())
          .map((f) => [f.name, fs.readFileSync(path.join(out, f.name), "utf8")])
      : [],
  );
  return { code, stdout, stderr, files };
}
