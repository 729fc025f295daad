// The command's usage rules (the exporter's connection and token rules) and its ignore file, without a server.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { EXIT, main } from "../../provider/drift/cli";
import { ignoredBy, IgnoreFileError, parseIgnoreFile } from "../../provider/drift/ignore";

async function run(argv: string[], env: Record<string, string>) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, env, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const ENV = { DEVICEMGMT_BASE_URL: "https://api.example.com/api/v3", DEVICEMGMT_API_TOKEN: "12|secret-part" };

describe("devicemgmt-drift usage", () => {
  it("refuses a token on the command line, without echoing it", async () => {
    const result = await run(["--token=12|secret-part", "state.json"], ENV);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toMatch(/DEVICEMGMT_API_TOKEN/);
    expect(result.stderr).not.toContain("secret-part");
  });

  it.each([
    [[], ENV, /No stack export given: run `pulumi stack export/],
    [["s.json"], { DEVICEMGMT_API_TOKEN: "t" }, /No API base URL/],
    [
      ["s.json"],
      { DEVICEMGMT_BASE_URL: ENV.DEVICEMGMT_BASE_URL },
      /No API token: set the environment variable/,
    ],
    [["--base-url", "http://example.com/api/v3", "s.json"], ENV, /--base-url/],
    [["--kinds", "users", "s.json"], ENV, /--kinds takes user, group, .*got "users"/],
    [["--audit-days", "0", "s.json"], ENV, /--audit-days takes a positive number/],
    [["--format", "yaml", "s.json"], ENV, /--format takes markdown, json or none/],
  ])("%j is bad usage with a sentence saying what to do", async (argv, env, message) => {
    const result = await run(argv as string[], env as Record<string, string>);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toMatch(message);
  });

  it("a missing stack export or ignore file fails (status 1) naming the file, before any request", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-cli-"));
    const missing = await run([path.join(dir, "nope.json")], ENV);
    expect(missing.code).toBe(EXIT.failed);
    expect(missing.stderr).toMatch(/nope\.json: Cannot read the stack export/);
    const state = path.join(dir, "state.json");
    fs.writeFileSync(state, JSON.stringify({ version: 3, deployment: { resources: [] } }));
    const noIgnore = await run(["--ignore", path.join(dir, "ignore"), state], ENV);
    expect(noIgnore.code).toBe(EXIT.failed);
    expect(noIgnore.stderr).toMatch(/Cannot read the ignore file/);
  });

  it("--help lists the exit codes", async () => {
    const result = await run(["--help"], {});
    expect(result.code).toBe(EXIT.clean);
    expect(result.stdout).toMatch(/Exit status: 0 nothing found; 3 something found; 4 an organization Admin/);
  });
});

describe("the ignore file", () => {
  const KINDS = ["user", "group", "theme"];

  it("matches kind and pattern, case-insensitively, * for any run of characters", () => {
    const rules = parseIgnoreFile(
      [
        "# break-glass",
        "user breakglass-*@ACME.example  # two of them",
        "* Sandbox*",
        "",
        "group a > b",
      ].join("\n"),
      "ignore",
      KINDS,
    );
    expect(rules.map((r) => [r.kind, r.pattern, r.source])).toEqual([
      ["user", "breakglass-*@ACME.example", "ignore:2"],
      ["*", "Sandbox*", "ignore:3"],
      ["group", "a > b", "ignore:5"],
    ]);
    expect(ignoredBy(rules, "user", ["breakglass-1@acme.example"])?.source).toBe("ignore:2");
    expect(ignoredBy(rules, "group", ["breakglass-1@acme.example"])).toBeUndefined();
    expect(ignoredBy(rules, "theme", ["sandbox blue"])?.source).toBe("ignore:3");
    expect(ignoredBy(rules, "group", ["A > B"])?.source).toBe("ignore:5");
    expect(ignoredBy(rules, "group", ["x a > b"])).toBeUndefined();
  });

  it("names the line and the fix for a bad rule", () => {
    expect(() => parseIgnoreFile("users bob@example.com", "ignore", KINDS)).toThrow(
      new IgnoreFileError(
        "ignore:1",
        '"users" is not a kind; a rule is "<kind> <pattern>" with kind one of user, group, theme or *.',
      ),
    );
    expect(() => parseIgnoreFile("\nuser", "ignore", KINDS)).toThrow(/ignore:2: no pattern after "user"/);
    let thrown: unknown;
    try {
      parseIgnoreFile("\nuser", "ignore", KINDS);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(IgnoreFileError);
    expect(thrown).toMatchObject({
      source: "ignore:2",
      problem: expect.stringMatching(/^no pattern after "user"/),
    });
  });
});
