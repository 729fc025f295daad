/**
 * The generated program's themes: first the lookups by name of what the experiences show (the target
 * organization must have the same names), then the organization's custom themes.
 */
import type { ExperienceRef } from "../../export/experienceRead";
import { statement, type Expr, type KindSection } from "../../export/layout";
import { tsString } from "../../export/text";
import { THEME_COLORS } from "./properties";

const LOOKUP_CALL: Record<ExperienceRef["kind"], string> = {
  app: "dm.getAppOutput",
  video: "dm.getVideoOutput",
  image: "dm.getImageOutput",
  environment: "dm.getCustom3DEnvironmentOutput",
  theme: "dm.getThemeOutput",
};

function lookupProps(ref: ExperienceRef): [string, Expr][] {
  const props: [string, Expr][] = [["name", tsString(ref.name)]];
  if (ref.kind === "image") props.push(["type", tsString(ref.type)]);
  if (ref.kind === "theme") props.push(["systemOwned", String(ref.systemOwned)]);
  return props;
}

/** Themes: the lookups the experiences need, then the organization's custom themes. */
export const themeSection: KindSection = (plan, { adopt, opts }, construct) => {
  const { lookups, themes } = plan.content;
  // A theme no experience shows is declared without a variable: nothing would read it.
  const read = new Set(plan.content.experiences.flatMap((x) => Object.values(x.refVariables)));
  const parts: string[] = [];
  if (lookups.length) {
    parts.push(
      [
        "// What the experiences show, looked up by name: the target organization must have the same names.",
        ...lookups.map((l) => statement(l.variable, LOOKUP_CALL[l.ref.kind], [], lookupProps(l.ref))),
      ].join("\n"),
    );
  }
  if (themes.length) {
    parts.push(
      [
        "// The organization's own menu themes (system themes are the service's: looked up by name).",
        ...themes.map((t) =>
          statement(
            read.has(t.variable) ? t.variable : undefined,
            construct,
            [tsString(t.resourceName)],
            [
              ["name", tsString(t.theme.colors.name)],
              ...THEME_COLORS.map((c) => [c, tsString(t.theme.colors[c])] as [string, Expr]),
              adopt(t.resourceName),
            ],
            opts(t.resourceName),
          ),
        ),
      ].join("\n"),
    );
  }
  return parts.length ? parts.join("\n\n") : undefined;
};
