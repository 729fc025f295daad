/**
 * The provider plugin's reference pages as the schema gives them now (pages.ts), and where they are checked in.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packageSchema } from "../../provider/plugin/schema";
import { pluginVersion } from "../../provider/plugin/version";
import { referencePages } from "./pages";

export const REFERENCE_DIR = join(__dirname, "../../docs/reference/plugin");

/** The pages of the schema the plugin serves, by file name. */
export function currentPages(): Record<string, string> {
  return referencePages(packageSchema(pluginVersion()));
}

/** Writes the pages into `dir`, removing the pages of types and functions that are gone. */
export function writePages(dir = REFERENCE_DIR): string[] {
  const pages = currentPages();
  mkdirSync(dir, { recursive: true });
  for (const file of existsSync(dir) ? readdirSync(dir) : [])
    if (file.endsWith(".md") && !(file in pages)) rmSync(join(dir, file));
  for (const [file, text] of Object.entries(pages)) writeFileSync(join(dir, file), text);
  return Object.keys(pages);
}
