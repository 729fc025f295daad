/**
 * The generated index.ts. Lookups (roles, channels) come first; then one section per resource kind, in the kind
 * table's order, from `KIND_SECTIONS`: a kind the table gains without an entry here is a compile error, and a
 * kind the exporter does not write says why.
 */
import type { ResourceKind } from "../kindKeys";
import { KINDS } from "../kinds";
import type { ProgramPlan } from "./naming";
import type { RenderOptions } from "./renderOptions";
import { section, statement, type Declaring, type KindSection } from "./layout";
import { oneLine, tsString } from "./text";

/**
 * Every kind's section, in the kind table's order (its definition's `export`). The definition holds it without
 * naming the exporter's plan (framework/facets.ts); each kind's export.ts types its section as layout.ts's
 * `KindSection`, for the plan, and this is where the exporter takes it back as such.
 */
export const KIND_SECTIONS = Object.fromEntries(
  Object.values(KINDS).map((definition): [ResourceKind, KindSection] => [
    definition.kind,
    definition.export as KindSection,
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
  // Content first (attachments and tag sets refer to it), then every other kind in the table's order.
  const definitions = Object.values(KINDS);
  const isContent = (render: KindSection) => typeof render === "object" && "content" in render;
  for (const definition of [
    ...definitions.filter((d) => isContent(KIND_SECTIONS[d.kind])),
    ...definitions.filter((d) => !isContent(KIND_SECTIONS[d.kind])),
  ]) {
    const render = KIND_SECTIONS[definition.kind];
    const write = typeof render === "function" ? render : "content" in render ? render.content : undefined;
    const text = write?.(plan, declaring, `new dm.${definition.type}`);
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
