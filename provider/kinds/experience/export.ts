/**
 * The generated program's headset and device experiences (each kind's section: `experienceSection(kind)`), in
 * their declared form, with every id the plan looked up written as `<variable>.id`. The admin PIN is never
 * written: the program reads it from a config secret the user sets (README.md says which).
 */
import type { PlannedExperience } from "../../export/experiencePlan";
import type { ExperienceKindName } from "../../export/experienceRead";
import { statement, type Declaring, type Expr, type KindSection } from "../../export/layout";
import { tsString } from "../../export/text";

/** A declared-form value as code: ids the plan looked up become `<variable>.id`. */
function valueExpr(value: unknown, refVariables: Record<string, string>): Expr {
  if (typeof value === "string") {
    const variable = refVariables[value.toLowerCase()];
    return variable ? `${variable}.id` : tsString(value);
  }
  if (Array.isArray(value)) return { array: value.map((v) => valueExpr(v, refVariables)) };
  if (value !== null && typeof value === "object") {
    return {
      object: Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        valueExpr(v, refVariables),
      ]),
    };
  }
  return String(value);
}

function experienceStatement(x: PlannedExperience, construct: string, declaring: Declaring): string {
  const { mode, ...fields } = x.experience.fields;
  const props: [string, Expr][] = [
    [x.ownerProperty, `${x.ownerVariable}.id`],
    ["mode", tsString(String(mode))],
    ...Object.entries(fields).map(([k, v]) => [k, valueExpr(v, x.refVariables)] as [string, Expr]),
  ];
  if (x.pinKey) {
    // A PIN the API showed must be set; where it answered none, it may be withholding one (see README.md).
    props.push([
      "adminPin",
      x.experience.pin === "shown"
        ? `${declaring.config}.requireSecret(${tsString(x.pinKey)})`
        : `${declaring.config}.getSecret(${tsString(x.pinKey)}) ?? null`,
    ]);
  }
  return statement(undefined, construct, [tsString(x.resourceName)], props);
}

/** The section of the headset or the device experiences. Destroy leaves an experience as it is. */
export const experienceSection =
  (kind: ExperienceKindName): KindSection =>
  (plan, declaring, construct) => {
    const experiences = plan.content.experiences.filter((x) => x.experience.kind === kind);
    if (!experiences.length) return undefined;
    const comment =
      kind === "headset"
        ? "// What the headsets show on each configured group and ungrouped device. Destroy leaves it as it is."
        : "// What the devices run outside the headset experience (lock task, launcher). Destroy leaves it as it is.";
    return [comment, ...experiences.map((x) => experienceStatement(x, construct, declaring))].join("\n");
  };
