/** The drift report as Markdown, for a CI job summary (`$GITHUB_STEP_SUMMARY`) or a pull-request comment. */
import { markdownCode, markdownText } from "../printable";
import type { DriftReport, Finding, FindingCategory } from "./report";

/** A name or other text of the organization or a state, shown as itself (see printable.ts). */
const cell = markdownText;
const code = markdownCode;

const HEADINGS: Record<FindingCategory, string> = {
  unmanaged: "Not managed by any stack",
  claimed: "Declared by more than one resource",
  changed: "Changed outside Pulumi",
  gone: "Gone from the organization",
};

const EXPLANATIONS: Record<FindingCategory, string> = {
  unmanaged:
    "In the organization, but no given stack declares it. Declare it (or adopt it), remove it, or add it to the ignore file if it is managed elsewhere on purpose.",
  claimed:
    "Resources of two stacks, or two resources of one stack, declare the same object, and the API records no owner: each `up` puts its own values back, and a `destroy` of either deletes it from under the other. Keep one declaration; elsewhere, look it up (`get…Output`).",
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
        (count("claimed") ? `**${count("claimed")} declared more than once**, ` : "") +
        `**${count("changed")} changed**, **${count("gone")} gone**.`,
    );
  }
  lines.push(
    "",
    `Stacks: ${report.stacks.map((s) => `${code(s.stack)} (${s.resources} resources)`).join(", ") || "none"}. ` +
      `Kinds: ${report.kinds.join(", ")}. Audit records since ${cell(report.auditSince)}; report made ${report.generatedAt}.`,
  );
  for (const category of ["unmanaged", "claimed", "changed", "gone"] as const) {
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
    for (const urn of report.unknownResources) lines.push(`- ${code(urn)}`);
  }
  if (report.unreadableResources.length) {
    lines.push("", "Resources of this provider whose values could not be read (not compared):", "");
    for (const u of report.unreadableResources)
      lines.push(`- ${code(u.urn)} in ${code(u.file)}: ${cell(u.reason)}`);
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
      (f.managedBy.length ? ` (managed by ${f.managedBy.map(code).join(", ")})` : ""),
  ];
  for (const d of f.differences) {
    lines.push(`  - ${code(d.field)}: state ${cell(d.state)} → live ${cell(d.live)}`);
  }
  if (f.audit.length) {
    for (const a of f.audit)
      lines.push(`  - ${cell(a.at)} **${cell(a.who)}** ${cell(a.action)}: ${cell(a.what)}`);
  } else {
    lines.push("  - no audit record about it in the window");
  }
  return lines;
}
