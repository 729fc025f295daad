/**
 * Plan → files. Pure: the same plan and options give byte-identical files (no clock, no environment, no
 * locale), which is what makes a second export of an unchanged organization show no difference.
 */
import { countedContent } from "./contentRead";
import { ExportOptionError } from "./errors";
import { declaredGroupCount, type ProgramPlan } from "./naming";
import { renderProgram } from "./program";
import { WIDTH } from "./layout";
import type { RenderOptions, SplitRender } from "./renderOptions";
import type { SplitStage } from "./split";
import { stagingAdopt, type StagingMatch } from "./staging";
import { markdownCode, markdownText } from "../printable";
import { oneLine, yamlString } from "./text";

export { oneLine, tsString, yamlString } from "./text";

/** File name → content. */
export type ExportFiles = Record<string, string>;

export function renderFiles(plan: ProgramPlan, options: RenderOptions): ExportFiles {
  if (options.staging && options.staging.stack === options.stack) {
    throw new ExportOptionError(
      `The staging stack must differ from the source stack ("${options.stack}").`,
      "--match-stack",
      "name the staging stack",
    );
  }
  return {
    "index.ts": renderProgram(plan, options),
    "Pulumi.yaml": renderProjectFile(plan, options),
    [stackConfigFileName(options.stack)]: renderStackConfig(plan, options),
    ...(options.staging
      ? { [stackConfigFileName(options.staging.stack)]: renderStagingConfig(options.staging, options) }
      : {}),
    "package.json": renderPackageJson(plan, options),
    "tsconfig.json": renderTsconfig(),
    "README.md": renderReadme(plan, options),
  };
}

export const stackConfigFileName = (stack: string) => `Pulumi.${stack}.yaml`;

// ---- Pulumi.yaml, Pulumi.<stack>.yaml -----------------------------------------------------------------------

function renderProjectFile(plan: ProgramPlan, options: RenderOptions): string {
  const org = plan.organization;
  return [
    `name: ${yamlString(options.project)}`,
    `description: ${yamlString(`Organization ${oneLine(org.name)} (${oneLine(org.slug)}) as code, exported by devicemgmt-export.`)}`,
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    typescript: true",
    "",
  ].join("\n");
}

function renderStackConfig(plan: ProgramPlan, options: RenderOptions): string {
  const org = plan.organization;
  const lines = [
    `# Stack "${options.stack}": organization "${oneLine(org.name)}" (${oneLine(org.slug)}) as it is.`,
    "# The adopt map gives each declared resource the id of the existing object, so this stack takes them over",
    "# instead of creating new ones. A stack without it (a staging stack) creates the same structure.",
    "# The API token is not here; set it with: pulumi config set --secret devicemgmt:apiToken <token>",
    "config:",
  ];
  if (options.baseUrl) lines.push(`  ${yamlString("devicemgmt:baseUrl")}: ${yamlString(options.baseUrl)}`);
  if (plan.adopt.length) {
    lines.push(`  ${yamlString(`${options.project}:adopt`)}:`);
    for (const [name, id] of plan.adopt) lines.push(`    ${yamlString(name)}: ${yamlString(id)}`);
  }
  if (!options.baseUrl && !plan.adopt.length) lines[lines.length - 1] = "config: {}";
  return `${lines.join("\n")}\n`;
}

