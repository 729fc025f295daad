/** The generated program's groups: parents before children, the ones not declared looked up by name. */
import { section, statement, type Expr, type KindSection } from "../../export/layout";
import { tsString } from "../../export/text";

export const groupSection: KindSection = (plan, { adopt, opts }, construct) => {
  if (!plan.groups.length) return undefined;
  const lines = plan.groups.map((g) => {
    const parent: [string, Expr][] = g.parentVariable ? [["parentId", `${g.parentVariable}.id`]] : [];
    if (!g.resourceName) {
      return statement(g.variable, "dm.getGroupOutput", [], [["name", tsString(g.group.name)], ...parent]);
    }
    return statement(
      g.variable,
      construct,
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
  const declared = plan.groups.filter((g) => g.resourceName).length;
  return section(
    !declared
      ? "// Groups are not declared by this program: the ones it refers to are looked up by name under their parent."
      : declared < plan.groups.length
        ? "// Groups, parents before children; the ones another program declares are looked up by name under their parent."
        : "// Groups, parents before children. Configured groups hold devices and release channels.",
    lines,
  );
};
