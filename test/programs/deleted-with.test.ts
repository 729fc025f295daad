// The `deletedWith` option with the real provider against the emulator (issue 22): a group's release-channel
// attachment declared `deletedWith` its group. A rename without aliases or a --replace must not delete, detach
// or duplicate a live object the program still declares. The engine stand-in follows the engine (step.go,
// isDeletedWith: no Delete call for a resource deleted with another the run deletes; step_generator.go, diff():
// replaced with its deletedWith resource). Each test asserts the organization afterwards.
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine } from "../../engine-stand-in";
import { DeviceMgmtClient } from "../../provider/client";
import { Group, GroupReleaseChannel, User } from "../../provider";

const repoRoot = path.resolve(__dirname, "../..");

let emulator: RunningEmulator;
let engine: Engine;
let adminRole: string;
let production: string;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0 });
  const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  adminRole = (await admin.roles.all()).find((r) => r.name === "Admin")!.id;
  const app = (await admin.apps.all()).find((a) => a.name === "Training Simulator")!;
  for await (const channel of admin.apps.releaseChannels(app.id)) {
    if (channel.name === "Production") production = channel.id;
  }
  engine = await createEngine({
    cwd: repoRoot,
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });
});
afterEach(async () => {
  await engine?.close();
  await emulator?.close();
});

const org = () => emulator.snapshot();

/** A group with a release channel attached (deleted with the group) and a user; `names` renames in code. */
const program = (names: Record<string, string> = {}, { withGroup = true } = {}) => {
  const n = (name: string) => names[name] ?? name;
  return () => {
    if (withGroup) {
      const site = new Group(n("site"), { name: "Berlin Lab", configured: true });
      new GroupReleaseChannel(
        n("site-production"),
        { groupId: site.id, releaseChannelId: production },
        { deletedWith: site },
      );
    }
    new User(n("emil"), {
      firstName: "Emil",
      lastName: "Lindqvist",
      email: "emil@acme.example",
      defaultRoleId: adminRole,
    });
  };
};

/** The organization the program declares, with the ids it had after the first up. */
async function firstUp() {
  expect((await engine.up(program())).errors).toEqual([]);
  const site = org().groups.find((g) => g.name === "Berlin Lab")!;
  const emil = org().users.find((u) => u.email === "emil@acme.example")!;
  return { site: site.id, emil: emil.id };
}

function expectUnchanged(ids: { site: string; emil: string }) {
  const after = org();
  expect(after.groups.filter((g) => g.name === "Berlin Lab").map((g) => g.id)).toEqual([ids.site]);
  expect(after.groups.find((g) => g.id === ids.site)!.releaseChannelIds).toEqual([production]);
  expect(after.users.filter((u) => u.email === "emil@acme.example").map((u) => u.id)).toEqual([ids.emil]);
}

async function expectQuietUp() {
  const again = await engine.up(program());
  expect(again.errors).toEqual([]);
  expect(again.operations).toEqual([]);
}

describe("deletedWith", () => {
  test.each(["site", "site-production"])(
    "%s renamed without aliases: the create is refused, nothing is deleted or detached",
    async (renamed) => {
      const ids = await firstUp();
      const result = await engine.up(program({ [renamed]: `${renamed}-renamed` }));
      expect(result.ok).toBe(false);
      expect(result.errors[0]).toMatchObject({ op: "create", message: expect.stringContaining("aliases") });
      expect(result.steps.delete).toEqual([]);
      expectUnchanged(ids);
      await expectQuietUp();
    },
  );

  test("--replace of the group plans the attachment's replacement too; the group refuses before any write", async () => {
    const ids = await firstUp();
    const preview = await engine.preview(program(), { replace: ["site"] });
    expect(preview.steps.replace.map((s) => [s.name, s.replaceKeys])).toEqual([
      ["site", ["id"]],
      ["site-production", ["deletedWith"]],
    ]);
    const result = await engine.up(program(), { replace: ["site"] });
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({ op: "create", message: expect.stringContaining("adoptId") });
    expect(result.operations).toEqual([]);
    expectUnchanged(ids);
    await expectQuietUp();
  });

  test("the group and its attachment dropped together: one Delete, the group's; the user stays", async () => {
    const ids = await firstUp();
    const result = await engine.up(program({}, { withGroup: false }));
    expect(result.errors).toEqual([]);
    expect(result.operations.map((o) => [o.op, o.urn.split("::").pop()])).toEqual([["delete", "site"]]);
    expect(org().groups.filter((g) => g.name === "Berlin Lab")).toEqual([]);
    expect(
      org()
        .users.filter((u) => u.email === "emil@acme.example")
        .map((u) => u.id),
    ).toEqual([ids.emil]);
  });
});
