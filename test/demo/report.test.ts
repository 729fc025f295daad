// The stand-in demo's display, on hand-made engine results: what a user reads must follow the CLI's shape
// (symbols, type tokens, summary wording) and leave unchanged resources out.
import { UNKNOWN } from "../../engine-stand-in";
import type { RunResult, Step, StepKind } from "../../engine-stand-in/types";
import {
  detailLines,
  durationLine,
  errorLines,
  formatValue,
  outputLines,
  stepLines,
  summaryLine,
} from "../../examples/demo/report";
import { formatOrganization, groupTreeLines, type OrganizationView } from "../../examples/demo/orgReport";

const GROUP = "pulumi-nodejs:dynamic/devicemgmt:Group";
const USER = "pulumi-nodejs:dynamic/devicemgmt:User";

function step(kind: StepKind, type: string, name: string, extra: Partial<Step> = {}): Step {
  return {
    kind,
    type,
    name,
    urn: `urn:pulumi:demo::org::${type}::${name}`,
    changedKeys: [],
    replaceKeys: [],
    ...extra,
  };
}

function result(steps: Step[]): Pick<RunResult, "steps"> {
  const byKind: RunResult["steps"] = { create: [], update: [], replace: [], delete: [], same: [] };
  for (const s of steps) byKind[s.kind].push(s);
  return { steps: byKind };
}

describe("summaryLine", () => {
  it("counts each kind in the CLI's order and words a preview as a plan", () => {
    const run = result([
      step("update", GROUP, "company", { changedKeys: ["name"] }),
      step("create", USER, "a"),
      step("create", USER, "b"),
      step("delete", GROUP, "old"),
      step("replace", USER, "c"),
      step("same", GROUP, "emea"),
    ]);
    expect(summaryLine(run, "preview")).toBe(
      "Resources: + 2 to create, ~ 1 to update, +- 1 to replace, - 1 to delete, 1 unchanged",
    );
    expect(summaryLine(run, "up")).toBe(
      "Resources: + 2 created, ~ 1 updated, +- 1 replaced, - 1 deleted, 1 unchanged",
    );
  });

  it("says only how many are unchanged when nothing changes, and 0 unchanged for an empty stack", () => {
    expect(summaryLine(result([step("same", GROUP, "a"), step("same", GROUP, "b")]), "up")).toBe(
      "Resources: 2 unchanged",
    );
    expect(summaryLine(result([]), "preview")).toBe("Resources: 0 unchanged");
    expect(summaryLine(result([step("create", GROUP, "a")]), "preview")).toBe("Resources: + 1 to create");
  });
});

describe("stepLines", () => {
  it("lists changing steps with symbol, type token, name, operation and changed keys; same is left out", () => {
    const lines = stepLines(
      result([
        step("same", GROUP, "emea"),
        step("update", GROUP, "company", { changedKeys: ["name"] }),
        step("create", USER, "berlin-trainer"),
      ]),
    );
    expect(lines).toEqual([
      `  +  ${USER}   berlin-trainer  create`,
      `  ~  ${GROUP}  company         update [diff: ~name]`,
    ]);
  });

  it("says there are no changes rather than printing nothing", () => {
    expect(stepLines(result([step("same", GROUP, "a")]))).toEqual(["    (no changes)"]);
  });

  it("with details, shows old => new under each step, and which keys force a replacement", () => {
    const update = step("update", GROUP, "company", {
      changedKeys: ["name"],
      changedValues: { name: { old: "Acme Training", new: "Acme Academy" } },
    });
    const replace = step("replace", USER, "ops", {
      changedKeys: ["email", "password"],
      replaceKeys: ["email"],
      changedValues: {
        email: { old: "a@x.example", new: "a@y.example" },
        password: { old: "[secret]", new: "[secret]" },
      },
    });
    expect(stepLines(result([update, replace]), { details: true })).toEqual([
      `  ~  ${GROUP}  company  update [diff: ~name]`,
      `        ~ name: "Acme Training" => "Acme Academy"`,
      `  +- ${USER}   ops      replace [diff: ~email ~password]`,
      `        ~ email: "a@x.example" => "a@y.example" (forces replacement)`,
      `        ~ password: "[secret]" => "[secret]"`,
    ]);
  });

  it("names a changed key without values when the engine gave none", () => {
    expect(detailLines(step("update", GROUP, "g", { changedKeys: ["parentId"] }))).toEqual([
      "        ~ parentId",
    ]);
  });
});

