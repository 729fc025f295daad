// Lookups run in the program's process: stack config comes from the SDK's config store (as `pulumi up` sets
// it), or from the environment. Tested directly against the emulator.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as ts from "typescript";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import {
  getCurrentOrganization,
  getCurrentOrganizationOutput,
  getCurrentUser,
  getCurrentUserOutput,
  getDevice,
  getDeviceOutput,
  getGroup,
  getGroupOutput,
  getReleaseChannel,
  getReleaseChannelOutput,
  getRole,
  getRoleOutput,
  getTokenInfo,
  getTokenInfoOutput,
} from "../../provider";
import { ForbiddenError, UnauthorizedError, UnsupportedTokenError } from "../../provider/client";
import { ConnectionSettingError, LookupArgumentError, LookupError } from "../../provider/errors";
import { failure } from "../harness/providerStack";

/** The LookupError a lookup fails with (in-process, so by class and fields). */
async function lookupFailure(promise: Promise<unknown>): Promise<LookupError> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(LookupError);
  return error as LookupError;
}

let emulator: RunningEmulator;
let admin: DeviceMgmtClient;

/** Stack config as the engine hands it to the program; the token is a secret. */
function useStackConfig(apiToken: string, baseUrl = emulator.baseUrl): void {
  pulumi.runtime.setAllConfig({ "devicemgmt:baseUrl": baseUrl, "devicemgmt:apiToken": apiToken }, [
    "devicemgmt:apiToken",
  ]);
}

/** An Output's value outside a program (the SDK's own accessor, as its unit-test helpers use). */
const valueOf = <T>(output: pulumi.Output<T>): Promise<T> =>
  (output as unknown as { promise(): Promise<T> }).promise();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
});
beforeEach(() => useStackConfig(emulator.tokens.admin));
afterAll(async () => {
  pulumi.runtime.setAllConfig({});
  await emulator.close();
});

describe("getRole", () => {
  it("finds a role by name, and by name and type", async () => {
    const roles = await admin.roles.all();
    const viewer = roles.find((r) => r.name === "Group Viewer")!;
    expect(await getRole({ name: "Group Viewer" })).toEqual({
      id: viewer.id,
      name: "Group Viewer",
      type: "group",
      isOwnedBySystem: true,
    });
    expect((await getRole({ name: "Admin", type: "organization" })).id).toBe(
      roles.find((r) => r.name === "Admin")!.id,
    );
    expect(await valueOf(getRoleOutput({ name: pulumi.output("Group Viewer") }))).toMatchObject({
      id: viewer.id,
    });
  });

  it("a name that matches nothing is an error listing the roles there are", async () => {
    const error = await lookupFailure(getRole({ name: "Superuser" }));
    expect(error).toMatchObject({ what: 'role named "Superuser"', matches: 0 });
    expect(error.available).toEqual(expect.arrayContaining(["Admin (organization)", "Group Viewer (group)"]));
    const wrongType = await lookupFailure(getRole({ name: "Admin", type: "group" }));
    expect(wrongType).toMatchObject({ what: 'role named "Admin" of type group', matches: 0 });
  });
});

