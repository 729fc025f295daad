// Issue #41 item 4: a second kind over objects another kind manages is a declared relation. A kind over
// `POST /groups/{groupId}/duplicate` is declared here as its folder declares it (provider/kinds/groupCopy/, whose
// program test runs the report on the CLI): its copies are Groups to the drift report (matched and compared as
// groups, never "not managed by any stack") and to the exporter (read as groups; the related kind writes no
// section). A control kind without the relation shows what the declaration changes: the same copy listed as an
// unmanaged Group.
import { z } from "zod";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient, type Group } from "../../provider/client";
import { defineKind, relatedFacets, type KindDefinition } from "../../provider/framework";
import { KINDS } from "../../provider/kinds";
import type { ResourceKind } from "../../provider/kindKeys";
import { driftKindsOf } from "../../provider/drift/kinds";
import { LiveOrganization } from "../../provider/drift/live";
import { driftReport, type Finding } from "../../provider/drift/report";
import type { ManagedResource } from "../../provider/drift/state";
import { readOrganization } from "../../provider/export/read";

const groupCopyProperties = {
  sourceGroupId: { schema: z.string(), change: "replace" },
  name: { schema: z.string(), change: "update", fromLive: (live: Group) => live.name },
} as const;

const identity = {
  kind: "groupCopy",
  type: "GroupCopy",
  naturalKey: false,
  properties: groupCopyProperties,
  claim: null,
  outputs: ["parentId", "configured"],
  handler: KINDS.group.handler as unknown as KindDefinition["handler"],
  docs: KINDS.groupCopy.docs,
} as const;

/** The kind as its definition.ts would declare it: its objects are Groups. */
const groupCopyKind = defineKind({
  ...identity,
  ...relatedFacets("GroupCopy", { objectsOf: "group", why: "a duplicate of a group is a group" }),
});

/** The same kind without the relation: a facet of its own, reading nothing. */
const unrelatedCopyKind = defineKind({
  ...identity,
  drift: { title: "Group copies", key: (r) => r.id, stateLabel: (r) => r.id },
  export: { notExported: "not written" },
});

const brief = (f: Finding) => `${f.category} ${f.kind} ${f.label} ${f.managedBy.join(",")}`;

describe("a kind whose objects are another kind's", () => {
  let emulator: RunningEmulator;
  let client: DeviceMgmtClient;
  let lab: Group;
  let copy: Group;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    lab = await client.groups.create({ name: "Lab", parentId: null });
    // What the copy kind's create makes, to the report: a group like any other (made here with a plain create).
    copy = await client.groups.create({ name: "Lab copy", parentId: null });
    await client.groups.create({ name: "Sandbox", parentId: null }); // made in the portal: no stack manages it
  });
  afterAll(() => emulator?.close());

  const resources = (): ManagedResource[] => [
    {
      kind: "group",
      stack: "lab/production",
      urn: "urn:pulumi:production::lab::pulumi-nodejs:dynamic/devicemgmt:Group::lab",
      name: "lab",
      id: lab.id,
      outputs: { name: "Lab", parentId: null, configured: false },
      declared: ["name"],
    },
    {
      kind: "groupCopy" as ResourceKind,
      stack: "lab/production",
      urn: "urn:pulumi:production::lab::pulumi-nodejs:dynamic/devicemgmt:GroupCopy::lab-copy",
      name: "lab-copy",
      id: copy.id,
      outputs: { sourceGroupId: lab.id, name: "Lab copy", parentId: null, configured: false },
      declared: ["sourceGroupId", "name"],
    },
  ];

  const report = (definition: KindDefinition) =>
    driftReport(
      new LiveOrganization(client),
      [{ stack: "lab/production", file: "state.json", resources: resources(), unknown: [], unreadable: [] }],
      {
        kinds: ["group"],
        ignore: [],
        auditSince: new Date(Date.now() - 60_000).toISOString(),
        driftKinds: driftKindsOf([...Object.values(KINDS), definition]),
      },
    );

  it("the drift report matches the copy with its Group and lists only the group no stack manages", async () => {
    const drift = await report(groupCopyKind);
    expect(drift.findings.map(brief)).toEqual(['unmanaged group "Sandbox" ']);
    expect(drift.notCompared).toEqual([]);
  });

  it("without the relation, the same copy is an unmanaged Group", async () => {
    const drift = await report(unrelatedCopyKind);
    expect(drift.findings.map(brief).sort()).toEqual([
      'unmanaged group "Lab copy" ',
      'unmanaged group "Sandbox" ',
    ]);
  });

  it("a copy renamed in the portal is a changed Group, managed by the copy's resource", async () => {
    await client.groups.update(copy.id, { name: "Lab copy (renamed)", parentId: null });
    try {
      const drift = await report(groupCopyKind);
      const changed = drift.findings.filter((f) => f.category === "changed");
      expect(changed.map(brief)).toEqual(['changed group "Lab copy (renamed)" lab/production: lab-copy']);
      expect(changed[0].differences).toEqual([
        { field: "name", state: "Lab copy", live: "Lab copy (renamed)" },
      ]);
    } finally {
      await client.groups.update(copy.id, { name: "Lab copy", parentId: null });
    }
  });

  it("the exporter reads the copy as a Group, and the related kind writes no section of its own", async () => {
    const model = await readOrganization(client, { kinds: ["groups"] });
    expect(model.groups.map((g) => g.name).sort()).toEqual(["Lab", "Lab copy", "Sandbox"]);
    expect(groupCopyKind.export).toEqual({
      notExported:
        "its objects are group objects (a duplicate of a group is a group): the exporter writes them as such",
    });
    expect(groupCopyKind.relation).toEqual({ objectsOf: "group", why: "a duplicate of a group is a group" });
  });
});
