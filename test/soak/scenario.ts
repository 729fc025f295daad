/**
 * The fault soak: the example organization plus generated groups, users and attachments, applied through the
 * real Pulumi CLI (test/engine) and the real plugin while the emulator answers 5xx, bursts of 429 and drops
 * connections after applying writes. Each stage re-runs `up` (as a user would) until it succeeds, then checks that the
 * organization is exactly what the program declares, that nothing is duplicated, that another `up` writes
 * nothing, and that the token is in no state file or log line.
 *
 * Used by test/soak/soak.test.ts (short, in CI) and test/bench/soak.ts (`npm run soak`, longer).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as dm from "../../provider";
import { startEmulator, type EmulatorStats, type FaultConfig, type OrgSnapshot } from "../../emulator";
import { closeDispatchers, DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine, type RunResult } from "../engine";
import { declareOrganization, type OrganizationSettings } from "../../examples/org/organization";

const repoRoot = path.resolve(__dirname, "../..");

export interface ExtraSize {
  groups: number;
  users: number;
  attachments: number;
}

export interface SoakOptions {
  extra: ExtraSize;
  faults: Partial<FaultConfig>;
  /** Edit rounds after the first `up` (alternating revisions 1 and 2); 0 = create only. */
  rounds: number;
  /** Destroy at the end (and check the organization is back to where it was). */
  destroy: boolean;
  /** Most `up`s (or destroys) a stage may need before it counts as not converging. */
  maxRuns: number;
  log?: (line: string) => void;
}

export interface StageReport {
  stage: string;
  /** Runs (`up` or `destroy`) made: until one succeeded, or `maxRuns`. */
  runs: number;
  /** Whether the last run succeeded. */
  converged: boolean;
  /** Errors of the failed runs, first lines. */
  failures: string[];
  /** Differences between the organization and the declaration (empty when equal). */
  differences: string[];
  duplicates: string[];
  /** Steps and write requests of the `up` that followed (both should be nothing). */
  followUp?: { steps: number; writes: number };
}

export interface SoakReport {
  stages: StageReport[];
  /** Where the token was found: "state", "plugin log", "errors" (empty when nowhere). */
  tokenFound: string[];
  /** Debug lines the plugin wrote (to show the log check looked at something). */
  debugLines: number;
  /** The emulator's counters: how many faults were injected. */
  emulatorStats: EmulatorStats;
  /** Resources the program declared in the first stage. */
  objects: number;
}

// ---- The declared organization ---------------------------------------------------------------------------------

const APPS = [
  { app: "Training Simulator", channel: "Production" },
  { app: "Safety Briefing", channel: "Stable" },
  { app: "Warehouse Picker", channel: "Production" },
];

/** The generated part as plain data: what the program declares and what the organization should show. */
export function extrasOf(size: ExtraSize, revision: number) {
  const regions = Math.max(1, Math.ceil(size.groups / 10));
  const siteCount = Math.max(1, size.groups - 1 - regions);
  const tenth = (count: number) => Math.max(1, Math.round(count / 10));
  const sites = Array.from({ length: siteCount }, (_, s) => ({
    key: `soak-site-${s}`,
    name: revision > 0 && s < tenth(siteCount) ? `Soak Site ${s} r${revision}` : `Soak Site ${s}`,
    region: s % regions,
  }));
  // Revision 2 removes the last tenth of the users; revision 1 changes names and roles of the first tenth.
  const userCount = revision === 2 ? size.users - tenth(size.users) : size.users;
  const users = Array.from({ length: userCount }, (_, u) => {
    const edited = revision > 0 && u < tenth(size.users);
    const roles = [{ role: "Group Viewer", site: u % siteCount }];
    if (u % 5 === 0 || (edited && revision === 1))
      roles.push({ role: "Group Admin", site: (u + 1) % siteCount });
    return {
      key: `soak-user-${u}`,
      firstName: `Soak${u}`,
      lastName: edited ? `User ${u} r${revision}` : `User ${u}`,
      email: `soak.user${u}@soak.example`,
      defaultRole: edited && revision === 2 ? "Read Only" : "Member",
      roles: roles.filter((r, i) => roles.findIndex((o) => o.role === r.role && o.site === r.site) === i),
    };
  });
  const attachments = Array.from({ length: size.attachments }, (_, a) => ({
    key: `soak-attach-${a}`,
    site: Math.floor(a / APPS.length) % siteCount,
    ...APPS[a % APPS.length],
  })).filter((a, i, all) => all.findIndex((o) => o.site === a.site && o.app === a.app) === i);
  return { regions, sites, users, attachments };
}

