// The generated programs type-check: with the project's own strict compiler options, and with the tsconfig.json
// the export writes next to them. Each program sits in a folder whose node_modules links the packages the way
// `npm install` of its package.json would: pulumi-devicemgmt is this repository (its built typings).
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as ts from "typescript";
import { startEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { EXPORT_KINDS, type OrgModel } from "../../provider/export/model";
import { planProgram } from "../../provider/export/naming";
import { readOrganization } from "../../provider/export/read";
import { renderFiles } from "../../provider/export/render";
import { splitModel } from "../../provider/export/split";
import {
  exampleGroups,
  group,
  GROUP_ADMIN,
  id,
  model,
  nightShift,
  READ_ONLY,
  RENDER_OPTIONS,
  user,
} from "./support";

const repoRoot = path.resolve(__dirname, "../..");

const full = model({
  groups: [
    ...exampleGroups(),
    group("class", "class", "acme"),
    group("odd", 'Zürich "Depot" \\ 東京\n🚀 \u202E', "class", true),
    group("spare-1", "Spare", "emea", true),
    group("spare-2", "Spare", "emea", true),
  ],
  users: [
    user("emil.lindqvist@acme.example", READ_ONLY, [
      [GROUP_ADMIN, "berlin"],
      [GROUP_ADMIN, "odd"],
    ]),
    user("zoe@acme.example", GROUP_ADMIN, [[{ name: "Group Viewer", type: "group" }, "spare-2"]]),
    user("ops@acme.example", { name: "Member", type: "organization" }),
  ],
  groupChannels: [
    { groupId: id("berlin"), channel: { appName: "Training Simulator", channelName: "Production" } },
    { groupId: id("odd"), channel: { appName: 'App "Q"', channelName: "Beta\\1" } },
  ],
  deviceChannels: [
    {
      deviceId: id("h1"),
      deviceName: "Headset 01",
      channel: { appName: "Safety Briefing", channelName: "Stable" },
    },
  ],
});

const variants: Record<string, OrgModel> = {
  full,
  "groups-looked-up": { ...full, kinds: ["users", "attachments"] },
  "groups-only": { ...full, kinds: ["groups"], users: [], groupChannels: [], deviceChannels: [] },
  "attachments-only": { ...full, kinds: ["attachments"], users: [] },
  empty: model(),
  experiences: { ...full, themes: [nightShift()], experiences: experiences() },
  // Issue 20: tags, tag sets, devices by serial (one with a custom field whose name is no identifier), content
  // on an ungrouped device, and channel versions (two channels on one version share its lookup).
  devices: {
    ...full,
    kinds: [...full.kinds, "tags", "devices", "versions"],
    tags: [
      { id: id("tag-lobby"), name: "lobby" },
      { id: id("tag-site"), name: "Site Nord" },
    ],
    tagSets: [
      { ownerType: "video", ownerId: id("tour"), ownerName: "Welcome Tour", tags: ["lobby", "unknown"] },
    ],
    placedDevices: [
      {
        id: id("h2"),
        serialNumber: "ACM0002",
        name: "Headset 02",
        groupId: id("berlin"),
        tags: ["Site Nord"],
        customFields: [
          ["Asset tag", "AT-2"],
          ["room", "Atrium"],
        ],
      },
      {
        id: id("h3"),
        serialNumber: "ACM0003",
        name: "Headset 03",
        groupId: null,
        tags: [],
        customFields: [],
      },
    ],
    deviceContent: [
      {
        deviceId: id("h3"),
        deviceName: "Headset 03",
        type: "file",
        contentId: id("manual"),
        contentName: "safety-manual.pdf",
      },
      {
        deviceId: id("h3"),
        deviceName: "Headset 03",
        type: "video",
        contentId: id("tour"),
        contentName: "Welcome Tour",
      },
    ],
    channelVersions: [
      { appName: "Training Simulator", channelName: "Beta", version: "2.5.0" },
      { appName: "Training Simulator", channelName: "Production", version: "2.5.0" },
    ],
  },
};

/** A kiosk with a PIN shown, a home on a declared custom theme with no PIN shown, a lock task on a device. */
function experiences(): NonNullable<OrgModel["experiences"]> {
  const sharedModeSettings = {
    enableOfflineMode: false,
    requireManagedMetaLogin: false,
    enableControllerFree: false,
    wakeControllers: true,
    adjustDeviceFit: true,
    defaultToStationaryBoundary: false,
  };
  const app = { kind: "app", name: "Training Simulator" } as const;
  const menu = {
    language: "de",
    menuIconImageId: id("icon"),
    removePoweredByArborXrBranding: false,
  };
  const icon = { kind: "image", name: "acme-menu-icon.png", type: "headset-xp-menu-icon" } as const;
  return [
    {
      kind: "headset",
      owner: { groupId: id("berlin") },
      pin: "shown",
      fields: {
        mode: "arborxr-kiosk",
        kioskContent: { type: "app", id: id("app") },
        isMenuEnabled: true,
        ...menu,
        themeId: id("dark"),
        shortcuts: ["boundary"],
        sharedModeSettings,
      },
      refs: {
        [id("app")]: app,
        [id("icon")]: icon,
        [id("dark")]: { kind: "theme", name: "ArborXR Dark", systemOwned: true, themeId: id("dark") },
      },
    },
    {
      kind: "headset",
      owner: { groupId: id("austin") },
      pin: "unknown",
      fields: {
        mode: "arborxr-home",
        visibleContents: [
          { type: "app", id: id("app") },
          { type: "video", id: id("tour") },
        ],
        ...menu,
        themeId: id("night"),
        menuTitle: "Austin",
        shortcuts: [],
        categorizationTags: ["safety"],
        background: { type: "custom-3d-environment", custom3DEnvironmentId: id("showroom") },
        sharedModeSettings,
      },
      refs: {
        [id("app")]: app,
        [id("icon")]: icon,
        [id("tour")]: { kind: "video", name: "Welcome Tour", videoId: id("tour") },
        [id("night")]: { kind: "theme", name: "Night Shift", systemOwned: false, themeId: id("night") },
        [id("showroom")]: { kind: "environment", name: "acme-showroom.glb", environmentId: id("showroom") },
      },
    },
    {
      kind: "device",
      owner: { deviceId: id("h1"), deviceName: "Headset 01" },
      pin: "none",
      fields: { mode: "lock-task", visibleContents: [{ type: "app", id: id("app") }] },
      refs: { [id("app")]: app },
    },
  ];
}

/**
 * Issue 32: names that collide once made identifiers, or that are the generated program's own names; a theme no
 * experience shows and tags nothing carries (declared, never read: noUnusedLocals refuses a `const` of them).
 */
const breaking: OrgModel = {
  ...model({
    groups: [
      group("config", "Config", null, true),
      group("options", "Options", null, true),
      group("absent", "Absent Devices", null, true),
      group("place", "place device", null, true),
    ],
    users: [
      user("ada@acme.example", READ_ONLY, [
        [GROUP_ADMIN, "config"],
        [GROUP_ADMIN, "options"],
        [GROUP_ADMIN, "absent"],
        [GROUP_ADMIN, "place"],
      ]),
    ],
    groupChannels: [
      { groupId: id("config"), channel: { appName: "App A", channelName: "Beta" } },
      { groupId: id("config"), channel: { appName: "App-A", channelName: "Beta" } },
      { groupId: id("options"), channel: { appName: "app a", channelName: "beta" } },
    ],
    deviceChannels: ["Headset", "Headset!", "headset?"].map((name) => ({
      deviceId: id(name),
      deviceName: name,
      channel: { appName: "App A", channelName: "Beta" },
    })),
  }),
  kinds: ["groups", "users", "attachments", "themes", "tags", "devices"],
  themes: [nightShift()],
  tags: ["Site!", "Site?", "site.", "Unused"].map((name) => ({ id: id(`tag ${name}`), name })),
  placedDevices: ["Site!", "Site?", "site."].map((tag, i) => ({
    id: id(`placed ${i}`),
    serialNumber: `ACM10${i}`,
    name: `Headset ${i}`,
    groupId: id("options"),
    tags: [tag],
    customFields: [
      ["__proto__", "not a prototype"],
      ["constructor", "x"],
    ],
  })),
};
variants.breaking = breaking;

let workDir: string;

/** The seeded organization (the demo's and the README's), read as `devicemgmt-export` reads it. */
async function seededModels(): Promise<Record<string, OrgModel>> {
  const emulator = await startEmulator({ port: 0 });
  try {
    const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    const models: Record<string, OrgModel> = {
      seeded: await readOrganization(client, { kinds: [...EXPORT_KINDS] }),
    };
    // Each kind alone too: what the program declares changes which of its own names it reads.
    for (const kind of EXPORT_KINDS)
      models[`seeded-${kind}`] = await readOrganization(client, { kinds: [kind] });
    return models;
  } finally {
    await emulator.close();
  }
}

/** Each program of a split export (`--split`) compiles on its own: its lookups of the others' objects too. */
function splitVariants(): Record<string, OrgModel> {
  const splits: [string, number][] = [
    ["experiences", 2],
    ["devices", 1],
    ["breaking", 1],
    ["seeded", 1],
    ["seeded", 2],
  ];
  return Object.fromEntries(
    splits.flatMap(([name, depth]) =>
      splitModel(variants[name], depth).map((p) => [`split-${name}-${depth}-${p.folder}`, p.model]),
    ),
  );
}

beforeAll(async () => {
  Object.assign(variants, await seededModels());
  Object.assign(variants, splitVariants());
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "devicemgmt-export-tsc-"));
  const modules = path.join(workDir, "node_modules");
  fs.mkdirSync(path.join(modules, "@types"), { recursive: true });
  fs.symlinkSync(repoRoot, path.join(modules, "pulumi-devicemgmt"), "dir");
  fs.symlinkSync(path.join(repoRoot, "node_modules/@pulumi"), path.join(modules, "@pulumi"), "dir");
  fs.symlinkSync(path.join(repoRoot, "node_modules/@types/node"), path.join(modules, "@types/node"), "dir");
  for (const [name, variant] of Object.entries(variants)) {
    const dir = path.join(workDir, name);
    fs.mkdirSync(dir);
    for (const [file, content] of Object.entries(renderFiles(planProgram(variant), RENDER_OPTIONS))) {
      fs.writeFileSync(path.join(dir, file), content);
    }
  }
});

