// Rendering: the program's order, the exact values of odd names once the program runs, and the side files.
import { parse as parseYaml } from "yaml";
import { planProgram } from "../../provider/export/naming";
import type { OrgModel } from "../../provider/export/model";
import { oneLine, renderFiles, tsString, yamlString } from "../../provider/export/render";
import {
  exampleGroups,
  group,
  GROUP_ADMIN,
  id,
  model,
  READ_ONLY,
  RENDER_OPTIONS,
  runModule,
  user,
} from "./support";

const render = (m: OrgModel) => renderFiles(planProgram(m), RENDER_OPTIONS);

interface Declared {
  kind: string;
  name?: string;
  args: Record<string, unknown>;
}

/**
 * Runs a generated program against a fake of the package that records what it declares and looks up.
 * References come back as `{ ref: "<resource name or lookup>" }`, so the test can see what points at what.
 */
function declarations(source: string, adopt: Record<string, string> = {}): Declared[] {
  const declared: Declared[] = [];
  const resolve = (args: Record<string, unknown>): Record<string, unknown> =>
    JSON.parse(
      JSON.stringify(args, (_k, v) => (v && typeof v === "object" && "ref" in v ? { ref: v.ref } : v)),
    );
  const resource = (kind: string) =>
    function (this: { id: unknown }, name: string, args: Record<string, unknown>) {
      declared.push({ kind, name, args: resolve(args) });
      this.id = { ref: name };
    };
  const lookup = (kind: string) => (args: Record<string, unknown>) => {
    declared.push({ kind, args: resolve(args) });
    return { id: { ref: `${kind}(${JSON.stringify(args)})` } };
  };
  const dm = {
    Group: resource("Group"),
    User: resource("User"),
    GroupReleaseChannel: resource("GroupReleaseChannel"),
    DeviceReleaseChannel: resource("DeviceReleaseChannel"),
    getRoleOutput: lookup("getRole"),
    getReleaseChannelOutput: lookup("getReleaseChannel"),
    getGroupOutput: lookup("getGroup"),
    getDeviceOutput: lookup("getDevice"),
  };
  const pulumi = {
    Config: class {
      getObject(key: string) {
        return key === "adopt" ? adopt : undefined;
      }
      getBoolean() {
        return undefined;
      }
    },
  };
  runModule(source, { "@pulumi/pulumi": pulumi, "pulumi-devicemgmt": dm });
  return declared;
}

const ODD_NAMES = [
  'Lab "North"',
  "Back\\slash\\",
  "Line one\nLine two\r\n\ttabbed",
  "Zürich — 東京 🚀 Ωmega",
  "Bidi \u202Eevil\u202C and zero\u200Bwidth",
  "Separators \u2028 \u2029 and \u0085 and \u007F",
  "${template} `backtick` </script> */ // not a comment",
  "Lone \uD800 surrogate",
];

