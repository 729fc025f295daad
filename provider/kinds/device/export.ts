/**
 * The generated program's devices: each adopted by serial number where the stack's organization has enrolled it,
 * with its name, group, tags and custom fields.
 */
import { section, statement, type Expr, type KindSection } from "../../export/layout";
import { tsString } from "../../export/text";

/** An object key as prettier writes it: bare where it is an identifier, quoted otherwise. */
const key = (name: string) =>
  // `__proto__: …` (bare or quoted) would set the object's prototype instead of holding a field of that name.
  name === "__proto__" ? `[${tsString(name)}]` : /^[A-Za-z_$][\w$]*$/.test(name) ? name : tsString(name);

export const deviceSection: KindSection = (plan, declaring, construct) => {
  if (!plan.placement.devices.length) return undefined;
  return section(
    [
      "// Devices are enrolled on the headset, never created: each is adopted by serial number, and destroy leaves it",
      '// where it is. Stack config "absentDevices" lists those this stack\'s organization has not enrolled (the',
      "// staging match sets it), so a staging copy places only the headsets it holds.",
      `const absentDevices = new Set(${declaring.config}.getObject<string[]>("absentDevices") ?? []);`,
      "const placeDevice = (resourceName: string, args: dm.DeviceArgs) =>",
      `  absentDevices.has(resourceName) ? undefined : ${construct}(resourceName, args);`,
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
};
