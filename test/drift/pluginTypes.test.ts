// The drift report reads a stack of the provider plugin (issue 42): its resources' type tokens are
// `devicemgmt:index:<Type>`, beside the dynamic resources' `pulumi-nodejs:dynamic/devicemgmt:<Type>`; the plugin's
// provider resource is not an object of the organization. Pure: test/plugin/bothWays.test.ts runs both on the CLI.
import { parseStackExport, SECRET, SECRET_SIGNATURE_KEY } from "../../provider/drift/state";

const urn = (type: string, name: string) => `urn:pulumi:dev::yaml-project::${type}::${name}`;
const resource = (type: string, name: string, outputs: Record<string, unknown>) => ({
  urn: urn(type, name),
  type,
  custom: true,
  id: `${name}-id`,
  inputs: { name: outputs.name },
  outputs,
});

it("reads plugin-typed resources as their kinds, and reports an unknown plugin type instead of skipping it", () => {
  const secret = { [SECRET_SIGNATURE_KEY]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:…" };
  const state = parseStackExport(
    JSON.stringify({
      version: 3,
      deployment: {
        resources: [
          resource("pulumi:providers:devicemgmt", "default_0_2_0", { baseUrl: "http://x", apiToken: secret }),
          resource("devicemgmt:index:Group", "lab", { name: "Lab", configured: true, connection: secret }),
          resource("pulumi-nodejs:dynamic/devicemgmt:Tag", "lobby", { name: "lobby" }),
          resource("devicemgmt:index:Gadget", "later", { name: "a kind of a newer version" }),
        ],
      },
    }),
    "state.json",
  );
  expect(state.resources.map((r) => [r.kind, r.name, r.id, r.declared])).toEqual([
    ["group", "lab", "lab-id", ["name"]],
    ["tag", "lobby", "lobby-id", ["name"]],
  ]);
  expect(state.resources[0].outputs).toEqual({ name: "Lab", configured: true, connection: SECRET });
  expect(state.unknown).toEqual([urn("devicemgmt:index:Gadget", "later")]);
});
