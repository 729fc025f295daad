// What the flag safety tests share (continueOnError, target, deletedWith, ignoreChanges, refreshTarget): a
// fresh emulator and engine (the real Pulumi CLI, test/engine) per test, configured with the admin token, the
// ids their programs refer to, and the site program most of them run with its checks.
import * as path from "path";
import { startEmulator, type OrgSnapshot, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine } from "../engine";
import { Group, GroupReleaseChannel, User } from "../../provider";
import { DeviceMgmtClient } from "../../provider/client";

const repoRoot = path.resolve(__dirname, "../..");

export interface FlagStack {
  emulator: RunningEmulator;
  engine: Engine;
  /** The organization role "Admin". */
  adminRole: string;
  /** Training Simulator's "Production" and "Beta" channels. */
  production: string;
  beta: string;
  /** The organization as the emulator holds it now. */
  org(): OrgSnapshot;
}

/** Registers beforeEach/afterEach in the calling scope; the returned object is filled afresh for every test. */
export function useFlagStack(): FlagStack {
  const stack = { org: () => stack.emulator.snapshot() } as FlagStack;
  beforeEach(async () => {
    stack.emulator = await startEmulator({ port: 0 });
    const admin = new DeviceMgmtClient({
      baseUrl: stack.emulator.baseUrl,
      apiToken: stack.emulator.tokens.admin,
    });
    stack.adminRole = (await admin.roles.all()).find((r) => r.name === "Admin")!.id;
    const app = (await admin.apps.all()).find((a) => a.name === "Training Simulator")!;
    for await (const channel of admin.apps.releaseChannels(app.id)) {
      if (channel.name === "Production") stack.production = channel.id;
      if (channel.name === "Beta") stack.beta = channel.id;
    }
    stack.engine = await createEngine({
      cwd: repoRoot,
      config: { "devicemgmt:baseUrl": stack.emulator.baseUrl },
      secretConfig: { "devicemgmt:apiToken": stack.emulator.tokens.admin },
    });
  });
  afterEach(async () => {
    await stack.engine?.close();
    await stack.emulator?.close();
  });
  return stack;
}

export interface SiteProgramOptions {
  /** Resource names changed in code, e.g. `{ site: "site-renamed" }` (a rename without aliases). */
  names?: Record<string, string>;
  /** False leaves the group and its attachment out of the program. */
  withGroup?: boolean;
  /** Declares the attachment `deletedWith` its group. */
  deletedWith?: boolean;
}

/** The ids the first `up` of the site program made. */
export interface SiteIds {
  site: string;
  emil: string;
}

/**
 * The program most flag tests run: a configured group "Berlin Lab" (`site`) with Training Simulator's Production
 * channel attached (`site-production`), and the user Emil (`emil`).
 */
export function siteProgram(stack: FlagStack, options: SiteProgramOptions = {}): () => void {
  const { names = {}, withGroup = true, deletedWith = false } = options;
  const n = (name: string) => names[name] ?? name;
  return () => {
    if (withGroup) {
      const site = new Group(n("site"), { name: "Berlin Lab", configured: true });
      new GroupReleaseChannel(
        n("site-production"),
        { groupId: site.id, releaseChannelId: stack.production },
        deletedWith ? { deletedWith: site } : {},
      );
    }
    new User(n("emil"), {
      firstName: "Emil",
      lastName: "Lindqvist",
      email: "emil@acme.example",
      defaultRoleId: stack.adminRole,
    });
  };
}

/** Runs `program` (the site program as declared) for the first time; the ids it made. */
export async function firstSiteUp(stack: FlagStack, program: () => void): Promise<SiteIds> {
  expect((await stack.engine.up(program)).errors).toEqual([]);
  return {
    site: stack.org().groups.find((g) => g.name === "Berlin Lab")!.id,
    emil: stack.org().users.find((u) => u.email === "emil@acme.example")!.id,
  };
}

/** The group and the user are the ones the first up made, once each, and Production is still attached. */
export function expectSiteUnchanged(stack: FlagStack, ids: SiteIds): void {
  const after = stack.org();
  expect(after.groups.filter((g) => g.name === "Berlin Lab").map((g) => g.id)).toEqual([ids.site]);
  expect(after.groups.find((g) => g.id === ids.site)!.releaseChannelIds).toEqual([stack.production]);
  expect(after.users.filter((u) => u.email === "emil@acme.example").map((u) => u.id)).toEqual([ids.emil]);
}

/** `up` of `program` again: no error and no operation (no perpetual diff). */
export async function expectNoChanges(stack: FlagStack, program: () => void): Promise<void> {
  const again = await stack.engine.up(program);
  expect(again.errors).toEqual([]);
  expect(again.operations).toEqual([]);
}
