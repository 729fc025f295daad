// The ignore file's scope against the emulator: a rule keeps an object out of "not managed by any stack" and
// nothing else (a managed object that is gone is still reported), and a rule that matches nothing is warned
// about (stderr, the Markdown, the JSON) instead of passing silently. Whether an invitation makes a user before
// it is accepted is not documented: the emulator's pendingInvitations switch takes either reading, and a rule
// naming the invitee is used under the first and warned about under the second (not yet a user).
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { brief, runDrift } from "./support";

const ADA = "ada.admin@acme.example";
const INVITEE = "pat.pending@acme.example";
const GONE_GROUP = "5f0c2a9e-0000-4000-8000-00000000d1f7";
const TYPE = "pulumi-nodejs:dynamic/devicemgmt:";

describe.each([false, true])("pendingInvitations %s", (pendingInvitations) => {
  let emulator: RunningEmulator;
  let workDir: string;
  let state: string;
  let ignoreFile: string;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, strict: { pendingInvitations } });
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-ignore-"));
    const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    const member = (await admin.roles.all()).find((r) => r.name === "Member")!;
    await admin.users.invite({ email: INVITEE, defaultRoleId: member.id });
    await admin.groups.create({ name: "Sandbox", parentId: null }); // made in the portal: no stack manages it
    // A stack that manages one group, deleted since (a stack export's shape, the per-kind type token).
    state = path.join(workDir, "state.json");
    fs.writeFileSync(
      state,
      JSON.stringify({
        version: 3,
        deployment: {
          resources: [
            {
              urn: `urn:pulumi:production::lab::${TYPE}Group::lab`,
              custom: true,
              id: GONE_GROUP,
              type: `${TYPE}Group`,
              outputs: { name: "Lab", parentId: null, configured: true },
            },
          ],
        },
      }),
    );
    ignoreFile = path.join(workDir, "drift-ignore");
    fs.writeFileSync(
      ignoreFile,
      [
        `user ${ADA}`,
        "user nobody@acme.example",
        `user ${INVITEE}`,
        "# every group: still, the managed group that is gone must be reported",
        "group *",
        "# devices are never listed as unmanaged, so this rule cannot match",
        "device *",
        "# not compared in this run (--kinds): not warned about",
        "theme *",
        "",
      ].join("\n"),
    );
  });

  afterAll(async () => {
    await emulator?.close();
  });

  it("ignores only unmanaged objects, and warns about each rule of a compared kind that matched nothing", async () => {
    const env = { DEVICEMGMT_BASE_URL: emulator.baseUrl, DEVICEMGMT_API_TOKEN: emulator.tokens.readOnly };
    emulator.resetStats();
    const run = await runDrift(workDir, ["--kinds", "user,group,device", "--ignore", ignoreFile, state], env);
    const findings = run.report.findings.map(brief);
    // The rule "group *" does not hide a managed group that is gone, nor does it hide anything but groups.
    expect(run.report.findings.filter((f) => f.category === "gone").map((f) => f.kind)).toEqual(["group"]);
    expect(run.report.findings.filter((f) => f.kind === "group" && f.category === "unmanaged")).toEqual([]);
    expect(findings.filter((f) => f.includes(ADA) || f.includes(INVITEE))).toEqual([]);
    expect(run.report.ignored.map((i) => i.reason)).toContain(`${ignoreFile}:1: ${ADA}`);
    expect(run.report.ignored.filter((i) => i.kind === "group").map((i) => i.reason)).toEqual([
      `${ignoreFile}:5: *`,
    ]);

    const unused = [`${ignoreFile}:2`, ...(pendingInvitations ? [`${ignoreFile}:3`] : []), `${ignoreFile}:7`];
    expect(run.report.unusedIgnoreRules.map((r) => r.source)).toEqual(unused);
    expect(run.report.unusedIgnoreRules[0]).toEqual({
      source: `${ignoreFile}:2`,
      kind: "user",
      pattern: "nobody@acme.example",
    });
    const warnings = run.stderr.split("\n").filter((line) => line.includes("warning:"));
    expect(warnings).toHaveLength(unused.length);
    expect(warnings[0]).toBe(
      `devicemgmt-drift: warning: ${ignoreFile}:2: "user nobody@acme.example" matched nothing the report would ` +
        "list as unmanaged; correct or remove it (a pending invitation is not yet a user).",
    );
    expect(warnings.at(-1)).toMatch(/"device \*" matched nothing .*; correct or remove it\.$/);
    expect(run.markdown).toContain("Ignore rules that matched nothing");
    expect(run.markdown).toContain(`nobody@acme.example`);
    expect(emulator.stats().writes).toBe(0);
  });
});
