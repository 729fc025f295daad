/**
 * The section a content kind's export.ts declares its objects with (content.ts says what is declared and
 * why). Its own module because the plan (naming.ts) reads content.ts, and this reads the plan.
 */
import type { ContentType, PlannedContent } from "./content";
import { section, statement, type Expr, type SectionWriter } from "./layout";
import { tsString } from "./text";

/**
 * A content kind's section of the generated program: `new dm.<Type>(name, { source, …props, adoptId })` for
 * each planned object of `type`. `props` gives the kind's own properties besides `source` and `adoptId`.
 */
export function contentSection(
  type: ContentType,
  comment: string,
  props: (planned: PlannedContent) => [string, Expr][],
): SectionWriter {
  return (plan, declaring, construct) => {
    const planned = plan.uploaded.filter((c) => c.content.type === type);
    if (!planned.length) return undefined;
    return section(
      comment,
      planned.map((c) =>
        statement(
          c.variable,
          construct,
          [tsString(c.resourceName)],
          [["source", tsString(c.source)], ...props(c), declaring.adopt(c.resourceName)],
          declaring.opts(c.resourceName),
        ),
      ),
    );
  };
}