function renderStagingConfig(staging: StagingMatch, options: RenderOptions): string {
  const org = staging.organization;
  const adopt = stagingAdopt(staging);
  const lines = [
    `# Stack "${staging.stack}": the same structure in organization "${oneLine(org.name)}" (${oneLine(org.slug)}),`,
    "# which already holds some of the objects. The adopt map names those (read by devicemgmt-export, listed in",
    "# README.md): this stack takes them over instead of failing on them, and retainAdopted makes `destroy` leave",
    "# them in place. Everything else is created by this stack and deleted by its `destroy`.",
    "# The API token is not here; set it with: pulumi config set --secret devicemgmt:apiToken <token>",
    "config:",
    `  ${yamlString("devicemgmt:baseUrl")}: ${yamlString(staging.baseUrl)}`,
    `  ${yamlString(`${options.project}:retainAdopted`)}: true`,
  ];
  if (adopt.length) {
    lines.push(`  ${yamlString(`${options.project}:adopt`)}:`);
    for (const [name, id] of adopt) lines.push(`    ${yamlString(name)}: ${yamlString(id)}`);
  }
  if (staging.absentDevices.length) {
    lines.push(`  ${yamlString(`${options.project}:absentDevices`)}:`);
    for (const name of staging.absentDevices) lines.push(`    - ${yamlString(name)}`);
  }
  return `${lines.join("\n")}\n`;
}

// ---- package.json, tsconfig.json ----------------------------------------------------------------------------

function renderPackageJson(plan: ProgramPlan, options: RenderOptions): string {
  const { versions } = options;
  const pkg = {
    name: options.project,
    version: "0.0.0",
    private: true,
    description: `Organization ${oneLine(plan.organization.name)} (${oneLine(plan.organization.slug)}) as code, exported by devicemgmt-export.`,
    main: "index.ts",
    scripts: { typecheck: "tsc --noEmit" },
    dependencies: { "@pulumi/pulumi": versions.pulumi, "pulumi-devicemgmt": versions.provider },
    devDependencies: {
      "@types/node": versions.typesNode,
      "ts-node": versions.tsNode,
      typescript: versions.typescript,
    },
  };
  return `${prettyJson(pkg)}\n`;
}

function renderTsconfig(): string {
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2022"],
      module: "node16",
      moduleResolution: "node16",
      strict: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      noFallthroughCasesInSwitch: true,
      forceConsistentCasingInFileNames: true,
      esModuleInterop: true,
      skipLibCheck: true,
      types: ["node"],
      outDir: "bin",
    },
    files: ["index.ts"],
  };
  return `${prettyJson(tsconfig)}\n`;
}

/**
 * JSON as prettier prints it: objects one member per line, arrays on one line when they fit the width (so the
 * files pass a repository's prettier when exported inside one).
 */