describe("values, durations and errors", () => {
  it("shows values as JSON, unknowns as the CLI's placeholder, and an absent value as (none)", () => {
    expect(formatValue("x")).toBe('"x"');
    expect(formatValue([{ roleId: UNKNOWN, groupId: "g1" }])).toBe(
      '[{"roleId":"output<string>","groupId":"g1"}]',
    );
    expect(formatValue(UNKNOWN)).toBe("output<string>");
    expect(formatValue(undefined)).toBe("(none)");
  });

  it("prints durations in tenths under ten seconds and whole seconds above", () => {
    expect(durationLine(4830)).toBe("Duration: 4.8s");
    expect(durationLine(61_400)).toBe("Duration: 61s");
  });

  it("lists each error with its resource and check failures", () => {
    expect(
      errorLines([
        {
          urn: "urn:pulumi:demo::org::type::ops-lead",
          op: "check",
          message: "invalid inputs\nmore",
          failures: [{ property: "email", reason: "not an e-mail address" }],
        },
        { op: "program", message: "boom" },
      ]),
    ).toEqual([
      "  error (check ops-lead): invalid inputs",
      "      email: not an e-mail address",
      "  error (program program): boom",
    ]);
  });
});

describe("outputLines", () => {
  it("lists outputs sorted, nested objects indented, secrets masked, and nothing for no outputs", () => {
    expect(
      outputLines({
        outputs: { users: { ops: "u1", emeaLead: "u2" }, migratedDevice: "d1", token: "s3cret" },
        secretOutputs: ["token"],
      }),
    ).toEqual([
      "Outputs:",
      '    migratedDevice: "d1"',
      '    token: "[secret]"',
      "    users: {",
      '        emeaLead: "u2"',
      '        ops: "u1"',
      "    }",
    ]);
    expect(outputLines({ outputs: {}, secretOutputs: [] })).toEqual([]);
  });
});

describe("formatOrganization", () => {
  const org: OrganizationView = {
    name: "Acme Devices",
    slug: "acme",
    groups: [
      {
        name: "Acme Training",
        configured: false,
        channels: [],
        children: [
          { name: "Berlin Lab", configured: true, channels: ["Safety Briefing / Stable"], children: [] },
        ],
      },
    ],
    users: [
      {
        name: "Emil Lindqvist",
        email: "emil@acme.example",
        roles: ["Group Admin@Berlin Lab", "Read Only@org"],
      },
    ],
    devices: [{ device: "Headset 01", channels: ["Training Simulator / Beta"] }],
  };

  it("indents the tree a level at a time and marks configured groups and their channels", () => {
    expect(groupTreeLines(org.groups)).toEqual([
      "  Acme Training",
      "    Berlin Lab  [configured; channel Safety Briefing / Stable]",
    ]);
  });

  it("prints groups, users with roles, and device channels", () => {
    expect(formatOrganization(org)).toEqual([
      "Organization Acme Devices (acme), as the API now reports it:",
      "Groups:",
      "  Acme Training",
      "    Berlin Lab  [configured; channel Safety Briefing / Stable]",
      "Users and roles:",
      "  emil@acme.example  Emil Lindqvist: Group Admin@Berlin Lab, Read Only@org",
      "Release channels on ungrouped devices:",
      "  Headset 01: Training Simulator / Beta",
    ]);
  });
});
