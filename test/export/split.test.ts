// `devicemgmt-export --split` on hand-made models: which program declares each object (exactly one), which ones
// the others look up, and the run order the READMEs give. The round trip on the emulator is splitRoundtrip.test.ts.
import { planProgram } from "../../provider/export/naming";
import type { OrgModel } from "../../provider/export/model";
import { renderFiles, renderSplitReadme } from "../../provider/export/render";
import { splitModel, type SplitProgram } from "../../provider/export/split";
import {
  exampleGroups,
  group,
  GROUP_ADMIN,
  id,
  model,
  nightShift,
  READ_ONLY,
  RENDER_OPTIONS,
  user,
} from "./support";

const GROUP_VIEWER = { name: "Group Viewer", type: "group" } as const;

/** Acme Training > EMEA > Berlin Lab, Acme Training > Americas > Austin Lab, and a second root, Outpost. */
const org: OrgModel = model(
  {
    groups: [...exampleGroups(), group("outpost", "Outpost", null, true)],
    users: [
      user("ops@acme.example", READ_ONLY),
      user("root.admin@acme.example", READ_ONLY, [[GROUP_ADMIN, "acme"]]),
      user("berlin.lead@acme.example", READ_ONLY, [
        [GROUP_ADMIN, "berlin"],
        [GROUP_VIEWER, "acme"],
      ]),
      user("roaming@acme.example", READ_ONLY, [
        [GROUP_ADMIN, "berlin"],
        [GROUP_ADMIN, "austin"],
      ]),
    ],
    groupChannels: [
      { groupId: id("berlin"), channel: { appName: "Training Simulator", channelName: "Production" } },
      { groupId: id("outpost"), channel: { appName: "Safety Briefing", channelName: "Stable" } },
    ],
    deviceChannels: [
      {
        deviceId: id("h1"),
        deviceName: "Headset 01",
        channel: { appName: "Safety Briefing", channelName: "Stable" },
      },
    ],
    themes: [nightShift()],
    experiences: [
      {
        kind: "device",
        owner: { groupId: id("austin") },
        pin: "none",
        fields: { mode: "lock-task", visibleContents: [{ type: "app", id: id("app") }] },
        refs: { [id("app")]: { kind: "app", name: "Training Simulator" } },
      },
    ],
    tags: [{ id: id("tag-site"), name: "site-berlin" }],
    placedDevices: [
      {
        id: id("h2"),
        serialNumber: "ACM0002",
        name: "Headset 02",
        groupId: id("berlin"),
        tags: ["site-berlin"],
        customFields: [],
      },
      {
        id: id("h3"),
        serialNumber: "ACM0003",
        name: "Headset 03",
        groupId: null,
        tags: [],
        customFields: [],
      },
    ],
    channelVersions: [{ appName: "Training Simulator", channelName: "Production", version: "2.5.0" }],
    leftOut: ["Something the export could not read."],
  },
  ["groups", "users", "attachments", "themes", "experiences", "tags", "devices", "versions"],
);

const byFolder = (programs: SplitProgram[]) => Object.fromEntries(programs.map((p) => [p.folder, p]));
const declaredIn = (program: SplitProgram) => {
  const plan = planProgram(program.model);
  return [
    ...plan.adopt.map(([name]) => name),
    ...plan.placement.devices.map((d) => d.resourceName),
    ...plan.placement.channelVersions.map((v) => v.resourceName),
    ...plan.content.experiences.map((x) => x.resourceName),
  ].sort();
};
const indexOf = (program: SplitProgram) =>
  renderFiles(planProgram(program.model), { ...RENDER_OPTIONS, project: `acme-${program.folder}` })[
    "index.ts"
  ];

describe("split at the top-level groups (depth 1)", () => {
  const programs = splitModel(org, 1);
  const parts = byFolder(programs);

  it("writes the shared program first, one per top-level group, and cross-region last", () => {
    expect(programs.map((p) => [p.folder, p.stage, p.label])).toEqual([
      ["shared", "shared", "shared"],
      ["acme-training", "region", "Acme Training"],
      ["outpost", "region", "Outpost"],
    ]);
    // At depth 1 the whole tree of Acme Training is one region: the roaming user's roles are all in it, and
    // without a user whose roles reach two regions there is no cross-region program.
    expect(parts["acme-training"].model.users.map((u) => u.email)).toEqual([
      "root.admin@acme.example",
      "berlin.lead@acme.example",
      "roaming@acme.example",
    ]);
    const listed = programs.map(({ folder, stage, label }) => ({ folder, stage, label }));
    expect(renderSplitReadme(org.organization, listed, "production")).not.toMatch(
      /several regions|cross-region/,
    );
  });

  it("declares every object the single program declares exactly once, with the same resource names", () => {
    const whole = declaredIn({ folder: "all", stage: "shared", label: "all", model: org });
    const split = programs.flatMap(declaredIn);
    expect(split.sort()).toEqual(whole);
    expect(new Set(split).size).toBe(split.length);
  });
});