describe("getGroup", () => {
  let region: string;
  let site: string;
  beforeAll(async () => {
    region = (await admin.groups.create({ name: "Region", parentId: null })).id;
    site = (await admin.groups.create({ name: "Site", parentId: region })).id;
    await admin.groups.configure(site);
  });

  it("finds a group by id, by name at the root, and by name under a parent", async () => {
    expect(await getGroup({ id: site })).toEqual({
      id: site,
      name: "Site",
      parentId: region,
      configured: true,
      deviceCount: 0,
    });
    expect(await getGroup({ name: "Region" })).toMatchObject({
      id: region,
      parentId: null,
      configured: false,
    });
    expect(await getGroup({ name: "Site", parentId: region })).toMatchObject({ id: site, parentId: region });
    expect(await getGroup({ name: "Site", parentId: region.toUpperCase() })).toMatchObject({
      id: site,
      parentId: region,
    });
    expect(await valueOf(getGroupOutput({ name: "Site", parentId: pulumi.output(region) }))).toMatchObject({
      id: site,
    });
  });

  it("a name is looked for only under the given parent; a miss lists the names there", async () => {
    const atRoot = await lookupFailure(getGroup({ name: "Site" }));
    expect(atRoot).toMatchObject({ what: 'group named "Site" at the root', matches: 0 });
    expect(atRoot.available).toContain("Region");
    expect(atRoot.available).not.toContain("Site");
    const underParent = await lookupFailure(getGroup({ name: "Nowhere", parentId: region }));
    expect(underParent).toMatchObject({
      what: `group named "Nowhere" under group ${region}`,
      available: ["Site"],
    });
  });

  it("an id that names no group is an error naming the id", async () => {
    const missing = "56565656-5656-4565-8565-565656565656";
    const error = await lookupFailure(getGroup({ id: missing }));
    expect(error).toMatchObject({ what: `group with id ${missing} in the organization`, matches: 0 });
  });

  it("two groups of the same name under one parent are an error listing both", async () => {
    const first = await admin.groups.create({ name: "Twin", parentId: region });
    const second = await admin.groups.create({ name: "Twin", parentId: region });
    const error = await lookupFailure(getGroup({ name: "Twin", parentId: region }));
    expect(error).toMatchObject({ what: `group named "Twin" under group ${region}`, matches: 2 });
    expect(error.found).toEqual(
      expect.arrayContaining([expect.stringContaining(first.id), expect.stringContaining(second.id)]),
    );
  });
});

describe("getReleaseChannel", () => {
  it("finds a channel by app name and channel name", async () => {
    const app = (await admin.apps.all()).find((a) => a.name === "Warehouse Picker")!;
    const channels: { id: string; name: string }[] = [];
    for await (const c of admin.apps.releaseChannels(app.id)) channels.push(c);
    const pilot = channels.find((c) => c.name === "Pilot")!;
    expect(await getReleaseChannel({ appName: "Warehouse Picker", channelName: "Pilot" })).toEqual({
      id: pilot.id,
      name: "Pilot",
      appId: app.id,
      appName: "Warehouse Picker",
    });
    expect(
      await valueOf(
        getReleaseChannelOutput({ appName: "Warehouse Picker", channelName: pulumi.output("Pilot") }),
      ),
    ).toMatchObject({ id: pilot.id });
  });

  it("an unknown app or channel is an error listing what there is", async () => {
    const noApp = await lookupFailure(
      getReleaseChannel({ appName: "Forklift Trainer", channelName: "Stable" }),
    );
    expect(noApp).toMatchObject({ what: 'app named "Forklift Trainer"', matches: 0 });
    expect(noApp.available).toContain("Safety Briefing");
    const noChannel = await lookupFailure(
      getReleaseChannel({ appName: "Safety Briefing", channelName: "Beta" }),
    );
    expect(noChannel).toMatchObject({
      what: 'release channel named "Beta" in app "Safety Briefing"',
      available: ["Stable"],
    });
  });
});

describe("getDevice", () => {
  it("finds a device by id, by name and by serial number, with its group", async () => {
    const devices = await admin.devices.all();
    const device = devices.find((d) => d.name === "Headset 03")!;
    const expected = { id: device.id, name: "Headset 03", serialNumber: device.serialNumber, groupId: null };
    expect(await getDevice({ id: device.id })).toEqual(expected);
    expect(await getDevice({ name: "Headset 03" })).toEqual(expected);
    expect(await getDevice({ serialNumber: device.serialNumber })).toEqual(expected);
    expect(await valueOf(getDeviceOutput({ serialNumber: pulumi.output(device.serialNumber) }))).toEqual(
      expected,
    );

    const group = await admin.groups.create({ name: "Holding", parentId: null });
    await admin.groups.configure(group.id);
    await admin.devices.update(device.id, { groupId: group.id });
    expect(await getDevice({ id: device.id })).toMatchObject({ groupId: group.id });
    expect(await getDevice({ name: "Headset 03" })).toMatchObject({ groupId: group.id });
  });

  it("a device that is not there is an error; one name on two devices is an error listing both", async () => {
    const unknownName = await lookupFailure(getDevice({ name: "Headset 99" }));
    expect(unknownName).toMatchObject({ what: 'device with name "Headset 99"', matches: 0 });
    const unknownId = await lookupFailure(getDevice({ id: "78787878-7878-4787-8787-787878787878" }));
    expect(unknownId).toMatchObject({
      what: "device with id 78787878-7878-4787-8787-787878787878 in the organization",
      matches: 0,
    });

    const devices = await admin.devices.all();
    const [a, b] = [
      devices.find((d) => d.name === "Headset 05")!,
      devices.find((d) => d.name === "Headset 06")!,
    ];
    await admin.devices.update(b.id, { name: "Headset 05" });
    const error = await lookupFailure(getDevice({ name: "Headset 05" }));
    expect(error).toMatchObject({ what: 'device with name "Headset 05"', matches: 2 });
    expect(error.found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`${a.id}.*${a.serialNumber}|${a.serialNumber}.*${a.id}`)),
        expect.stringContaining(b.id),
      ]),
    );
  });
});

