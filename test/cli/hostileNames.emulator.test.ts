// Names chosen to break what the commands print and post (issue 32): escape sequences, a tracking pixel, links,
// emphasis and code spans in an organization's names and in a state's resource names. The drift report on the
// terminal, in the job summary and as JSON, and the exporter's output and README.md, show each name as itself.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { main as exportMain } from "../../provider/export/cli";
import { terminalText } from "../../provider/printable";
import { runDrift } from "../drift/support";
import { HOSTILE_NAMES, OBEYED, visible } from "./support";

interface Token {
  type: string;
  content: string;
  children: Token[] | null;
}
const MarkdownIt = require("markdown-it") as new (options: { linkify: boolean }) => {
  parse(text: string, env: object): Token[];
};
const markdown = new MarkdownIt({ linkify: true });

/** Every token of a Markdown document, inline ones included. */
const tokensOf = (text: string): Token[] =>
  markdown.parse(text, {}).flatMap((t) => [t, ...(t.children ?? [])]);

/** What a document may not hold: a name that became a link, an image, emphasis, strikethrough or HTML. */
const FORBIDDEN = ["link_open", "image", "em_open", "s_open", "html_inline", "html_block"];

let emulator: RunningEmulator;
let workDir: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-names-"));
  const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  const member = (await admin.roles.all()).find((r) => r.name === "Member")!.id;
  for (const name of HOSTILE_NAMES) await admin.groups.create({ name, parentId: null });
  await admin.users.create({
    firstName: HOSTILE_NAMES[0],
    lastName: HOSTILE_NAMES[1],
    email: "hostile@acme.example",
    defaultRoleId: member,
  });
});

afterAll(async () => {
  await emulator?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** A stack export whose resources' names (free text in a program) are the hostile names; their groups are gone. */
function stateWithHostileResourceNames(): string {
  const type = "pulumi-nodejs:dynamic/devicemgmt:Group";
  const resources = HOSTILE_NAMES.map((name, i) => ({
    urn: `urn:pulumi:prod::acme::${type}::${name}`,
    type,
    custom: true,
    id: `00000000-0000-4000-8000-00000000000${i}`,
    inputs: { name: `Gone ${i}` },
    outputs: { name: `Gone ${i}`, parentId: null, configured: false },
  }));
  const file = path.join(workDir, "state.json");
  fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: { resources } }));
  return file;
}

describe("devicemgmt-drift", () => {
  it("prints, posts and writes every name as itself, obeying none of it", async () => {
    const env = { DEVICEMGMT_BASE_URL: emulator.baseUrl, DEVICEMGMT_API_TOKEN: emulator.tokens.readOnly };
    const state = stateWithHostileResourceNames();
    const run = await runDrift(workDir, ["--kinds", "user,group", state], env);
    expect(run.stderr).toMatch(/found; \d+ requests/);
    for (const text of [run.stdout, run.stderr, run.markdown, run.json]) {
      expect(text).not.toMatch(OBEYED);
    }
    // The JSON holds the names exactly.
    const labels = run.report.findings.map((f) => f.label);
    for (const name of HOSTILE_NAMES) expect(labels).toContain(`"${name}"`);
    expect(run.report.findings.flatMap((f) => f.managedBy)).toEqual(
      expect.arrayContaining(HOSTILE_NAMES.map((name) => `acme/prod: ${name}`)),
    );
    // The Markdown shows them as text (labels) and code (the resources that manage a gone group), and nothing
    // else: no link, image, emphasis or HTML came from a name.
    expect(run.stdout).toBe(run.markdown);
    const tokens = tokensOf(run.markdown);
    expect(tokens.filter((t) => FORBIDDEN.includes(t.type))).toEqual([]);
    const text = tokens.filter((t) => t.type === "text" || t.type === "text_special").map((t) => t.content);
    const code = tokens.filter((t) => t.type === "code_inline").map((t) => t.content);
    for (const name of HOSTILE_NAMES) {
      expect(text.join("")).toContain(`"${visible(name)}"`);
      expect(code).toContain(`acme/prod: ${visible(name)}`);
    }
    const json = await runDrift(workDir, ["--kinds", "user,group", "--format", "json", state], env);
    expect(json.stdout).not.toMatch(OBEYED);
    expect(JSON.parse(json.stdout)).toEqual({
      ...run.report,
      generatedAt: expect.any(String),
      auditSince: expect.any(String),
    });
  });
});

describe("devicemgmt-export", () => {
  it("prints the adopted objects and writes README.md with every name as itself", async () => {
    // The staging organization holds groups of the same names: the export adopts them, and lists each.
    const staging = new DeviceMgmtClient({
      baseUrl: emulator.baseUrl,
      apiToken: emulator.tokens.multiOrgAdminSecondary,
    });
    for (const name of HOSTILE_NAMES) await staging.groups.create({ name, parentId: null });
    const out = path.join(workDir, "export");
    let stdout = "";
    let stderr = "";
    const code = await exportMain(
      ["--out", out, "--only", "groups", "--match-base-url", emulator.baseUrl],
      {
        DEVICEMGMT_BASE_URL: emulator.baseUrl,
        DEVICEMGMT_API_TOKEN: emulator.tokens.multiOrgAdmin,
        DEVICEMGMT_MATCH_API_TOKEN: emulator.tokens.multiOrgAdminSecondary,
      },
      { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) },
    );
    expect(stderr).not.toMatch(/error/i);
    expect(code).toBe(0);
    expect(stdout + stderr).not.toMatch(OBEYED);
    // On the terminal, each adopted group with its name, hidden code points shown as escapes.
    for (const name of HOSTILE_NAMES) expect(stdout).toContain(` (${terminalText(name)}) = `);
    const readme = fs.readFileSync(path.join(out, "README.md"), "utf8");
    expect(readme).not.toMatch(OBEYED);
    const tokens = tokensOf(readme);
    expect(tokens.filter((t) => FORBIDDEN.includes(t.type))).toEqual([]);
    const text = tokens.filter((t) => t.type === "text" || t.type === "text_special").map((t) => t.content);
    // Each adopted group is listed as "`<resource name>` (Group) <name>".
    for (const name of HOSTILE_NAMES) expect(text.join("")).toContain(`(Group) ${visible(name)}`);
  });
});
