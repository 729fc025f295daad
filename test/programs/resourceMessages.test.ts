// What the provider says about a resource (upload progress, warnings) shows on that resource: on the real Pulumi
// CLI, each such diagnostic carries the URN of the resource it is about (a child of a component included), names
// the file, and a warning counts as the resource's warning. State written without the URN (before 0.2) still logs,
// on the stack, as it did: the replayed checkpoints (upgrade tests) cover that path.
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { useProgramStack } from "../harness/programStack";
import * as dm from "../../provider";
import type { Message, RunResult } from "../engine";

const org = useProgramStack({ project: "devicemgmt-messages" });

const manual = () => path.join(org.dir, "manual.pdf");
const icon = () => path.join(org.dir, "menu-icon.png");

class Site extends pulumi.ComponentResource {
  constructor(name: string) {
    super("acme:training:Site", name);
    new dm.File(`${name}-manual`, { source: manual(), path: "/sdcard/Docs" }, { parent: this });
  }
}

function program() {
  return () => {
    new Site("berlin");
    new dm.Image("menu-icon", { source: icon() });
  };
}

const urnOf = (result: RunResult, name: string) =>
  [...result.steps.create, ...result.steps.delete].find((s) => s.name === name)!.urn;
const about = (result: RunResult, pattern: RegExp): Message[] =>
  result.messages.filter((m) => pattern.test(m.message));

let created: RunResult;

test("upload progress shows on the resource it is about, naming the file", async () => {
  fs.writeFileSync(manual(), "safety manual, first edition");
  fs.writeFileSync(icon(), "icon, first drawing");
  created = await org.engine.up(program());
  expect(created.errors).toEqual([]);
  const fileUrn = urnOf(created, "berlin-manual");
  expect(fileUrn).toContain("acme:training:Site$pulumi-nodejs:dynamic/devicemgmt:File::berlin-manual");

  const fileProgress = about(created, /manual\.pdf: uploaded/);
  expect(fileProgress).toEqual([
    { severity: "info", urn: fileUrn, message: "manual.pdf: uploaded 28 of 28 bytes (part 1 of 1)" },
  ]);
  const iconProgress = about(created, /menu-icon\.png: uploaded/);
  expect(iconProgress.map((m) => m.urn)).toEqual([urnOf(created, "menu-icon")]);
  // Nothing the provider says lands on the stack.
  expect(about(created, /uploaded/).filter((m) => m.urn === undefined || /Stack::/.test(m.urn))).toEqual([]);
});

test("a warning of the provider is the resource's warning", async () => {
  const destroyed = await org.engine.destroy();
  expect(destroyed.errors).toEqual([]);
  const warnings = about(destroyed, /the API cannot delete images/);
  expect(warnings).toEqual([
    expect.objectContaining({ severity: "warning", urn: urnOf(created, "menu-icon") }),
  ]);
  expect(destroyed.warnings.some((w) => /the API cannot delete images/.test(w))).toBe(true);
  // The file is gone; the image stays (the API cannot delete it).
  expect((await org.admin.files.all()).filter((f) => f.filename === "manual.pdf")).toEqual([]);
});