afterAll(() => {
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** The diagnostics of a type-check, by file (relative to the work folder). */
function diagnosticsOf(rootNames: string[], options: ts.CompilerOptions): Record<string, string[]> {
  const program = ts.createProgram(rootNames, { ...options, noEmit: true });
  const byFile: Record<string, string[]> = {};
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file ? path.relative(workDir, d.file.fileName) : "(options)";
    (byFile[file] ??= []).push(ts.flattenDiagnosticMessageText(d.messageText, " "));
  }
  return byFile;
}

const programs = () => Object.keys(variants).map((name) => path.join(workDir, name, "index.ts"));

it("compiles under the repository's strict tsconfig, and would report a mistake", () => {
  const file = path.join(repoRoot, "tsconfig.json");
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  const { options, errors } = ts.parseJsonConfigFileContent(config, ts.sys, repoRoot, undefined, file);
  expect(errors).toEqual([]);
  expect(options.strict).toBe(true);
  expect(options.noUnusedLocals).toBe(true);
  // A control: the full program with one misspelt property, so a clean result above means the package's
  // types were really resolved and checked.
  const control = path.join(workDir, "control.ts");
  fs.writeFileSync(
    control,
    fs.readFileSync(path.join(workDir, "full", "index.ts"), "utf8").replace("name: ", "nmae: "),
  );
  // A generated folder has no jest; everything else is the project's own setting.
  expect(diagnosticsOf([...programs(), control], { ...options, types: ["node"] })).toEqual({
    // (TypeScript words it as a missing `name` or as an unknown `nmae`, depending on the lookup's signature.)
    "control.ts": [expect.stringMatching(/'nmae'|nmae: string/)],
  });
});

it("compiles under the tsconfig.json it is generated with", () => {
  const parsed = Object.keys(variants).map((name) => {
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(workDir, name, "tsconfig.json"),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
        },
      },
    )!;
    expect(config.errors).toEqual([]);
    expect(config.fileNames).toEqual([path.join(workDir, name, "index.ts")]);
    return config;
  });
  // Every variant gets the same tsconfig, so one compilation checks them all.
  const texts = Object.keys(variants).map((name) =>
    fs.readFileSync(path.join(workDir, name, "tsconfig.json"), "utf8"),
  );
  expect(new Set(texts).size).toBe(1);
  expect(parsed[0].options.strict).toBe(true);
  expect(diagnosticsOf(programs(), parsed[0].options)).toEqual({});
});