describe("the caller", () => {
  it("getCurrentOrganization, getCurrentUser and getTokenInfo describe the token's organization and user", async () => {
    const primary = emulator.orgs.primary;
    expect(await getCurrentOrganization()).toEqual({
      id: primary.id,
      name: primary.name,
      slug: primary.slug,
    });
    expect(await valueOf(getCurrentOrganizationOutput())).toMatchObject({ slug: "acme" });
    expect(await getCurrentUser()).toMatchObject({
      firstName: "Ada",
      lastName: "Admin",
      email: "ada.admin@acme.example",
    });
    expect(await valueOf(getCurrentUserOutput())).toMatchObject({ email: "ada.admin@acme.example" });
    const info = await getTokenInfo();
    expect(info).toMatchObject({ apiVersion: "v3", organizationId: primary.id, basePath: "/api/v3" });
    expect(typeof info.tokenName).toBe("string");
    // Not even the token's display form (the first characters of its secret) is part of the result.
    expect(JSON.stringify(info)).not.toContain(emulator.tokens.admin.split("|")[1].slice(0, 8));
    expect(await valueOf(getTokenInfoOutput())).toEqual(info);
  });

  it("a lookup's own connection reaches another organization", async () => {
    const connection = { baseUrl: emulator.baseUrl, apiToken: emulator.tokens.multiOrgAdminSecondary };
    expect(await getCurrentOrganization({ connection })).toMatchObject({ slug: "acme-staging" });
    const stagingAdmin = (await getRole({ name: "Admin" }, { connection })).id;
    expect(stagingAdmin).not.toBe((await getRole({ name: "Admin" })).id);
    expect(await valueOf(getCurrentOrganizationOutput({ connection }))).toMatchObject({
      slug: "acme-staging",
    });
  });

  it("a getXOutput takes its connection from Outputs, such as a secret token, and keeps the result secret", async () => {
    const plain = { baseUrl: emulator.baseUrl, apiToken: emulator.tokens.multiOrgAdminSecondary };
    const fromOutputs = { baseUrl: pulumi.output(plain.baseUrl), apiToken: pulumi.secret(plain.apiToken) };
    const organization = getCurrentOrganizationOutput({ connection: fromOutputs });
    expect(await valueOf(organization)).toMatchObject({ slug: "acme-staging" });
    expect(await pulumi.isSecret(organization)).toBe(true);
    const role = getRoleOutput({ name: "Admin" }, { connection: pulumi.output(fromOutputs) });
    expect((await valueOf(role)).id).toBe((await getRole({ name: "Admin" }, { connection: plain })).id);
  });
});

