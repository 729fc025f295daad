/**
 * The generated program's experiences (the `headsetExperience` and `deviceExperience` entries of KIND_SECTIONS;
 * themes and the content lookups: kinds/theme/export.ts). The admin PIN is never written: the program reads it from a
 * config secret the user sets (README.md says which).
 */
import type { ExperienceKindName } from "./experienceRead";
import type { PlannedExperience } from "./experiencePlan";
import type { ProgramPlan } from "./naming";
import { statement, type Declaring, type Expr } from "./layout";
import { tsString } from "./text";

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

function experienceStatement(x: PlannedExperience, type: string, declaring: Declaring): string {
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
  return statement(undefined, `new dm.${type}`, [tsString(x.resourceName)], props);
}

export function experienceSection(
  plan: ProgramPlan,
  declaring: Declaring,
  kind: ExperienceKindName,
): string | undefined {
  const experiences = plan.content.experiences.filter((x) => x.experience.kind === kind);
  if (!experiences.length) return undefined;
  const comment =
    kind === "headset"
      ? "// What the headsets show on each configured group and ungrouped device. Destroy leaves it as it is."
      : "// What the devices run outside the headset experience (lock task, launcher). Destroy leaves it as it is.";
  const type = kind === "headset" ? "HeadsetExperience" : "DeviceExperience";
  return [comment, ...experiences.map((x) => experienceStatement(x, type, declaring))].join("\n");
}
