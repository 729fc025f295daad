/**
 * Plan → files. Pure: the same plan and options give byte-identical files (no clock, no environment, no
 * locale), which is what makes a second export of an unchanged organization show no difference.
 */
import type { ProgramPlan } from "./naming";
import { stagingAdopt, type StagingMatch } from "./staging";

export interface RenderOptions {
  /** Pulumi project name (also the namespace of the `adopt` config key). */
  project: string;
  /** The stack whose config file holds the adoption ids (the source organization's stack). */
  stack: string;
  /** The source organization's API base URL, written to the stack config; no token is ever written. */
  baseUrl?: string;
  /** The target organization read for a staging stack (`--match-base-url`): its config file and README part. */
  staging?: StagingMatch;
  /** Version specs for the generated package.json (`provider` may be a `file:` path to a checkout). */
  versions: {
    pulumi: string;
    provider: string;
    typescript: string;
    tsNode: string;
    typesNode: string;
  };
}

/** File name → content. */
export type ExportFiles = Record<string, string>;

const WIDTH = 110;

export function renderFiles(plan: ProgramPlan, options: RenderOptions): ExportFiles {
  if (options.staging && options.staging.stack === options.stack) {
    throw new Error(`The staging stack must differ from the source stack ("${options.stack}").`);
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

// ---- Escaping -----------------------------------------------------------------------------------------------

/**
 * Code points shown as escapes rather than as themselves: controls, format characters (bidirectional overrides
 * could make a name read differently from what it is), line and paragraph separators, surrogates, private use
 * and unassigned code points. Everything else — accents, CJK, emoji — stays readable.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/gu;

const hex = (codePoint: number, width: number) => codePoint.toString(16).toUpperCase().padStart(width, "0");

/** A TypeScript string literal whose value is exactly `text`. */
export function tsString(text: string): string {
  return JSON.stringify(text).replace(INVISIBLE, (c) => {
    const codePoint = c.codePointAt(0)!;
    return codePoint > 0xffff ? `\\u{${hex(codePoint, 4)}}` : `\\u${hex(codePoint, 4)}`;
  });
}

/** A YAML double-quoted scalar whose value is exactly `text` (JSON escapes are YAML escapes). */
export function yamlString(text: string): string {
  return JSON.stringify(text).replace(INVISIBLE, (c) => {
    const codePoint = c.codePointAt(0)!;
    return codePoint > 0xffff ? `\\U${hex(codePoint, 8)}` : `\\u${hex(codePoint, 4)}`;
  });
}

/** Text safe inside a `//` or `#` comment or a Markdown line: one line, nothing invisible. */
export function oneLine(text: string): string {
  return text.replace(INVISIBLE, " ").replace(/\s+/g, " ").trim();
}

// ---- A small, deterministic code layout -----------------------------------------------------------------------

type Expr = string | { object: [string, Expr][] } | { array: Expr[] };

function inline(expr: Expr): string {
  if (typeof expr === "string") return expr;
  if ("object" in expr) {
    return expr.object.length ? `{ ${expr.object.map(([k, v]) => `${k}: ${inline(v)}`).join(", ")} }` : "{}";
  }
  return `[${expr.array.map(inline).join(", ")}]`;
}

/** `expr` on one line when `lead + expr + tail` fits the width, otherwise one member per line. */
function layout(expr: Expr, indent: string, lead: number, tail: number): string {
  const flat = inline(expr);
  if (typeof expr === "string" || lead + flat.length + tail <= WIDTH) return flat;
  const inner = `${indent}  `;
  const lines =
    "object" in expr
      ? expr.object.map(([k, v]) => `${inner}${k}: ${layout(v, inner, inner.length + k.length + 2, 1)},`)
      : expr.array.map((v) => `${inner}${layout(v, inner, inner.length, 1)},`);
  const [open, close] = "object" in expr ? ["{", "}"] : ["[", "]"];
  return `${open}\n${lines.join("\n")}\n${indent}${close}`;
}

/**
 * `[const name = ]callee(args..., props[, trailing]);` laid out to the width as prettier lays it out: on one
 * line when it fits; else, without a trailing argument, the props object hugs the call; with one, every
 * argument goes on a line of its own.
 */
function statement(
  variable: string | undefined,
  callee: string,
  args: string[],
  props: [string, Expr][],
  trailing?: string,
): string {
  const open = `${variable ? `const ${variable} = ` : ""}${callee}(`;
  const lead = `${open}${args.map((a) => `${a}, `).join("")}`;
  if (trailing === undefined) return `${lead}${layout({ object: props }, "", lead.length, 2)});`;
  const flat = `${lead}${inline({ object: props })}, ${trailing});`;
  if (flat.length <= WIDTH) return flat;
  const lines = [...args, layout({ object: props }, "  ", 2, 1), trailing].map((a) => `  ${a},`);
  return `${open}\n${lines.join("\n")}\n);`;
}

// ---- index.ts -----------------------------------------------------------------------------------------------

function renderProgram(plan: ProgramPlan, options: RenderOptions): string {
  const org = plan.organization;
  const sections: string[] = [];
  const adopt = (resourceName: string): [string, Expr] => ["adoptId", `adopt[${tsString(resourceName)}]`];
  const opts = (resourceName: string) => `options(${tsString(resourceName)})`;
  const declaresAnything =
    plan.groups.some((g) => g.resourceName !== undefined) ||
    plan.users.length > 0 ||
    plan.groupChannels.length > 0 ||
    plan.devices.some((d) => d.channels.length > 0);

  if (declaresAnything) {
    sections.push(
      [
        `// Ids of existing objects this stack adopts instead of creating (stack config "${options.project}:adopt"). Without`,
        "// an id, a create that finds the object already there fails instead of taking it over silently.",
        `// "${options.project}:retainAdopted" (set by the export for a staging stack whose organization already held`,
        "// some of the objects) keeps the adopted objects when the stack is destroyed: they were not its to delete.",
        "const config = new pulumi.Config();",
        `const adopt = config.getObject<Record<string, string>>("adopt") ?? {};`,
        `const retainAdopted = config.getBoolean("retainAdopted") ?? false;`,
        "const options = (resourceName: string): pulumi.CustomResourceOptions => ({",
        "  retainOnDelete: retainAdopted && adopt[resourceName] !== undefined,",
        "});",
      ].join("\n"),
    );
  }
  if (plan.roles.length) {
    sections.push(
      [
        "// Roles are the organization's own: looked up by name, never declared.",
        ...plan.roles.map((r) =>
          statement(
            r.variable,
            "dm.getRoleOutput",
            [],
            [
              ["name", tsString(r.ref.name)],
              ["type", tsString(r.ref.type)],
            ],
          ),
        ),
      ].join("\n"),
    );
  }
  if (plan.channels.length) {
    sections.push(
      [
        "// Release channels, looked up by app and channel name.",
        ...plan.channels.map((c) =>
          statement(
            c.variable,
            "dm.getReleaseChannelOutput",
            [],
            [
              ["appName", tsString(c.ref.appName)],
              ["channelName", tsString(c.ref.channelName)],
            ],
          ),
        ),
      ].join("\n"),
    );
  }
  if (plan.groups.length) {
    const lines = plan.groups.map((g) => {
      const parent: [string, Expr][] = g.parentVariable ? [["parentId", `${g.parentVariable}.id`]] : [];
      if (!g.resourceName) {
        return statement(g.variable, "dm.getGroupOutput", [], [["name", tsString(g.group.name)], ...parent]);
      }
      return statement(
        g.variable,
        "new dm.Group",
        [tsString(g.resourceName)],
        [
          ["name", tsString(g.group.name)],
          ...parent,
          ...(g.group.configured ? [["configured", "true"] as [string, Expr]] : []),
          ...(g.sameNameOrdinal ? [["sameNameOrdinal", String(g.sameNameOrdinal)] as [string, Expr]] : []),
          adopt(g.resourceName),
        ],
        opts(g.resourceName),
      );
    });
    sections.push(
      [
        plan.declaresGroups
          ? "// Groups, parents before children. Configured groups hold devices and release channels."
          : "// Groups are not declared by this program: the ones it refers to are looked up by name under their parent.",
        ...lines,
      ].join("\n"),
    );
  }
  if (plan.users.length) {
    sections.push(
      [
        "// Users with their default role and group roles (the token's own user is not here: see README.md).",
        ...plan.users.map((u) => {
          const groupRoles: [string, Expr][] = u.groupRoles.length
            ? [
                [
                  "groupRoles",
                  {
                    array: u.groupRoles.map((r) => ({
                      object: [
                        ["roleId", `${r.roleVariable}.id`],
                        ["groupId", `${r.groupVariable}.id`],
                      ],
                    })),
                  },
                ],
              ]
            : [];
          return statement(
            undefined,
            "new dm.User",
            [tsString(u.resourceName)],
            [
              ["firstName", tsString(u.user.firstName)],
              ["lastName", tsString(u.user.lastName)],
              ["email", tsString(u.user.email)],
              ["defaultRoleId", `${u.defaultRoleVariable}.id`],
              ...groupRoles,
              adopt(u.resourceName),
            ],
            opts(u.resourceName),
          );
        }),
      ].join("\n"),
    );
  }
  if (plan.groupChannels.length) {
    sections.push(
      [
        "// Release channels on groups (an attachment's id is <groupId>/<releaseChannelId>).",
        ...plan.groupChannels.map((a) =>
          statement(
            undefined,
            "new dm.GroupReleaseChannel",
            [tsString(a.resourceName)],
            [
              ["groupId", `${a.groupVariable}.id`],
              ["releaseChannelId", `${a.channelVariable}.id`],
              adopt(a.resourceName),
            ],
            opts(a.resourceName),
          ),
        ),
      ].join("\n"),
    );
  }
  if (plan.devices.length) {
    sections.push(
      [
        "// Release channels on ungrouped devices; devices are looked up by name (a staging organization mirrors them).",
        ...plan.devices.flatMap((d) => [
          statement(d.variable, "dm.getDeviceOutput", [], [["name", tsString(d.deviceName)]]),
          ...d.channels.map((a) =>
            statement(
              undefined,
              "new dm.DeviceReleaseChannel",
              [tsString(a.resourceName)],
              [
                ["deviceId", `${d.variable}.id`],
                ["releaseChannelId", `${a.channelVariable}.id`],
                adopt(a.resourceName),
              ],
              opts(a.resourceName),
            ),
          ),
        ]),
      ].join("\n"),
    );
  }

  const imports = [
    ...(declaresAnything ? [`import * as pulumi from "@pulumi/pulumi";`] : []),
    ...(sections.length > (declaresAnything ? 1 : 0) ? [`import * as dm from "pulumi-devicemgmt";`] : []),
  ];
  const header = [
    `// Organization "${oneLine(org.name)}" (${oneLine(org.slug)}) as a Pulumi program, exported by devicemgmt-export.`,
    "// Edit it freely; README.md says how to run it against this organization and against a staging copy.",
  ];
  // An empty organization still gives a valid module.
  const body = sections.length ? sections : ["export {};"];
  return `${[[...header, ...imports].join("\n"), ...body].join("\n\n")}\n`;
}

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
    `- \`${o.resourceName}\` (${o.kind}) ${oneLine(o.label)}` +
    (o.notes.length ? `: ${o.notes.map(oneLine).join("; ")}` : "");
  return [
    `## Staging: the same structure in "${oneLine(org.name)}" (\`${oneLine(org.slug)}\`)`,
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
    `### Adopted: they exist in ${oneLine(org.slug)}; the stack manages them, and \`destroy\` leaves them`,
    adopted.length ? adopted.map(row).join("\n") : "None.",
    "Adopting makes an object match the program (its name, parent, configuration, roles). `destroy` does not " +
      "undo those changes: it only stops managing the object (the resources have `retainOnDelete`, so even " +
      "renaming one in the program does not delete the object; the renamed resource's create then fails until " +
      "its name is in the adopt map).",
    `### Created: the stack creates them, and \`destroy\` deletes them`,
    created.length ? created.map(row).join("\n") : "None.",
    "Objects of the staging organization that the program does not declare (other users, groups, channels) are " +
      "not touched. If the staging organization changes before the first `up`, export again: an object created " +
      "there since then makes its create fail rather than be taken over.",
  ];
}

function renderReadme(plan: ProgramPlan, options: RenderOptions): string {
  const org = { ...plan.organization, exportedBy: plan.exportedBy };
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const declared = [
    plan.declaresGroups ? count(plan.groups.length, "group") : undefined,
    count(plan.users.length, "user"),
    count(
      plan.groupChannels.length + plan.devices.reduce((n, d) => n + d.channels.length, 0),
      "release-channel attachment",
    ),
  ].filter(Boolean);
  const configFile = stackConfigFileName(options.stack);
  const leftOut = [
    `- **The user of the token that ran the export**${org.exportedBy ? ` (${oneLine(org.exportedBy)})` : ""}. ` +
      "Every organization has its token's own user, so a staging stack must neither create it nor delete it " +
      "on `destroy`.",
    "- **Roles, apps, release channels and devices** are looked up by name, not declared: the target " +
      "organization must have the same names (a staging organization mirrors them).",
    "- **Device group membership, files and videos** on groups: there are no resources for them yet.",
    ...plan.leftOut.map((line) => `- ${oneLine(line)}`),
  ];
  return `${[
    `# ${oneLine(options.project)}`,
    `Organization "${oneLine(org.name)}" (\`${oneLine(org.slug)}\`) as a Pulumi program, exported by ` +
      `\`devicemgmt-export\`: ${declared.join(", ")}. \`index.ts\` is the program; edit it like any other.`,
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
    ...renderStagingReadme(options),
    "## Not in the program",
    leftOut.join("\n"),
    "## Exporting again",
    "An unchanged organization exports to the same files. Names come from the objects' names, so a renamed or " +
      "newly colliding object gets a new resource name: compare before replacing this program on a stack that " +
      "already manages the organization, since a resource that disappears from the program is deleted by `up`.",
  ].join("\n\n")}\n`;
}
