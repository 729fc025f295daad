// The bench's split of a checkpoint's bytes per resource (./stateSize.ts), on resources whose parts are known.
import { stateSizePerResource } from "./stateSize";

const PROVIDER = 'exports.handler = () => require("x").provider("group");\n';
const resource = (name: string, withTrace: boolean) => ({
  urn: `urn:pulumi:s::p::pulumi-nodejs:dynamic/devicemgmt:Group::${name}`,
  custom: true,
  type: "pulumi-nodejs:dynamic/devicemgmt:Group",
  id: "1",
  inputs: { __provider: PROVIDER, name },
  outputs: { __provider: PROVIDER, name, organizationId: "ö" },
  ...(withTrace
    ? {
        sourcePosition: "project:///index.ts#1,1",
        stackTrace: [{ sourcePosition: "project:///index.ts#1,1" }, {}],
      }
    : {}),
});
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

test("splits each resource into provider code, stack trace, inputs, outputs and the engine's fields, adding up", () => {
  const a = resource("a", true);
  const b = resource("bb", false);
  const size = stateSizePerResource([
    { urn: "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s", custom: false, type: "pulumi:pulumi:Stack" },
    {
      urn: "urn:pulumi:s::p::pulumi:providers:pulumi-nodejs::default",
      custom: true,
      type: "pulumi:providers:pulumi-nodejs",
    },
    a,
    b,
  ]);
  expect(size.resources).toBe(2);
  expect(size.total).toBe((bytes(a) + bytes(b)) / 2);
  // `"__provider":"<text>",` once in the inputs and once in the outputs of each.
  expect(size.provider).toBe(2 * (bytes("__provider") + 1 + bytes(PROVIDER) + 1));
  // Only `a` has a trace: `,"sourcePosition":…,"stackTrace":[…]`, averaged over both.
  expect(size.stackTrace).toBe(
    (1 +
      bytes("sourcePosition") +
      1 +
      bytes(a.sourcePosition) +
      1 +
      bytes("stackTrace") +
      1 +
      bytes(a.stackTrace)) /
      2,
  );
  expect(size.inputs).toBe((bytes({ name: "a" }) + bytes({ name: "bb" })) / 2);
  // UTF-8 bytes, not characters: "ö" is two.
  expect(size.outputs).toBe(
    (bytes({ name: "a", organizationId: "ö" }) + bytes({ name: "bb", organizationId: "ö" })) / 2,
  );
  expect(bytes({ organizationId: "ö" })).toBe(JSON.stringify({ organizationId: "ö" }).length + 1);
  expect(size.provider + size.stackTrace + size.inputs + size.outputs + size.engine).toBe(size.total);
  expect(size.engine).toBeGreaterThan(bytes(a.urn));
});

test("a state without resources of the program is all zeros", () => {
  expect(
    stateSizePerResource([
      { urn: "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s", custom: false, type: "pulumi:pulumi:Stack" },
    ]),
  ).toEqual({ resources: 0, total: 0, provider: 0, stackTrace: 0, inputs: 0, outputs: 0, engine: 0 });
});
