/**
 * The generated index.ts. Lookups (roles, channels) come first; then one section per resource kind, in the kind
 * table's order, from `KIND_SECTIONS`: a kind the table gains without an entry here is a compile error, and a
 * kind the exporter does not write says why.
 */
import type { ResourceKind } from "../kindKeys";
import { KINDS, type KindType } from "../kinds";
import type { ProgramPlan } from "./naming";
import type { RenderOptions } from "./renderOptions";
import { section, statement, type Declaring, type Expr, type KindSection } from "./layout";
import { channelVersionSection, deviceContentSection } from "./deviceProgram";
import { experienceSection, themeSection } from "./experienceProgram";
import { oneLine, tsString } from "./text";

/** `new dm.<Kind>`: the kind's name is checked against the kind table. */
const construct = (type: KindType) => `new dm.${type}`;

/** A section not yet moved into its kind's folder. */
type LegacyKindSection =
  ((plan: ProgramPlan, declaring: Declaring) => string | undefined) | { notExported: string };

const LEGACY_KIND_SECTIONS: Partial<Record<ResourceKind, LegacyKindSection>> = {
  user: (plan, { adopt, opts }) => {
    if (!plan.users.length) return undefined;
    return section(
      "// Users with their default role and group roles (the token's own user is not here: see README.md).",
      plan.users.map((u) => {
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
          construct("User"),
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
    );
  },

  groupReleaseChannel: (plan, { adopt, opts }) => {
    if (!plan.groupChannels.length) return undefined;
    return section(
      "// Release channels on groups (an attachment's id is <groupId>/<releaseChannelId>).",
      plan.groupChannels.map((a) =>
        statement(
          undefined,
          construct("GroupReleaseChannel"),
          [tsString(a.resourceName)],
          [
            ["groupId", `${a.groupVariable}.id`],
            ["releaseChannelId", `${a.channelVariable}.id`],
            adopt(a.resourceName),
          ],
          opts(a.resourceName),
        ),
      ),
    );
  },

  deviceReleaseChannel: (plan, { adopt, opts }) => {
    if (!plan.devices.length) return undefined;
    return section(
      plan.devices.some((d) => d.channels.length)
        ? "// Release channels on ungrouped devices; devices are looked up by name (a staging organization mirrors them)."
        : "// Ungrouped devices with experiences, looked up by name (a staging organization mirrors them).",
      plan.devices.flatMap((d) => [
        statement(d.variable, "dm.getDeviceOutput", [], [["name", tsString(d.deviceName)]]),
        ...d.channels.map((a) =>
          statement(
            undefined,
            construct("DeviceReleaseChannel"),
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
    );
  },

  theme: themeSection,
  headsetExperience: (plan, declaring) => experienceSection(plan, declaring, "headset"),
  deviceExperience: (plan, declaring) => experienceSection(plan, declaring, "device"),

  groupFile: {
    notExported: "the API lists no group's files (no GET /groups/{id}/files), so they cannot be read back",
  },
  groupVideo: {
    notExported: "the API lists no group's videos (no GET /groups/{id}/videos), so they cannot be read back",
  },
  deviceFile: (plan, declaring) => deviceContentSection(plan, declaring, "file"),
  deviceVideo: (plan, declaring) => deviceContentSection(plan, declaring, "video"),
  releaseChannelVersion: (plan) => channelVersionSection(plan),
  releaseChannelShare: {
    notExported:
      "the API has no read of the organizations a channel is shared with (only share and unshare), so shares cannot be read",
  },
};

/** Every kind's section, in the kind table's order (its definition's `export`). */
export const KIND_SECTIONS = Object.fromEntries(
  Object.values(KINDS).map((definition): [ResourceKind, KindSection] => [
    definition.kind,
    definition.export ?? LEGACY_KIND_SECTIONS[definition.kind]!,
  ]),
) as Record<ResourceKind, KindSection>;

export function renderProgram(plan: ProgramPlan, options: RenderOptions): string {
  const org = plan.organization;
  const sections: string[] = [];
  const uses = { adopt: false, opts: false, config: false };
  const declaring: Declaring = {
    adopt: (resourceName) => {
      uses.adopt = true;
      return ["adoptId", `adopt[${tsString(resourceName)}]`];
    },
    opts: (resourceName) => {
      uses.opts = true;
      return `options(${tsString(resourceName)})`;
    },
    get config() {
      uses.config = true;
      return "config";
    },
  };
  if (plan.roles.length) {
    sections.push(
      section(
        "// Roles are the organization's own: looked up by name, never declared.",
        plan.roles.map((r) =>
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
      ),
    );
  }
  if (plan.channels.length) {
    sections.push(
      section(
        "// Release channels, looked up by app and channel name.",
        plan.channels.map((c) =>
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
      ),
    );
  }
  for (const definition of Object.values(KINDS)) {
    const render = KIND_SECTIONS[definition.kind];
    const text =
      typeof render === "function" ? render(plan, declaring, `new dm.${definition.type}`) : undefined;
    if (text !== undefined) sections.push(text);
  }
  const preamble = renderPreamble(uses, options);
  if (preamble) sections.unshift(preamble);

  const imports = [
    ...(preamble ? [`import * as pulumi from "@pulumi/pulumi";`] : []),
    ...(sections.length > (preamble ? 1 : 0) ? [`import * as dm from "pulumi-devicemgmt";`] : []),
  ];
  const header = [
    `// Organization "${oneLine(org.name)}" (${oneLine(org.slug)}) as a Pulumi program, exported by devicemgmt-export.`,
    "// Edit it freely; README.md says how to run it against this organization and against a staging copy.",
  ];
  // An empty organization still gives a valid module.
  const body = sections.length ? sections : ["export {};"];
  return `${[[...header, ...imports].join("\n"), ...body].join("\n\n")}\n`;
}

/** The stack-config reads the sections used: config, then the adopt map, then the retain option. */
function renderPreamble(
  uses: { adopt: boolean; opts: boolean; config: boolean },
  options: RenderOptions,
): string | undefined {
  if (!uses.adopt && !uses.opts && !uses.config) return undefined;
  const lines: string[] = [];
  if (uses.adopt || uses.opts) {
    lines.push(
      `// Ids of existing objects this stack adopts instead of creating (stack config "${options.project}:adopt"). Without`,
      "// an id, a create that finds the object already there fails instead of taking it over silently.",
    );
  }
  if (uses.opts) {
    lines.push(
      `// "${options.project}:retainAdopted" (set by the export for a staging stack whose organization already held`,
      "// some of the objects) keeps the adopted objects when the stack is destroyed: they were not its to delete.",
    );
  }
  lines.push("const config = new pulumi.Config();");
  if (uses.adopt || uses.opts) {
    lines.push(`const adopt = config.getObject<Record<string, string>>("adopt") ?? {};`);
  }
  if (uses.opts) {
    lines.push(
      `const retainAdopted = config.getBoolean("retainAdopted") ?? false;`,
      "const options = (resourceName: string): pulumi.CustomResourceOptions => ({",
      "  retainOnDelete: retainAdopted && adopt[resourceName] !== undefined,",
      "});",
    );
  }
  return lines.join("\n");
}