describe("lookup connection settings and refusals", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env.DEVICEMGMT_BASE_URL = saved.DEVICEMGMT_BASE_URL;
    process.env.DEVICEMGMT_API_TOKEN = saved.DEVICEMGMT_API_TOKEN;
    for (const key of ["DEVICEMGMT_BASE_URL", "DEVICEMGMT_API_TOKEN"]) {
      if (saved[key] === undefined) delete process.env[key];
    }
  });

  it("falls back to DEVICEMGMT_BASE_URL and DEVICEMGMT_API_TOKEN when the stack has no config", async () => {
    pulumi.runtime.setAllConfig({});
    process.env.DEVICEMGMT_BASE_URL = emulator.baseUrl;
    process.env.DEVICEMGMT_API_TOKEN = emulator.tokens.readOnly;
    expect(await getCurrentUser()).toMatchObject({ email: "rory.reader@acme.example" });
  });

  it("with no token anywhere, names all three ways to give one", async () => {
    pulumi.runtime.setAllConfig({ "devicemgmt:baseUrl": emulator.baseUrl });
    delete process.env.DEVICEMGMT_API_TOKEN;
    // Thrown at the call, not as a rejection (connectionAtCall.ts: some hosts never report a rejection).
    let error: unknown;
    try {
      void getCurrentOrganization();
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConnectionSettingError);
    expect(error).toMatchObject({ property: "devicemgmt:apiToken" });
    // The fix is the one sentence naming all three ways.
    expect((error as ConnectionSettingError).fix).toMatch(
      /devicemgmt:apiToken.*DEVICEMGMT_API_TOKEN.*connection/s,
    );
  });

  it("an unknown token is a 401 and a v2 token is told how to get a v3 one, neither printed", async () => {
    useStackConfig("95|NotALookupToken000000000000000000000000000");
    const unknown = await failure(getRole({ name: "Admin" }));
    expect(unknown).toBeInstanceOf(UnauthorizedError);
    expect(unknown).toMatchObject({ status: 401 });
    expect(unknown.message).not.toContain("NotALookupToken");

    useStackConfig(emulator.tokens.v2);
    const v2 = await failure(getGroup({ name: "Region" }));
    expect(v2).toBeInstanceOf(UnsupportedTokenError);
    expect(v2).toMatchObject({ method: "GET", path: expect.stringMatching(/token-info$/) });
    expect(v2.message).not.toContain(emulator.tokens.v2.split("|")[1]);
  });

  it("a user without the view permission gets a 403 naming the request", async () => {
    const rory = (await admin.users.all()).find((u) => u.email === "rory.reader@acme.example")!;
    const member = (await admin.roles.all()).find((r) => r.name === "Member")!;
    await admin.users.update(rory.id, { defaultRoleId: member.id });
    useStackConfig(emulator.tokens.readOnly);
    const error = await failure(getRole({ name: "Admin" }));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, method: "GET", path: expect.stringMatching(/\/roles/) });
  });
});

