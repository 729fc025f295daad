// devicemgmt-export --from-state's program (provider/export/stateProgram.ts) from hand-made stack exports: what a
// YAML program cannot say as the stack recorded it (names a reference cannot use, text holding `${`, secrets), and
// what the move refuses. test/plugin/move.test.ts runs the whole move on the real CLI.
import { parse } from "yaml";
import {
  programFromState,
  UnmovableResourcesError,
  type ExportedResource,
} from "../../provider/export/stateProgram";

const urn = (type: string, name: string) => `urn:pulumi:prod::ts-org::${type}::${name}`;
const GROUP = "pulumi-nodejs:dynamic/devicemgmt:Group";
const SECRET = {
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  ciphertext: "v1:abc",
};

const group = (
  name: string,
  id: string,
  inputs: Record<string, unknown>,
  extra: Partial<ExportedResource> = {},
) => ({
  urn: urn(GROUP, name),
  type: GROUP,
  custom: true,
  id,
  inputs: { __provider: "exports.handler = …", __claimant: { name }, ...inputs },
  ...extra,
});

type Program = {
  resources: Record<string, { type: string; properties?: Record<string, unknown>; options: object }>;
};

it("names resources so that references work, and keeps `${` in text as text", () => {
  const { yaml, moved } = programFromState(
    [
      group("emea.root", "g1", { name: "EMEA ${region}", configured: false }),
      group(
        "berlin",
        "g2",
        { name: "Berlin", parentId: "g1" },
        { propertyDependencies: { parentId: [urn(GROUP, "emea.root")] } },
      ),
      group("emea/root", "g3", { name: "Other", parentId: "g1" }),
    ],
    "ts-org-yaml",
  );
  const program = parse(yaml) as Program;
  expect(Object.keys(program.resources)).toEqual(["emea_root", "berlin", "emea_root-2"]);
  expect(program.resources.emea_root.properties).toEqual({ name: "EMEA $${region}", configured: false });
  // A recorded dependency becomes a reference; the same id without one stays a literal.
  expect(program.resources.berlin.properties?.parentId).toBe("${emea_root.id}");
  expect(program.resources["emea_root-2"].properties?.parentId).toBe("g1");
  expect(moved.map((m) => m.name)).toEqual(["emea_root", "berlin", "emea_root-2"]);
});

it("never writes a secret: the program reads it from a config key the user sets", () => {
  const experience = "pulumi-nodejs:dynamic/devicemgmt:HeadsetExperience";
  const { yaml, secretConfig } = programFromState(
    [
      {
        urn: urn(experience, "kiosk"),
        type: experience,
        custom: true,
        id: "g1",
        inputs: { groupId: "g1", mode: "kiosk-menu", adminPin: SECRET, resetOnDelete: false },
      },
    ],
    "p",
  );
  expect(yaml).not.toContain("ciphertext");
  expect(secretConfig).toEqual([{ key: "kiosk_adminPin", resource: "kiosk", property: "adminPin" }]);
  const program = parse(yaml) as Program & { config: object };
  expect(program.config).toEqual({ kiosk_adminPin: { type: "string" } });
  expect(program.resources.kiosk.properties?.adminPin).toBe("${kiosk_adminPin}");
});

it("never writes a secret held inside a value either (an element or a field of it)", () => {
  const experience = "pulumi-nodejs:dynamic/devicemgmt:HeadsetExperience";
  const inputs = { groupId: "g1", mode: "kiosk-menu", shortcuts: ["boundary", SECRET] };
  const kiosk = { urn: urn(experience, "kiosk"), type: experience, custom: true, id: "g1", inputs };
  const { yaml, secretConfig } = programFromState([kiosk], "p");
  expect(yaml).not.toContain("ciphertext");
  expect(secretConfig).toEqual([{ key: "kiosk_shortcuts", resource: "kiosk", property: "shortcuts" }]);
});

it("refuses a resource with its own connection, and leaves other packages' resources where they are", () => {
  const withConnection = group("staging", "g9", { name: "Staging", connection: SECRET });
  expect(() => programFromState([group("a", "g1", { name: "A" }), withConnection], "p")).toThrow(
    UnmovableResourcesError,
  );
  expect(() => programFromState([withConnection], "p")).toThrow(/staging: it declares its own connection/);
  const bucket = {
    urn: urn("aws:s3/bucket:Bucket", "logs"),
    type: "aws:s3/bucket:Bucket",
    custom: true,
    id: "b",
  };
  const { moved, others } = programFromState([group("a", "g1", { name: "A" }), bucket], "p");
  expect(moved.map((m) => m.name)).toEqual(["a"]);
  expect(others).toEqual([bucket.urn]);
});

it("reads resources of the legacy type by the kind their serialized provider names", () => {
  const legacy = {
    urn: urn("pulumi-nodejs:dynamic:Resource", "old"),
    type: "pulumi-nodejs:dynamic:Resource",
    custom: true,
    id: "g1",
    inputs: {
      __provider: 'exports.handler = () => require("pulumi-devicemgmt/runtime").handler("group");',
      name: "Old",
    },
  };
  const program = parse(programFromState([legacy], "p").yaml) as Program;
  expect(program.resources.old).toEqual({
    type: "devicemgmt:Group",
    properties: { name: "Old" },
    options: { import: "g1" },
  });
});

it("names the files to upload from the program's own folder, at any depth", () => {
  const bundle = "pulumi-nodejs:dynamic/devicemgmt:AppBundle";
  const { yaml } = programFromState(
    [
      {
        urn: urn(bundle, "kit"),
        type: bundle,
        custom: true,
        id: "b1",
        inputs: { appId: "a1", files: [{ source: "content/a.obb" }, { source: "/srv/b.obb" }] },
      },
    ],
    "p",
    { program: "/work/ts-org", out: "/work/ts-org-yaml" },
  );
  expect((parse(yaml) as Program).resources.kit.properties?.files).toEqual([
    { source: "../ts-org/content/a.obb" },
    { source: "/srv/b.obb" },
  ]);
});
