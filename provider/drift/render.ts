/** The drift report as Markdown, for a CI job summary (`$GITHUB_STEP_SUMMARY`) or a pull-request comment. */
import type { DriftReport, Finding, FindingCategory } from "./report";

/** Text in a table cell or list item: no line breaks, no table pipes, no HTML. */
const cell = (text: string) =>
  text
    .replace(/[\r\n]+/g, " ")
    .replace(/[|<>]/g, (c) => `\\${c}`)
    .trim();

const HEADINGS: Record<FindingCategory, string> = {
  unmanaged: "Not managed by any stack",
  changed: "Changed outside Pulumi",
  gone: "Gone from the organization",
};

const EXPLANATIONS: Record<FindingCategory, string> = {
  unmanaged:
    "In the organization, but no given stack declares it. Declare it (or adopt it), remove it, or add it to the ignore file if it is managed elsewhere on purpose.",
  changed:
    "A stack manages it, and the organization differs from the stack's state. `pulumi up` puts the declared values back; `pulumi refresh` accepts the change into the state.",
  gone: "A stack's state names it, and the organization no longer has it. `pulumi up` makes it again; `pulumi refresh` drops it from the state.",
};

export function renderMarkdown(report: DriftReport): string {
  const lines: string[] = [];
  const admins = report.findings.filter((f) => f.category === "unmanaged" && f.admin).length;
  lines.push(`## Drift report: ${cell(report.organization.name)} (${cell(report.organization.slug)})`, "");
  if (!report.findings.length) {
    lines.push(
      "No drift: every object of the organization is managed by the given stacks and matches their state.",
    );
  } else {
    const count = (c: FindingCategory) => report.findings.filter((f) => f.category === c).length;
    lines.push(
      `**${count("unmanaged")} unmanaged** (${admins} organization Admin${admins === 1 ? "" : "s"}), ` +
        `**${count("changed")} changed**, **${count("gone")} gone**.`,
    );
  }
  lines.push(
    "",
    `Stacks: ${report.stacks.map((s) => `\`${cell(s.stack)}\` (${s.resources} resources)`).join(", ") || "none"}. ` +
      `Kinds: ${report.kinds.join(", ")}. Audit records since ${report.auditSince}; report made ${report.generatedAt}.`,
  );
  for (const category of ["unmanaged", "changed", "gone"] as const) {
    const found = report.findings.filter((f) => f.category === category);
    if (!found.length) continue;
    lines.push("", `### ${HEADINGS[category]} (${found.length})`, "", EXPLANATIONS[category], "");
    for (const f of found) lines.push(...renderFinding(f));
  }
  if (report.ignored.length) {
    lines.push("", `<details><summary>${report.ignored.length} ignored</summary>`, "");
    for (const i of report.ignored) lines.push(`- ${i.kind} ${cell(i.label)}: ${cell(i.reason)}`);
    lines.push("", "</details>");
  }
  if (report.notCompared.length) {
    lines.push("", "Not compared:", "");
    for (const n of report.notCompared) lines.push(`- ${n.resources} ${n.kind}: ${cell(n.reason)}`);
  }
  if (report.unknownResources.length) {
    lines.push("", "Resources of this provider whose kind could not be told (not compared):", "");
    for (const urn of report.unknownResources) lines.push(`- \`${cell(urn)}\``);
  }
  if (report.unusedIgnoreRules.length) {
    lines.push("", "Ignore rules that matched nothing (correct or remove them):", "");
    for (const r of report.unusedIgnoreRules)
      lines.push(`- \`${cell(r.source)}\`: ${r.kind} ${cell(r.pattern)}`);
  }
  return `${lines.join("\n")}\n`;
}

function renderFinding(f: Finding): string[] {
  const lines = [
    `- **${f.kind}** ${cell(f.label)}${f.admin ? " — **organization Admin**" : ""}` +
      (f.managedBy.length ? ` (managed by ${f.managedBy.map((m) => `\`${cell(m)}\``).join(", ")})` : ""),
  ];
  for (const d of f.differences) {
    lines.push(`  - \`${d.field}\`: state ${cell(d.state)} → live ${cell(d.live)}`);
  }
  if (f.audit.length) {
    for (const a of f.audit) lines.push(`  - ${a.at} **${cell(a.who)}** ${cell(a.action)}: ${cell(a.what)}`);
  } else {
    lines.push("  - no audit record about it in the window");
  }
  return lines;
}
