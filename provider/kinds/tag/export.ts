/** The generated program's tag catalogue: one Tag per tag, with a variable only where a device or set reads it. */
import { section, statement, type KindSection } from "../../export/layout";
import { tsString } from "../../export/text";

export const tagSection: KindSection = (plan, { adopt, opts }, construct) => {
  if (!plan.placement.tags.length) return undefined;
  // A tag no device or tag set carries is declared without a variable: nothing would read it.
  const read = new Set([...plan.placement.devices, ...plan.placement.tagSets].flatMap((d) => d.tagVariables));
  return section(
    "// The tag catalogue. Devices, groups, apps, files and videos carry tags by name.",
    plan.placement.tags.map((t) =>
      statement(
        read.has(t.variable) ? t.variable : undefined,
        construct,
        [tsString(t.resourceName)],
        [["name", tsString(t.tag.name)], adopt(t.resourceName)],
        opts(t.resourceName),
      ),
    ),
  );
};