function declareExtras(size: ExtraSize, revision: number) {
  const extras = extrasOf(size, revision);
  const role = (name: string, type: "organization" | "group") => dm.getRoleOutput({ name, type });
  const roles = {
    Member: role("Member", "organization"),
    "Read Only": role("Read Only", "organization"),
    "Group Viewer": role("Group Viewer", "group"),
    "Group Admin": role("Group Admin", "group"),
  };
  const channels = new Map(
    APPS.map(({ app, channel }) => [app, dm.getReleaseChannelOutput({ appName: app, channelName: channel })]),
  );
  const root = new dm.Group("soak-root", { name: "Soak Extras" });
  const regions = Array.from(
    { length: extras.regions },
    (_, r) => new dm.Group(`soak-region-${r}`, { name: `Soak Region ${r}`, parentId: root.id }),
  );
  const sites = extras.sites.map(
    (site) =>
      new dm.Group(site.key, { name: site.name, parentId: regions[site.region].id, configured: true }),
  );
  for (const a of extras.attachments) {
    new dm.GroupReleaseChannel(a.key, {
      groupId: sites[a.site].id,
      releaseChannelId: channels.get(a.app)!.id,
    });
  }
  for (const user of extras.users) {
    new dm.User(user.key, {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      defaultRoleId: roles[user.defaultRole as keyof typeof roles].id,
      groupRoles: user.roles.map((r) => ({
        roleId: roles[r.role as keyof typeof roles].id,
        groupId: sites[r.site].id,
      })),
    });
  }
}

/** An organization as a person would compare it: names, tree, roles, channels; no ids or timestamps. */
export interface OrgShape {
  groups: string[];
  users: string[];
  groupChannels: string[];
  devices: string[];
}

function shapeOf(snapshot: OrgSnapshot, channelName: Map<string, string>): OrgShape {
  const groupName = new Map(snapshot.groups.map((g) => [g.id, g.name]));
  const channels = (ids: string[]) => ids.map((id) => channelName.get(id) ?? id).sort();
  return {
    groups: snapshot.groups
      .map(
        (g) =>
          `${g.parentId ? groupName.get(g.parentId) : "(root)"} > ${g.name}${g.isConfigured ? " [configured]" : ""}`,
      )
      .sort(),
    users: snapshot.users
      .map((u) => {
        const roles = u.accessControls
          .map(
            (ac) =>
              `${ac.roleName}@${ac.protectable.type === "group" ? groupName.get(ac.protectable.id) : "org"}`,
          )
          .sort();
        return `${u.email.toLowerCase()} | ${u.firstName} ${u.lastName} | ${roles.join(", ")}`;
      })
      .sort(),
    groupChannels: snapshot.groupReleaseChannels
      .map((a) => `${groupName.get(a.groupId)}: ${channelName.get(a.releaseChannelId) ?? a.releaseChannelId}`)
      .sort(),
    devices: snapshot.devices
      .map(
        (d) =>
          `${d.name} in ${d.groupId ? groupName.get(d.groupId) : "-"}: ${channels(d.releaseChannelIds).join(", ")}`,
      )
      .sort(),
  };
}

