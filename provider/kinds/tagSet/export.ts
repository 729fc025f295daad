/**
 * The generated program's tag sets of apps, files and videos, with the lookups of what they refer to. The
 * lookups serve the device content section too (files and videos on devices): this section comes first in
 * the kind table's order, so its variables are declared before that section reads them.
 */
import { section, statement, type KindSection } from "../../export/layout";
import type { ProgramPlan } from "../../export/naming";
import { tsString } from "../../export/text";

/** The apps, files and videos that tag sets and device content refer to, by name. */
function contentLookupLines(plan: ProgramPlan): string[] {
  const lookup = {
    app: ["dm.getAppOutput", "name"],
    file: ["dm.getFileOutput", "filename"],
    video: ["dm.getVideoOutput", "name"],
  };
  return plan.placement.contentLookups.map((l) =>
    statement(l.variable, lookup[l.type][0], [], [[lookup[l.type][1], tsString(l.name)]]),
  );
}

/** Tag sets of apps, files and videos, with the lookups of what they and device content refer to. */
export const tagSetSection: KindSection = (plan, _declaring, construct) => {
  const lookups = contentLookupLines(plan);
  // (A tag set of declared content needs no lookup.)
  if (!lookups.length && !plan.placement.tagSets.length) return undefined;
  return section("// Apps, files and videos, looked up by name; the tags each carries (the whole set).", [
    ...lookups,
    ...plan.placement.tagSets.map((t) =>
      statement(
        undefined,
        construct,
        [tsString(t.resourceName)],
        [
          ["ownerType", tsString(t.tagSet.ownerType)],
          ["ownerId", `${t.ownerVariable}.id`],
          [
            "tags",
            {
              array: t.tagSet.tags.map((tag, i) =>
                t.tagVariables[i] ? `${t.tagVariables[i]}.name` : tsString(tag),
              ),
            },
          ],
        ],
      ),
    ),
  ]);
};
