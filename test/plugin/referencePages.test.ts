// docs/reference/plugin is generated from the provider plugin's schema (tools/plugin-docs, `npm run docs:plugin`)
// and checked in: this test fails when the checked-in pages are not what the schema gives now, and checks that
// the pages carry what the kind definitions declare (a secret, a replacing property, a function's arguments).
import * as fs from "node:fs";
import * as path from "node:path";
import { currentPages, REFERENCE_DIR } from "../../tools/plugin-docs";
import { packageSchema } from "../../provider/plugin/schema";
import { pluginVersion } from "../../provider/plugin/version";

const STALE =
  "docs/reference/plugin is not what the plugin's schema gives now: run npm run docs:plugin (and commit it)";

test("the checked-in plugin reference pages are the ones the schema generates", () => {
  const want = currentPages();
  const have = fs.existsSync(REFERENCE_DIR) ? fs.readdirSync(REFERENCE_DIR).sort() : [];
  const stale = [
    ...Object.keys(want)
      .filter((f) => !have.includes(f))
      .map((f) => `missing ${f}`),
    ...have.filter((f) => !(f in want)).map((f) => `no longer generated ${f}`),
    ...Object.keys(want)
      .filter((f) => have.includes(f) && fs.readFileSync(path.join(REFERENCE_DIR, f), "utf8") !== want[f])
      .map((f) => `changed ${f}`),
  ];
  if (stale.length > 0) throw new Error(`${STALE}\n${stale.join("\n")}`);
});

test("a page per resource and per function, linked from the index", () => {
  const schema = packageSchema(pluginVersion());
  const pages = currentPages();
  const names = [...Object.keys(schema.resources), ...Object.keys(schema.functions)].map((t) =>
    t.slice(t.lastIndexOf(":") + 1),
  );
  expect(names.length).toBeGreaterThan(25);
  for (const name of names) {
    expect(pages).toHaveProperty([`${name}.md`]);
    expect(pages["README.md"]).toContain(`](${name}.md)`);
  }
});

test("a page shows secrecy, replace-on-change and each language's names as the definitions declare them", () => {
  const pages = currentPages();
  const row = (page: string, property: string) =>
    pages[page].split("\n").find((line) => line.startsWith(`| \`${property}\` |`)) ?? "";
  // User.email replaces the user; its connection is secret.
  expect(row("User.md", "email")).toMatch(/\| string \| yes \|  \| replaces \|/);
  expect(row("User.md", "connection")).toContain("| secret |");
  expect(pages["User.md"]).toContain("A change of `email` replaces the object");
  expect(pages["provider.md"]).toMatch(/\| `apiToken` \| string \|  \| secret \|/);
  // The names table: schema name, then TypeScript, Python, Go, C#, YAML.
  expect(pages["HeadsetExperience.md"]).toContain(
    "| `removePoweredByArborXrBranding` | `removePoweredByArborXrBranding boolean` | " +
      "`remove_powered_by_arbor_xr_branding bool` | `RemovePoweredByArborXrBranding bool` | " +
      "`RemovePoweredByArborXrBranding bool` | `removePoweredByArborXrBranding Boolean` |",
  );
  expect(pages["getGroup.md"]).toContain(
    "`devicemgmt.LookupGroup(ctx, &devicemgmt.LookupGroupArgs{…}, opts...)`",
  );
  expect(pages["getGroup.md"]).toContain("`pulumi_devicemgmt.get_group(**args, opts=None)`");
});