describe("the program", () => {
  it("declares parents before children, whatever order the groups came in", () => {
    const groups = [...exampleGroups()].reverse();
    const declared = declarations(render(model({ groups }))["index.ts"]).filter((d) => d.kind === "Group");
    expect(declared.map((d) => d.name)).toEqual([
      "acme-training",
      "americas",
      "austin-lab",
      "emea",
      "berlin-lab",
    ]);
    const seen = new Set<string>();
    for (const d of declared) {
      const parent = d.args.parentId as { ref: string } | undefined;
      if (parent) expect(seen.has(parent.ref)).toBe(true);
      seen.add(d.name!);
    }
    expect(declared.find((d) => d.name === "berlin-lab")?.args).toEqual({
      name: "Berlin Lab",
      parentId: { ref: "emea" },
      configured: true,
    });
  });

  it("gives back every odd name exactly, with nothing invisible left raw in the text", () => {
    const groups = [
      group("root", ODD_NAMES[0], null),
      ...ODD_NAMES.slice(1).map((n, i) => group(`g${i}`, n, "root", true)),
    ];
    const odd: OrgModel = model({
      organization: { id: id("org"), name: "Acme\nDevices \u202E", slug: "acme" },
      groups,
      users: [
        {
          ...user("zoe.obrien@acme.example", READ_ONLY, [[GROUP_ADMIN, "g0"]]),
          firstName: 'Zoë "Z"',
          lastName: "O'Brien\\",
        },
      ],
      groupChannels: [{ groupId: id("g1"), channel: { appName: 'App "1"\n', channelName: "Beta\\" } }],
      deviceChannels: [
        { deviceId: id("d"), deviceName: 'Headset\t"01"', channel: { appName: "Ω", channelName: "β" } },
      ],
    });
    const files = render(odd);
    const adopt = Object.fromEntries(planProgram(odd).adopt);
    const declared = declarations(files["index.ts"], adopt);

    expect(
      declared
        .filter((d) => d.kind === "Group")
        .map((d) => d.args.name)
        .sort(),
    ).toEqual([...ODD_NAMES].sort());
    for (const d of declared.filter((d) => d.kind === "Group")) expect(d.args.adoptId).toBe(adopt[d.name!]);
    expect(declared.find((d) => d.kind === "User")?.args).toMatchObject({
      firstName: 'Zoë "Z"',
      lastName: "O'Brien\\",
      email: "zoe.obrien@acme.example",
    });
    expect(declared.filter((d) => d.kind === "getReleaseChannel").map((d) => d.args)).toEqual([
      { appName: 'App "1"\n', channelName: "Beta\\" },
      { appName: "Ω", channelName: "β" },
    ]);
    expect(declared.find((d) => d.kind === "getDevice")?.args).toEqual({ name: 'Headset\t"01"' });

    const text = files["index.ts"];
    expect(text).not.toMatch(/[\u202E\u202C\u200B\u2028\u2029\u0085\u007F\uD800]/);
    expect(text).toContain("Zürich — 東京 🚀 Ωmega");
    // The organization's name, newline and all, stays inside its comment line.
    expect(text.split("\n")[0]).toBe(
      '// Organization "Acme Devices" (acme) as a Pulumi program, exported by devicemgmt-export.',
    );
  });

  it("looks groups up by name under their parent when groups are not exported", () => {
    const m = model(
      {
        groups: exampleGroups(),
        users: [user("emil.lindqvist@acme.example", READ_ONLY, [[GROUP_ADMIN, "berlin"]])],
      },
      ["users"],
    );
    const declared = declarations(render(m)["index.ts"]);
    expect(declared.filter((d) => d.kind === "Group")).toEqual([]);
    const lookups = declared.filter((d) => d.kind === "getGroup");
    expect(lookups.map((d) => d.args.name)).toEqual(["Acme Training", "EMEA", "Berlin Lab"]);
    expect(lookups[0].args.parentId).toBeUndefined();
    expect(lookups[1].args.parentId).toEqual({ ref: 'getGroup({"name":"Acme Training"})' });
    expect(declared.find((d) => d.kind === "User")?.args.groupRoles).toEqual([
      {
        roleId: { ref: 'getRole({"name":"Group Admin","type":"group"})' },
        groupId: { ref: expect.stringMatching(/^getGroup\(\{"name":"Berlin Lab"/) },
      },
    ]);
    expect(planProgram(m).adopt.map(([name]) => name)).toEqual(["emil-lindqvist"]);
  });

  it("renders an empty organization as a valid, empty module", () => {
    const files = render(model());
    expect(files["index.ts"]).not.toMatch(/import/);
    expect(declarations(files["index.ts"])).toEqual([]);
    expect(parseYaml(files["Pulumi.production.yaml"])).toEqual({
      config: { "devicemgmt:baseUrl": RENDER_OPTIONS.baseUrl },
    });
  });
});

describe("the side files", () => {
  const m = model({
    organization: { id: id("org"), name: 'Acme "Devices"\n', slug: "acme" },
    groups: [group("odd", 'Ödd: "name" # not a comment', null), ...exampleGroups()],
    users: [user("emil.lindqvist@acme.example", READ_ONLY)],
    leftOut: ["User pending@acme.example: a pending invitation (no name yet)."],
  });
  const files = render(m);

  it("writes the adoption ids as an object-valued config key of the project, in program order", () => {
    const config = parseYaml(files["Pulumi.production.yaml"]);
    expect(Object.keys(config.config)).toEqual(["devicemgmt:baseUrl", "acme-org:adopt"]);
    expect(Object.entries(config.config["acme-org:adopt"])).toEqual(planProgram(m).adopt);
    expect(config.config["acme-org:adopt"]["odd-name-not-a-comment"]).toBe(id("odd"));
  });

  it("writes a project file, a package, a tsconfig and a README that say what they should", () => {
    expect(parseYaml(files["Pulumi.yaml"])).toEqual({
      name: "acme-org",
      description: 'Organization Acme "Devices" (acme) as code, exported by devicemgmt-export.',
      runtime: { name: "nodejs", options: { typescript: true } },
    });
    const pkg = JSON.parse(files["package.json"]);
    expect(pkg.dependencies).toEqual({ "@pulumi/pulumi": "3.270.0", "pulumi-devicemgmt": "^0.1.0" });
    expect(pkg.main).toBe("index.ts");
    expect(JSON.parse(files["tsconfig.json"]).compilerOptions.strict).toBe(true);
    const readme = files["README.md"];
    expect(readme).toContain("pulumi stack init production");
    expect(readme).toContain("pulumi stack init staging");
    expect(readme).toContain("morgan.multi@acme.example");
    expect(readme).toContain("- User pending@acme.example: a pending invitation (no name yet).");
  });

  it("escapes strings for TypeScript and YAML so they read back exactly", () => {
    for (const text of ODD_NAMES) {
      expect(runModule(`module.exports.value = ${tsString(text)};`, {}).value).toBe(text);
      expect(parseYaml(`value: ${yamlString(text)}`).value).toBe(text);
      expect(oneLine(text)).not.toMatch(/[\n\r\u2028\u2029]/);
    }
  });
});