describe("split at the regions below the company group (depth 2)", () => {
  const programs = splitModel(org, 2);
  const parts = byFolder(programs);
  const emails = (p: SplitProgram) => p.model.users.map((u) => u.email);

  it("makes a region of each group at depth 2, and keeps the groups above and the other roots shared", () => {
    expect(programs.map((p) => p.folder)).toEqual([
      "shared",
      "acme-training-americas",
      "acme-training-emea",
      "cross-region",
    ]);
    const declared = (p: SplitProgram) => planProgram(p.model).groups.filter((g) => g.resourceName);
    expect(declared(parts.shared).map((g) => g.group.name)).toEqual(["Acme Training", "Outpost"]);
    expect(declared(parts["acme-training-emea"]).map((g) => g.group.name)).toEqual(["EMEA", "Berlin Lab"]);
  });

  it("puts each user where its group roles are: none or only shared groups shared, one region there, several cross-region", () => {
    expect(emails(parts.shared)).toEqual(["ops@acme.example", "root.admin@acme.example"]);
    expect(emails(parts["acme-training-emea"])).toEqual(["berlin.lead@acme.example"]);
    expect(emails(parts["acme-training-americas"])).toEqual([]);
    expect(emails(parts["cross-region"])).toEqual(["roaming@acme.example"]);
  });

  it("puts devices, channels and experiences with their group's region, and the organization's own in shared", () => {
    const emea = parts["acme-training-emea"].model;
    expect(emea.placedDevices?.map((d) => d.name)).toEqual(["Headset 02"]);
    expect(emea.groupChannels.map((a) => a.groupId)).toEqual([id("berlin")]);
    expect(emea.tags).toEqual([]);
    expect(parts["acme-training-americas"].model.experiences?.map((x) => x.owner)).toEqual([
      { groupId: id("austin") },
    ]);
    const shared = parts.shared.model;
    expect(shared.placedDevices?.map((d) => d.name)).toEqual(["Headset 03"]);
    expect(shared.deviceChannels).toHaveLength(1);
    expect(shared.groupChannels.map((a) => a.groupId)).toEqual([id("outpost")]);
    expect([shared.themes, shared.tags, shared.channelVersions].map((l) => l?.length)).toEqual([1, 1, 1]);
    expect(shared.leftOut).toEqual(org.leftOut);
    expect(emea.leftOut).toEqual([]);
  });

  it("declares every object exactly once across the programs", () => {
    const split = programs.flatMap(declaredIn);
    expect(split.sort()).toEqual(declaredIn({ folder: "all", stage: "shared", label: "all", model: org }));
  });

  it("has a region look up the shared groups above it and the shared tags, and cross-region look up every group", () => {
    const emea = indexOf(parts["acme-training-emea"]);
    expect(emea).toContain(`dm.getGroupOutput({ name: "Acme Training" })`);
    expect(emea).toMatch(/new dm\.Group\(\s*"emea",\s*\{\s*name: "EMEA",\s*parentId: acmeTraining\.id,/);
    expect(emea).not.toContain(`new dm.Group("acme-training"`);
    expect(emea).not.toContain("new dm.Tag(");
    expect(emea).toContain(`"site-berlin"`);
    const crossRegion = indexOf(parts["cross-region"]);
    expect(crossRegion).not.toContain("new dm.Group(");
    expect(crossRegion).toContain(`dm.getGroupOutput({ name: "Berlin Lab", parentId: emea.id })`);
    expect(crossRegion).toMatch(/new dm\.User\(\s*"roaming",/);
    expect(indexOf(parts.shared)).toMatch(/new dm\.Group\(\s*"acme-training",/);
  });

  it("gives each README its place in the order, and the top README the order and the drift check", () => {
    const listed = programs.map(({ folder, stage, label }) => ({ folder, stage, label }));
    const readme = (p: SplitProgram, i: number) =>
      renderFiles(planProgram(p.model), {
        ...RENDER_OPTIONS,
        split: { program: listed[i], programs: listed },
      })["README.md"];
    expect(readme(programs[0], 0)).toContain("Run it first: the regions look up what it declares.");
    expect(readme(programs[1], 1)).toContain("after the shared program, side by side with the other regions");
    expect(readme(programs[3], 3)).toContain("last, after every region");
    const top = renderSplitReadme(org.organization, listed, "production");
    const order = [
      "(cd shared",
      "(cd acme-training-americas",
      "(cd acme-training-emea",
      "wait",
      "(cd cross-region",
    ];
    const at = order.map((line) => top.indexOf(line));
    expect(at.every((n) => n >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(top).toContain(
      "npx devicemgmt-drift shared.json acme-training-americas.json acme-training-emea.json cross-region.json",
    );
  });
});

it("refuses a depth whose regions could not find a shared group above them by name", () => {
  const twins = model({
    groups: [group("a1", "Acme", null), group("a2", "Acme", null), group("x", "X", "a1")],
  });
  expect(() => splitModel(twins, 2)).toThrow(/group "Acme" has a same-named sibling.*smaller --split-depth/s);
  expect(splitModel(twins, 1).map((p) => p.folder)).toEqual(["shared", "acme", "acme-2"]);
});
