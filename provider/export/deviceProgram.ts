/**
 * The generated program's sections for tags and devices (KIND_SECTIONS in program.ts).
 */
import type { ProgramPlan } from "./naming";
import { statement, type Declaring, type Expr } from "./layout";
import { tsString } from "./text";

const section = (comment: string, lines: string[]) => [comment, ...lines].join("\n");

/** An object key as prettier writes it: bare where it is an identifier, quoted otherwise. */
const key = (name: string) =>
  // `__proto__: …` (bare or quoted) would set the object's prototype instead of holding a field of that name.
  name === "__proto__" ? `[${tsString(name)}]` : /^[A-Za-z_$][\w$]*$/.test(name) ? name : tsString(name);

export function tagSection(plan: ProgramPlan, { adopt, opts }: Declaring): string | undefined {
  if (!plan.placement.tags.length) return undefined;
  // A tag no device or tag set carries is declared without a variable: nothing would read it.
  const read = new Set([...plan.placement.devices, ...plan.placement.tagSets].flatMap((d) => d.tagVariables));
  return section(
    "// The tag catalogue. Devices, groups, apps, files and videos carry tags by name.",
    plan.placement.tags.map((t) =>
      statement(
        read.has(t.variable) ? t.variable : undefined,
        "new dm.Tag",
        [tsString(t.resourceName)],
        [["name", tsString(t.tag.name)], adopt(t.resourceName)],
        opts(t.resourceName),
      ),
    ),
  );
}

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
export function tagSetSection(plan: ProgramPlan): string | undefined {
  const lookups = contentLookupLines(plan);
  if (!lookups.length) return undefined;
  return section("// Apps, files and videos, looked up by name; the tags each carries (the whole set).", [
    ...lookups,
    ...plan.placement.tagSets.map((t) =>
      statement(
        undefined,
        "new dm.TagSet",
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
}

export function deviceSection(plan: ProgramPlan, declaring: Declaring): string | undefined {
  if (!plan.placement.devices.length) return undefined;
  return section(
    [
      "// Devices are enrolled on the headset, never created: each is adopted by serial number, and destroy leaves it",
      '// where it is. Stack config "absentDevices" lists those this stack\'s organization has not enrolled (the',
      "// staging match sets it), so a staging copy places only the headsets it holds.",
      `const absentDevices = new Set(${declaring.config}.getObject<string[]>("absentDevices") ?? []);`,
      "const placeDevice = (resourceName: string, args: dm.DeviceArgs) =>",
      "  absentDevices.has(resourceName) ? undefined : new dm.Device(resourceName, args);",
    ].join("\n"),
    plan.placement.devices.map((d) =>
      statement(
        undefined,
        "placeDevice",
        [tsString(d.resourceName)],
        [
          ["serialNumber", tsString(d.device.serialNumber)],
          ["name", tsString(d.device.name)],
          ["groupId", d.groupVariable ? `${d.groupVariable}.id` : "null"],
          [
            "tags",
            {
              array: d.device.tags.map((t, i) =>
                d.tagVariables[i] ? `${d.tagVariables[i]}.name` : tsString(t),
              ),
            },
          ],
          [
            "customFields",
            { object: d.device.customFields.map(([k, v]) => [key(k), tsString(v)] as [string, Expr]) },
          ],
        ],
      ),
    ),
  );
}