describe("arguments are checked before any request", () => {
  const region = "0c4f3b1e-9d7a-4e2b-8f6c-1a2b3c4d5e6f";
  // Each: a call as a JavaScript program (or a resolved Output) could make it, and what its error must say.
  const cases: Array<[string, () => Promise<unknown>, RegExp[], string | undefined]> = [
    [
      "getRole({})",
      () => getRole({} as never),
      [/getRole: argument "name" must be the role's name/, /got undefined/],
      "name",
    ],
    ["getRole name blank", () => getRole({ name: "  " }), [/argument "name"/, /non-empty/], "name"],
    [
      "getRole name too long",
      () => getRole({ name: "x".repeat(256) }),
      [/at most 255/, /256 characters/],
      "name",
    ],
    [
      "getRole bad type",
      () => getRole({ name: "Admin", type: "Group" as never }),
      [/argument "type" must be "organization" or "group"/, /"Group"/],
      "type",
    ],
    ["getRole misspelt key", () => getRole({ nme: "Admin" } as never), [/unknown argument "nme"/], "nme"],
    [
      "getGroup id ..",
      () => getGroup({ id: ".." }),
      [/argument "id" must be the UUID of a group/, /got ".."/],
      "id",
    ],
    ["getGroup id empty", () => getGroup({ id: "" }), [/argument "id" must be the UUID/], "id"],
    [
      "getGroup id and name",
      () => getGroup({ id: region, name: "X" } as never),
      [/either "id", or "name"/],
      undefined,
    ],
    ["getGroup nothing", () => getGroup({} as never), [/needs "id" or "name"/], undefined],
    [
      "getGroup parentID",
      () => getGroup({ name: "Site", parentID: region } as never),
      [/unknown argument "parentID" \(did you mean "parentId"\?\)/],
      "parentID",
    ],
    [
      "getGroup parentId not a uuid",
      () => getGroup({ name: "Site", parentId: "Region" }),
      [/argument "parentId" must be the UUID of a parent group/],
      "parentId",
    ],
    [
      "getGroup not an object",
      () => getGroup("Region" as never),
      [/expected an arguments object, got "Region"/],
      undefined,
    ],
    [
      "getReleaseChannel no channel",
      () => getReleaseChannel({ appName: "Safety Briefing" } as never),
      [/argument "channelName"/],
      "channelName",
    ],
    [
      "getDevice two keys",
      () => getDevice({ name: "Headset 01", serialNumber: "ACM1" } as never),
      [/only one of "id", "name" or "serialNumber", not "name" and "serialNumber"/],
      undefined,
    ],
    [
      "getDevice id ../users",
      () => getDevice({ id: "../users" }),
      [/argument "id" must be the UUID of a device/],
      "id",
    ],
    [
      "getDevice nothing",
      () => getDevice({} as never),
      [/needs one of "id", "name" or "serialNumber"/],
      undefined,
    ],
  ];

  it.each(cases)(
    "%s: an error naming the argument and the usage, and no request",
    async (label, call, patterns, argument) => {
      emulator.resetStats();
      const error = await failure(call());
      expect(error).toBeInstanceOf(LookupArgumentError);
      const refusal = error as LookupArgumentError;
      expect(refusal.lookup).toBe(label.match(/^get\w+/)![0]);
      expect(refusal.property).toBe(argument);
      expect(refusal.usage).toMatch(new RegExp(`^${refusal.lookup}\\(\\{`));
      for (const pattern of patterns) expect(error.message).toMatch(pattern);
      expect(error.message).toMatch(/Usage: get\w+\(\{/);
      expect(error.message).not.toMatch(/No \w+ named "undefined"/);
      expect(emulator.stats().requests).toBe(0);
    },
  );
});

describe("lookup argument types are exact", () => {
  // Compiles snippets against the sources with the project's compiler options: a misspelt key or a wrong
  // combination must be a compile error, not an index-signature catch-all.
  it("misspelt keys and mixed alternatives do not compile; the documented forms do", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "devicemgmt-lookup-types-"));
    const lookups = path.resolve(__dirname, "../../provider").replace(/\\/g, "/");
    // The snippet lives outside the repository, so the SDK is imported by path too.
    const pulumiSdk = path.dirname(require.resolve("@pulumi/pulumi")).replace(/\\/g, "/");
    const lines = [
      `import * as pulumi from "${pulumiSdk}";`,
      `import { getGroup, getGroupOutput, getRole, getRoleOutput, getDevice, getDeviceOutput } from "${lookups}";`,
      `const parent = pulumi.output("0c4f3b1e-9d7a-4e2b-8f6c-1a2b3c4d5e6f");`,
      `export const ok1 = getGroupOutput({ name: "Site", parentId: parent });`,
      `export const ok2 = getGroup({ id: "x" }); export const ok3 = getRoleOutput({ name: pulumi.output("Admin") });`,
      `export const ok4 = getDeviceOutput({ serialNumber: parent }); export const ok5 = getGroupOutput({ name: "EMEA", parentId: null });`,
      `export const bad1 = getGroupOutput({ name: "Site", parentID: parent });`,
      `export const bad2 = getGroup({ id: "x", name: "Site" });`,
      `export const bad3 = getRole({});`,
      `export const bad4 = getDevice({ name: "a", serialNumber: "b" });`,
      `export const bad5 = getRoleOutput({ name: "Admin", typ: "group" });`,
    ];
    const file = path.join(dir, "snippet.ts");
    fs.writeFileSync(file, lines.join("\n"));
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      types: ["node"],
      typeRoots: [path.resolve(__dirname, "../../node_modules/@types")],
    });
    const errorLines = new Set(
      ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file?.fileName === file)
        .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line + 1),
    );
    fs.rmSync(dir, { recursive: true, force: true });
    expect([...errorLines].sort((a, b) => a - b)).toEqual([7, 8, 9, 10, 11]);
  }, 120_000);
});