/** What the organization must look like: what was there before, plus the example org and the extras. */
function expectedShape(
  before: OrgShape,
  settings: OrganizationSettings,
  extra: ExtraSize,
  revision: number,
  demoDeviceName: string,
  loanerName: string,
): OrgShape {
  const extras = extrasOf(extra, revision);
  const siteName = (s: number) => extras.sites[s].name;
  const person = (first: string, last: string) => `${first}.${last}@${settings.emailDomain}`.toLowerCase();
  const company = settings.companyName ?? "Acme Training";
  const groups = [
    `(root) > ${company}`,
    `${company} > EMEA`,
    `${company} > Americas`,
    "EMEA > Berlin Lab [configured]",
    "EMEA > London Warehouse [configured]",
    "Americas > Austin Lab [configured]",
    "(root) > Soak Extras",
    ...Array.from({ length: extras.regions }, (_, r) => `Soak Extras > Soak Region ${r}`),
    ...extras.sites.map((s) => `Soak Region ${s.region} > ${s.name} [configured]`),
  ];
  const users = [
    `${person("Olivia", "Ops")} | Olivia Ops | Admin@org`,
    `${person("Emil", "Lindqvist")} | Emil Lindqvist | Group Admin@Berlin Lab, Group Admin@London Warehouse, Read Only@org`,
    `${person("Tess", "Trainer")} | Tess Trainer | Group Viewer@Austin Lab, Read Only@org`,
    ...extras.users.map((u) => {
      const roles = [`${u.defaultRole}@org`, ...u.roles.map((r) => `${r.role}@${siteName(r.site)}`)].sort();
      return `${u.email} | ${u.firstName} ${u.lastName} | ${roles.join(", ")}`;
    }),
  ];
  const groupChannels = [
    "Berlin Lab: Training Simulator/Production",
    "Berlin Lab: Safety Briefing/Stable",
    "London Warehouse: Warehouse Picker/Production",
    "London Warehouse: Safety Briefing/Stable",
    "Austin Lab: Training Simulator/Beta",
    "Austin Lab: Safety Briefing/Stable",
    ...extras.attachments.map((a) => `${siteName(a.site)}: ${a.app}/${a.channel}`),
  ];
  const devices = before.devices
    .filter((d) => !d.startsWith(`${loanerName} in `))
    .map((d) =>
      d.startsWith(`${demoDeviceName} in -:`) ? `${demoDeviceName} in -: Training Simulator/Beta` : d,
    );
  return {
    groups: groups.sort(),
    users: [...before.users, ...users].sort(),
    groupChannels: groupChannels.sort(),
    devices: devices.sort(),
  };
}

function differences(actual: OrgShape, expected: OrgShape): string[] {
  const out: string[] = [];
  for (const key of Object.keys(expected) as Array<keyof OrgShape>) {
    const want = new Set(expected[key]);
    const have = new Set(actual[key]);
    for (const item of expected[key]) if (!have.has(item)) out.push(`${key}: missing ${item}`);
    for (const item of actual[key]) if (!want.has(item)) out.push(`${key}: unexpected ${item}`);
    if (actual[key].length !== expected[key].length && out.length === 0) {
      out.push(`${key}: ${actual[key].length} entries, ${expected[key].length} declared`);
    }
  }
  return out;
}

function duplicatesIn(snapshot: OrgSnapshot): string[] {
  const repeated = (keys: string[]) => keys.filter((k, i) => keys.indexOf(k) !== i);
  return [
    ...repeated(snapshot.users.map((u) => u.email.toLowerCase())).map((e) => `user ${e}`),
    ...repeated(snapshot.groups.map((g) => `${g.parentId ?? "(root)"}/${g.name}`)).map((g) => `group ${g}`),
    // examples/org's uploads, retried through faults: one file per folder and name, one video per name and content.
    ...repeated(snapshot.files.map((f) => `${f.location}/${f.filename}`)).map((f) => `file ${f}`),
    ...repeated(snapshot.videos.map((v) => `${v.filename} ${v.sha512}`)).map((v) => `video ${v}`),
    // One image and one 3D environment per name, one bundle per build and label (the build's own first bundle
    // has no label).
    ...repeated(snapshot.images.map((i) => `${i.originalFileName}`)).map((i) => `image ${i}`),
    ...repeated(snapshot.custom3DEnvironments.map((e) => e.objectName)).map((e) => `3D environment ${e}`),
    ...repeated(snapshot.appBundles.filter((b) => b.label).map((b) => `${b.versionId} "${b.label}"`)).map(
      (b) => `bundle ${b}`,
    ),
  ];
}