export function prettyJson(value: unknown, indent = "", lead = 0): string {
  if (Array.isArray(value)) {
    const flat = JSON.stringify(value);
    if (value.every((v) => typeof v !== "object" || v === null) && lead + flat.length + 1 <= WIDTH) {
      return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
    }
    const inner = `${indent}  `;
    return `[\n${value.map((v) => `${inner}${prettyJson(v, inner, inner.length)}`).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (!entries.length) return "{}";
    const inner = `${indent}  `;
    const members = entries.map(([k, v]) => {
      const key = `${JSON.stringify(k)}: `;
      return `${inner}${key}${prettyJson(v, inner, inner.length + key.length)}`;
    });
    return `{\n${members.join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

// ---- README.md ----------------------------------------------------------------------------------------------

function renderStagingReadme(options: RenderOptions): string[] {
  const staging = options.staging;
  if (!staging) {
    return [
      "## Staging: the same structure in another organization",
      [
        "```sh",
        "pulumi stack init staging            # no adopt map: everything is created",
        "pulumi config set devicemgmt:baseUrl https://<host>/api/v3",
        "pulumi config set --secret devicemgmt:apiToken <token of the staging organization>",
        "pulumi up",
        "```",
      ].join("\n"),
      "`destroy` on the staging stack removes what it created and nothing else. If the staging organization " +
        "already holds some of these objects (a user with the same e-mail, a group of the same name under the " +
        "same parent, an attached channel), `up` stops at the first one with an error instead of taking it " +
        "over. Export again with `--match-base-url <staging API URL> --match-token-env <variable holding its " +
        "token>`: the export reads the staging organization and writes the staging stack's config with the ids " +
        "of the objects it already holds, which the stack then adopts and leaves in place on `destroy`.",
    ];
  }
  const org = staging.organization;
  const configFile = stackConfigFileName(staging.stack);
  const adopted = staging.objects.filter((o) => o.outcome === "adopt");
  const created = staging.objects.filter((o) => o.outcome === "create");
  const row = (o: (typeof staging.objects)[number]) =>
    `- ${markdownCode(o.resourceName)} (${o.kind}) ${markdownText(o.label)}` +
    (o.notes.length ? `: ${o.notes.map(markdownText).join("; ")}` : "");
  return [
    `## Staging: the same structure in "${markdownText(org.name)}" (${markdownCode(org.slug)})`,
    `The export read this organization too. ${configFile} is the config of stack \`${staging.stack}\`: its ` +
      `base URL, \`retainAdopted: true\`, and the ids of the ${adopted.length} objects it already holds.`,
    [
      "```sh",
      `pulumi stack init ${staging.stack}   # ${configFile} is its config`,
      `pulumi config set --secret devicemgmt:apiToken <token of ${oneLine(org.slug)}>`,
      "pulumi preview   # every resource shows as a create; the adopted ones change nothing that matches",
      "pulumi up",
      "pulumi destroy   # when done: deletes what the stack created, leaves the adopted objects",
      "```",
    ].join("\n"),
    `### Adopted: they exist in ${markdownText(org.slug)}; the stack manages them, and \`destroy\` leaves them`,
    adopted.length ? adopted.map(row).join("\n") : "None.",
    "Adopting makes an object match the program (its name, parent, configuration, roles). `destroy` does not " +
      "undo those changes: it only stops managing the object (the resources have `retainOnDelete`, so even " +
      "renaming one in the program does not delete the object; the renamed resource's create then fails until " +
      "its name is in the adopt map).",
    `### Created: the stack creates them, and \`destroy\` deletes them`,
    created.length ? created.map(row).join("\n") : "None.",
    ...(staging.lacks.length
      ? [
          `### Missing in ${markdownText(org.slug)}: the program looks them up by name, so \`up\` fails until they exist`,
          staging.lacks.map((line) => `- ${markdownText(line)}`).join("\n"),
        ]
      : []),
    "Objects of the staging organization that the program does not declare (other users, groups, channels) are " +
      "not touched. If the staging organization changes before the first `up`, export again: an object created " +
      "there since then makes its create fail rather than be taken over.",
  ];
}

/** Which secrets to set before the first `up`: the PINs are never read into these files. */
function renderPinReadme(plan: ProgramPlan, options: RenderOptions): string[] {
  const withPin = plan.content.experiences.filter((x) => x.pinKey);
  if (!withPin.length) return [];
  const shown = withPin.filter((x) => x.experience.pin === "shown");
  const unknown = withPin.filter((x) => x.experience.pin === "unknown");
  const command = (x: (typeof withPin)[number]) =>
    `pulumi config set --secret ${options.project}:${x.pinKey} <PIN>   # ${oneLine(x.ownerLabel)}`;
  return [
    "## Admin PINs: set them before the first `up`",
    "The export never reads a PIN into these files. The program takes each from a config secret of the stack " +
      "(every stack: production and staging alike).",
    ...(shown.length
      ? [
          "These experiences have a PIN: `up` stops until it is set (use the one the headsets have now, or a new one):",
          ["```sh", ...shown.map(command), "```"].join("\n"),
        ]
      : []),
    ...(unknown.length
      ? [
          "For these the API answered no PIN, which may also mean it withholds PINs. Without the setting the " +
            "program declares none, and `up` removes a PIN the headsets have: set it if they have one.",
          ["```sh", ...unknown.map(command), "```"].join("\n"),
        ]
      : []),
  ];
}

const STAGE_ORDER: Record<SplitStage, string> = {
  shared: "first: the regions look up what it declares",
  region: "after the shared program, side by side with the other regions",
  "cross-region": "last, after every region: it looks up their groups",
};

/** A split program's place in the run order (its README). */
function renderSplitPart(split: SplitRender): string[] {
  return [
    "## One of several programs: run order",
    `This program declares ${split.program.stage === "region" ? `the region "${markdownText(split.program.label)}"` : `the ${markdownText(split.program.label)} part`} ` +
      `of a split export, each program its own project and stack (folders ${split.programs.map((p) => markdownCode(p.folder)).join(", ")}). ` +
      `Run it ${STAGE_ORDER[split.program.stage]}. What another program declares, this one looks up by name ` +
      "(`get…Output`), never declares: every object belongs to exactly one stack. See `../README.md`.",
  ];
}

/**
 * The README at the top of a split export: the programs and the order to run them in (shared first, then the
 * regions side by side, then the cross-region users), and how to check that together they manage everything.
 */
export function renderSplitReadme(
  organization: ProgramPlan["organization"],
  programs: SplitRender["programs"],
  stack: string,
): string {
  const inStage = (stage: SplitStage) => programs.filter((p) => p.stage === stage);
  const entry = (p: SplitRender["programs"][number]) => `\`${p.folder}/\`: ${markdownText(p.label)}`;
  const upIn = (p: SplitRender["programs"][number]) =>
    `(cd ${p.folder} && npm install && pulumi stack select --create ${stack} && pulumi up --yes)`;
  const crossRegion = inStage("cross-region");
  return `${[
    `# Organization "${markdownText(organization.name)}" (${markdownCode(organization.slug)}) in ${programs.length} programs`,
    "Exported by `devicemgmt-export --split`: one program per region (a group at the split depth with its " +
      "subtree, its devices, release channels and experiences, and the users whose group roles are all in it), " +
      "one for what the whole organization shares" +
      (crossRegion.length ? ", and one for users with group roles in several regions. " : ". ") +
      "Each " +
      "folder is a Pulumi project of its own with its own stack and `README.md`; every object is declared by " +
      "exactly one of them, and the others find it by lookup. Small stacks stay fast where one large one slows " +
      "down, and a change to one region touches only its stack.",
    "## Order",
    [
      `1. ${inStage("shared").map(entry).join(" ")} — first: the regions look up its objects.`,
      `2. The regions, side by side (a CI matrix job, or one Pulumi Deployment each):`,
      ...inStage("region").map((p) => `   - ${entry(p)}`),
      ...(crossRegion.length
        ? [`3. ${crossRegion.map(entry).join(" ")} — last: it looks up the regions' groups.`]
        : []),
    ].join("\n"),
    [
      "```sh",
      ...inStage("shared").map(upIn),
      ...inStage("region").map((p) => `${upIn(p)} &`),
      "wait",
      ...crossRegion.map(upIn),
      "```",
    ].join("\n"),
    "Set the API token in each stack (`pulumi config set --secret devicemgmt:apiToken <token>`) or in " +
      "`DEVICEMGMT_API_TOKEN`. To check that together the stacks manage the whole organization, give " +
      "`devicemgmt-drift` every stack's export: an object none of them manages, or one two of them declare, is " +
      "reported.",
    [
      "```sh",
      ...programs.map((p) => `(cd ${p.folder} && pulumi stack export --file ../${p.folder}.json)`),
      `npx devicemgmt-drift ${programs.map((p) => `${p.folder}.json`).join(" ")}`,
      "```",
    ].join("\n"),
  ].join("\n\n")}\n`;
}

function renderReadme(plan: ProgramPlan, options: RenderOptions): string {
  const org = { ...plan.organization, exportedBy: plan.exportedBy };
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const declared = [
    plan.declaresGroups ? count(declaredGroupCount(plan), "group") : undefined,
    count(plan.users.length, "user"),
    count(
      plan.groupChannels.length + plan.devices.reduce((n, d) => n + d.channels.length, 0),
      "release-channel attachment",
    ),
    ...(plan.content.themes.length ? [count(plan.content.themes.length, "theme")] : []),
    ...(plan.content.experiences.length ? [count(plan.content.experiences.length, "experience")] : []),
    ...(plan.placement.tags.length ? [count(plan.placement.tags.length, "tag")] : []),
    ...(plan.placement.devices.length ? [count(plan.placement.devices.length, "device")] : []),
    ...(plan.placement.channelVersions.length
      ? [count(plan.placement.channelVersions.length, "channel version")]
      : []),
    ...(plan.uploaded.length
      ? [
          `${countedContent(plan.uploaded)} uploaded from \`content/\` (the export downloaded their bytes ` +
            "and checked them against the organization's checksums: `up` in another organization uploads the same)",
        ]
      : []),
  ].filter(Boolean);
  const configFile = stackConfigFileName(options.stack);
  const leftOut = [
    `- **The user of the token that ran the export**${org.exportedBy ? ` (${markdownText(org.exportedBy)})` : ""}. ` +
      "Every organization has its token's own user, so a staging stack must neither create it nor delete it " +
      "on `destroy`.",
    "- **Roles, apps, release channels and devices** are looked up by name, not declared: the target " +
      "organization must have the same names (a staging organization mirrors them).",
    ...(plan.placement.devices.length
      ? [
          "- **Devices are not migrated.** Each `Device` is adopted by serial number: a stack places a headset only " +
            "where that serial is enrolled. The staging config lists the others under `absentDevices`; they stay " +
            "where they are, in this organization.",
        ]
      : []),
    "- **Files and videos on groups**: the API lists no group's files or videos, so they cannot be read back; " +
      "declare them with `GroupFile` and `GroupVideo` (files and videos of ungrouped devices are exported). " +
      "**The tags of groups**: a group's tags are not in the API's answers, so they cannot be read back; declare " +
      "them with `TagSet` (the tags of apps, files and videos are exported). **Channel shares**: the API has no " +
      "read of the organizations a channel is shared with, so they cannot be exported.",
    ...plan.leftOut.map((line) => `- ${markdownText(line)}`),
  ];
  return `${[
    `# ${oneLine(options.project)}`,
    `Organization "${markdownText(org.name)}" (${markdownCode(org.slug)}) as a Pulumi program, exported by ` +
      `\`devicemgmt-export\`: ${declared.join(", ")}. \`index.ts\` is the program; edit it like any other.`,
    ...(options.split ? renderSplitPart(options.split) : []),
    "## Production: manage the organization as it is",
    [
      "```sh",
      "npm install",
      `pulumi stack init ${options.stack}          # ${configFile} is its config: the adoption ids and the base URL`,
      "pulumi config set --secret devicemgmt:apiToken <token>",
      "pulumi preview   # every resource shows as a create: each adopts the existing object, changing nothing",
      "pulumi up",
      "```",
    ].join("\n"),
    `\`package.json\` asks for pulumi-devicemgmt ${options.versions.provider}, the version that wrote this ` +
      "program; if you install the package from a checkout or a tarball rather than a registry, point that line " +
      "there (e.g. `file:../pulumi-devicemgmt`).",
    `Each resource reads its \`adoptId\` from the \`${options.project}:adopt\` map in ${configFile}: the first ` +
      "`up` takes over the existing objects (it only reads them, since they already match the program) and later " +
      "runs manage them. After that first `up` the ids are inert. Groups and users are adopted by id, " +
      "release-channel attachments by `<ownerId>/<releaseChannelId>`. A resource without an id never takes " +
      "over an existing object: its create fails and names the id to set.",
    ...renderPinReadme(plan, options),
    ...renderStagingReadme(options),
    "## Not in the program",
    leftOut.join("\n"),
    "## Exporting again",
    "An unchanged organization exports to the same files. Names come from the objects' names, so a renamed or " +
      "newly colliding object gets a new resource name: compare before replacing this program on a stack that " +
      "already manages the organization, since a resource that disappears from the program is deleted by `up`.",
  ].join("\n\n")}\n`;
}
