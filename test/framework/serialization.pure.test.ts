// The provider each resource serializes into state, captured exactly as dynamic.Resource produces it.
import * as pulumi from "@pulumi/pulumi";

const STACK_TOKEN = "41|stackSecretTokenValue0123456789abcdefABCDEF";
const RESOURCE_TOKEN = "42|perResourceSecretToken0123456789abcdefXYZ";
const BASE_URL = "http://127.0.0.1:4999/api/v3";

const serialized = new Map<string, unknown>();

// setMocks installs the mocks before it returns; a failure its promise carries fails the tests (beforeAll).
const mocksSet = pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      serialized.set(args.name, args.inputs.__provider);
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: () => ({}),
  },
  "serialization-test",
  "dev",
  false,
);
beforeAll(() => mocksSet);
pulumi.runtime.setAllConfig({ "devicemgmt:apiToken": STACK_TOKEN, "devicemgmt:baseUrl": BASE_URL }, [
  "devicemgmt:apiToken",
]);

const ID = "11111111-1111-4111-8111-111111111111";

async function registerAll(): Promise<void> {
  // Imported after setMocks, as a program would be.
  const dm: typeof import("../../provider") = require("../../provider");
  const connection = { baseUrl: BASE_URL, apiToken: pulumi.secret(RESOURCE_TOKEN) };
  const resources: pulumi.CustomResource[] = [
    new dm.Group("group", { name: "g", connection }),
    new dm.User("user", { firstName: "a", lastName: "b", email: "a@b.io", defaultRoleId: ID, connection }),
    new dm.GroupReleaseChannel("grc", { groupId: ID, releaseChannelId: ID, connection }),
    new dm.DeviceReleaseChannel("drc", { deviceId: ID, releaseChannelId: ID, connection }),
    new dm.DeviceMigration("mig", { deviceId: ID, organizationSlug: "acme-staging", connection }),
  ];
  await Promise.all(resources.map((r) => new Promise((resolve) => r.urn.apply(resolve))));
}

describe("serialized providers", () => {
  beforeAll(registerAll);

  it("hold no token or config value, stay small, and delegate to the package runtime", () => {
    expect([...serialized.keys()].sort()).toEqual(["drc", "grc", "group", "mig", "user"]);
    for (const text of serialized.values()) {
      expect(typeof text).toBe("string");
      const code = text as string;
      expect(code).not.toContain(STACK_TOKEN);
      expect(code).not.toContain(RESOURCE_TOKEN);
      expect(code).not.toContain(BASE_URL);
      expect(code).not.toContain("4999");
      expect(code).toContain('require("pulumi-devicemgmt/runtime")');
      // One require of the runtime, naming the kind: stored twice per resource (inputs and outputs).
      expect(Buffer.byteLength(code)).toBeLessThanOrEqual(300);
    }
  });

  it("is the same text for every resource of a kind, so the plugin configures it once", () => {
    const kinds = new Set(serialized.values());
    expect(kinds.size).toBe(5);
  });

  it("deserializes in the repository root into the installed runtime's provider of the kind", async () => {
    const requireFromString = require("require-from-string");
    const provider = requireFromString(serialized.get("group") as string).handler();
    // Loaded from the installed package when the plugin calls it (node_modules/pulumi-devicemgmt is this
    // repository), not carried in the text: upgrading the package changes what the text runs.
    expect(Object.keys(provider).sort()).toEqual([
      "check",
      "configure",
      "create",
      "delete",
      "diff",
      "read",
      "update",
    ]);
    const result = await provider.check({}, { name: "", parentId: "nope" });
    expect(result.failures.map((f: { property: string }) => f.property).sort()).toEqual(["name", "parentId"]);
  });
});