// ---- The run ---------------------------------------------------------------------------------------------------

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => {});
  const emulator = await startEmulator({ port: 0 });
  const token = emulator.tokens.multiOrgAdmin;
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "devicemgmt-soak-"));
  let engine: Engine | undefined;
  try {
    const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    const channelName = new Map<string, string>();
    for (const app of await admin.apps.all()) {
      for (const rc of await admin.apps.releaseChannels(app.id).all())
        channelName.set(rc.id, `${app.name}/${rc.name}`);
    }
    const devices = await admin.devices.all();
    const loaner = devices.find((d) => d.name === "Headset 08")!;
    const settings: OrganizationSettings = {
      loanerDeviceId: loaner.id,
      stagingSlug: "acme-staging",
      demoDeviceName: "Headset 01",
      emailDomain: "acme.example",
    };
    const before = shapeOf(emulator.snapshot(), channelName);
    const program = (revision: number) => () => {
      const org = declareOrganization(settings);
      declareExtras(options.extra, revision);
      return org;
    };

    engine = await createEngine({
      cwd: repoRoot,
      project: "devicemgmt-soak",
      config: { "devicemgmt:baseUrl": emulator.baseUrl },
      secretConfig: { "devicemgmt:apiToken": token },
      env: { DEVICEMGMT_LOG: "debug" },
    });
    const running = engine;
    emulator.setFaults(options.faults);
    const stages: StageReport[] = [];
    const allErrors: string[] = [];

    const converge = async (stage: string, run: () => Promise<RunResult>) => {
      const report: StageReport = {
        stage,
        runs: 0,
        converged: false,
        failures: [],
        differences: [],
        duplicates: [],
      };
      let result: RunResult;
      do {
        const started = performance.now();
        const requestsBefore = emulator.stats().requests;
        result = await run();
        report.runs++;
        log(
          `  ${stage}: run ${report.runs} ${result.ok ? "succeeded" : "failed"} in ` +
            `${((performance.now() - started) / 1000).toFixed(1)} s, ${emulator.stats().requests - requestsBefore} requests`,
        );
        if (!result.ok) {
          const messages = result.errors.map(
            (e) => `${e.op} ${e.urn?.split("::").pop() ?? ""}: ${e.message}`,
          );
          allErrors.push(...messages);
          report.failures.push(...messages.map((m) => m.split("\n")[0].slice(0, 300)));
          for (const failure of report.failures.slice(-messages.length)) log(`    ${failure}`);
        }
      } while (!result.ok && report.runs < options.maxRuns);
      report.converged = result.ok;
      stages.push(report);
      return report;
    };

    const checkUp = async (stage: string, revision: number) => {
      const report = await converge(stage, () => running.up(program(revision)));
      const snapshot = emulator.snapshot();
      const expected = expectedShape(
        before,
        settings,
        options.extra,
        revision,
        settings.demoDeviceName,
        loaner.name,
      );
      report.differences = differences(shapeOf(snapshot, channelName), expected);
      report.duplicates = duplicatesIn(snapshot);
      const writesBefore = emulator.stats().writes;
      const again = await running.up(program(revision));
      const steps = ["create", "update", "replace", "delete"] as const;
      report.followUp = {
        steps: again.ok ? steps.reduce((n, kind) => n + again.steps[kind].length, 0) : Number.NaN,
        writes: emulator.stats().writes - writesBefore,
      };
      log(
        `  ${stage}: ${report.converged ? "converged" : "did not converge"} after ${report.runs} up(s); ` +
          `${report.differences.length} difference(s), ` +
          `${report.duplicates.length} duplicate(s); the next up: ${report.followUp.steps} step(s), ` +
          `${report.followUp.writes} write(s)`,
      );
    };

    await checkUp("create", 0);
    const objects = running.resources().filter((r) => r.custom).length;
    for (let round = 1; round <= options.rounds; round++)
      await checkUp(`edit ${round}`, round % 2 === 1 ? 1 : 2);

    const statePath = path.join(stateDir, "state.json");
    await running.saveState(statePath);
    const state = fs.readFileSync(statePath, "utf8");

    if (options.destroy) {
      const report = await converge("destroy", () => running.destroy());
      const after = shapeOf(emulator.snapshot(), channelName);
      const loanerGone = {
        ...before,
        devices: before.devices.filter((d) => !d.startsWith(`${loaner.name} in `)),
      };
      report.differences = differences(after, loanerGone);
      report.duplicates = duplicatesIn(emulator.snapshot());
      log(`  destroy: done after ${report.runs} run(s); ${report.differences.length} difference(s)`);
    }

    await running.close();
    const pluginLog = running.stderr();
    const secretPart = token.split("|")[1];
    const leaks = (text: string) =>
      [token, secretPart, encodeURIComponent(token)].some((t) => text.includes(t));
    const tokenFound = [
      ...(leaks(state) ? ["state"] : []),
      ...(leaks(pluginLog) ? ["plugin log"] : []),
      ...(leaks(allErrors.join("\n")) ? ["errors"] : []),
    ];
    return {
      stages,
      tokenFound,
      debugLines: pluginLog.split("\n").filter((line) => line.startsWith("devicemgmt: ")).length,
      emulatorStats: emulator.stats(),
      objects,
    };
  } finally {
    await engine?.close();
    await emulator.close();
    await closeDispatchers();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}
