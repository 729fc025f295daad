// Names in the generated program: readable, unique, and a function of the organization only.
import { assignUnique, identifierFrom, planProgram, slugify } from "../../provider/export/naming";
import type { OrgModel } from "../../provider/export/model";
import { ADMIN, exampleGroups, GROUP_ADMIN, group, id, model, READ_ONLY, user } from "./support";

const groupNames = (m: OrgModel) =>
  Object.fromEntries(planProgram(m).groups.map((g) => [g.group.path.join(" > "), g.resourceName]));

describe("slugify", () => {
  it.each([
    ["Berlin Lab", "berlin-lab"],
    ["  EMEA / North  ", "emea-north"],
    ["Zürich Ærø Crème", "zurich-ærø-creme"],
    ["東京 Lab", "東京-lab"],
    ['Lab "North" \\ 2', "lab-north-2"],
    ["line one\nline two", "line-one-line-two"],
    ["🚀 --- !!!", ""],
  ])("%j -> %j", (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it("keeps long names short, without a trailing dash", () => {
    const slug = slugify(`${"a".repeat(39)} ${"b".repeat(50)}`);
    expect(slug).toBe("a".repeat(39));
    expect([...slugify("x".repeat(255))]).toHaveLength(40);
  });
});

describe("assignUnique", () => {
  it("uses the first candidate when nobody else wants it", () => {
    expect(assignUnique([{ candidates: ["lab"] }, { candidates: ["depot"] }], new Set())).toEqual([
      "lab",
      "depot",
    ]);
  });

  it("gives a shared candidate to neither owner, so no name depends on who came first", () => {
    const names = assignUnique(
      [{ candidates: ["lab", "emea-lab"] }, { candidates: ["lab", "americas-lab"] }],
      new Set(),
    );
    expect(names).toEqual(["emea-lab", "americas-lab"]);
  });

  it("numbers only when every candidate collides, first come unnumbered", () => {
    const taken = new Set<string>();
    const names = assignUnique(
      [
        { candidates: ["spare", "emea-spare"] },
        { candidates: ["spare", "emea-spare"] },
        { candidates: ["spare", "emea-spare"] },
      ],
      taken,
    );
    expect(names).toEqual(["emea-spare", "emea-spare-2", "emea-spare-3"]);
    expect([...taken].sort()).toEqual(["emea-spare", "emea-spare-2", "emea-spare-3"]);
  });

  it("never reuses a taken name, and skips empty candidates", () => {
    const names = assignUnique(
      [{ candidates: ["", "emea"] }, { candidates: ["emea"], numberBase: "x" }],
      new Set(["emea"]),
    );
    expect(names).toEqual(["emea-2", "x"]);
  });
});

describe("identifierFrom", () => {
  it.each([
    ["berlin-lab", "berlinLab"],
    ["2024-cohort", "group2024Cohort"],
    ["東京-lab", "東京Lab"],
    ["", "group"],
  ])("%j -> %j", (slug, identifier) => {
    expect(identifierFrom(slug, "group")).toBe(identifier);
  });
});

describe("planProgram names", () => {
  it("names groups by their own name when it is unique", () => {
    expect(groupNames(model({ groups: exampleGroups() }))).toEqual({
      "Acme Training": "acme-training",
      "Acme Training > Americas": "americas",
      "Acme Training > Americas > Austin Lab": "austin-lab",
      "Acme Training > EMEA": "emea",
      "Acme Training > EMEA > Berlin Lab": "berlin-lab",
    });
  });

  it("prefixes the parent on a collision, then the path, and numbers same-named siblings in id order", () => {
    const groups = [
      group("acme", "Acme", null),
      group("emea", "EMEA", "acme"),
      group("americas", "Americas", "acme"),
      group("emea-lab", "Lab", "emea"),
      group("americas-lab", "Lab", "americas"),
      // A group literally called "EMEA Lab" takes that name at the first level; EMEA's "Lab" moves on.
      group("literal", "EMEA Lab", "acme"),
      group("spare-b", "Spare", "emea"),
      group("spare-a", "Spare", "emea"),
    ];
    const names = planProgram(model({ groups })).groups.map((g) => [g.group.id, g.resourceName]);
    expect(Object.fromEntries(names)).toEqual({
      [id("acme")]: "acme",
      [id("emea")]: "emea",
      [id("americas")]: "americas",
      [id("americas-lab")]: "americas-lab",
      [id("literal")]: "emea-lab",
      [id("emea-lab")]: "acme-emea-lab",
      [[id("spare-a"), id("spare-b")].sort()[0]]: "emea-spare",
      [[id("spare-a"), id("spare-b")].sort()[1]]: "emea-spare-2",
    });
  });

  it("names users by the e-mail's local part, by the whole e-mail when that collides", () => {
    const plan = planProgram(
      model({
        users: [
          user("emil.lindqvist@acme.example", READ_ONLY),
          user("ops@acme.example", READ_ONLY),
          user("ops@partner.example", READ_ONLY),
        ],
      }),
    );
    expect(plan.users.map((u) => u.resourceName)).toEqual([
      "emil-lindqvist",
      "ops-acme-example",
      "ops-partner-example",
    ]);
  });

  it("keeps resource names unique across kinds and variables valid and unique", () => {
    const groups = [
      group("class", "class", null, false),
      group("cohort", "2024 Cohort", "class", true),
      group("ada", "Ada Admin", "class", true),
    ];
    const plan = planProgram(
      model({
        groups,
        users: [user("ada.admin@acme.example", ADMIN, [[GROUP_ADMIN, "cohort"]])],
        groupChannels: [
          { groupId: id("cohort"), channel: { appName: "Safety Briefing", channelName: "Stable" } },
        ],
        deviceChannels: [
          {
            deviceId: id("h1"),
            deviceName: "Headset 01",
            channel: { appName: "Safety Briefing", channelName: "Stable" },
          },
        ],
      }),
    );
    const resourceNames = [
      ...plan.groups.map((g) => g.resourceName!),
      ...plan.users.map((u) => u.resourceName),
      ...plan.groupChannels.map((a) => a.resourceName),
      ...plan.devices.flatMap((d) => d.channels.map((a) => a.resourceName)),
    ];
    expect(new Set(resourceNames).size).toBe(resourceNames.length);
    expect(plan.users[0].resourceName).toBe("ada-admin-acme-example");
    const variables = [
      ...plan.roles.map((r) => r.variable),
      ...plan.channels.map((c) => c.variable),
      ...plan.groups.flatMap((g) => (g.variable ? [g.variable] : [])),
      ...plan.devices.map((d) => d.variable),
    ];
    expect(new Set(variables).size).toBe(variables.length);
    for (const variable of variables) expect(variable).toMatch(/^[\p{ID_Start}][\p{ID_Continue}]*$/u);
    expect(plan.groups.find((g) => g.group.name === "class")?.variable).toBe("classGroup");
    expect(plan.groups.find((g) => g.group.name === "2024 Cohort")?.variable).toBe("group2024Cohort");
    expect(plan.devices[0].variable).toBe("headset01Device");
  });

  it("tells same-named roles of the two types apart", () => {
    const plan = planProgram(
      model({
        groups: [group("lab", "Lab", null, true)],
        users: [
          user("a@acme.example", { name: "Viewer", type: "organization" }, [
            [{ name: "Viewer", type: "group" }, "lab"],
          ]),
        ],
      }),
    );
    expect(plan.roles.map((r) => [r.ref.type, r.variable])).toEqual([
      ["organization", "viewerOrgRole"],
      ["group", "viewerGroupRole"],
    ]);
  });

  it("does not depend on the order the API listed things in", () => {
    const ordered = model({
      groups: [...exampleGroups(), group("spare-1", "Spare", "emea"), group("spare-2", "Spare", "emea")],
      users: [
        user("emil.lindqvist@acme.example", READ_ONLY, [
          [GROUP_ADMIN, "berlin"],
          [GROUP_ADMIN, "austin"],
        ]),
        user("ops@acme.example", ADMIN),
        user("ops@partner.example", ADMIN),
      ],
      groupChannels: [
        { groupId: id("berlin"), channel: { appName: "Training Simulator", channelName: "Production" } },
        { groupId: id("berlin"), channel: { appName: "Safety Briefing", channelName: "Stable" } },
        { groupId: id("austin"), channel: { appName: "Safety Briefing", channelName: "Stable" } },
      ],
      leftOut: ["b", "a"],
    });
    const reversed: OrgModel = {
      ...ordered,
      groups: [...ordered.groups].reverse(),
      users: [...ordered.users].reverse().map((u) => ({ ...u, groupRoles: [...u.groupRoles].reverse() })),
      groupChannels: [...ordered.groupChannels].reverse(),
      leftOut: [...ordered.leftOut].reverse(),
    };
    expect(planProgram(reversed)).toEqual(planProgram(ordered));
  });
});
