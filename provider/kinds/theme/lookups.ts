/**
 * `getTheme`: a menu colour theme, system or custom, by name (for a headset experience's `themeId`). Fails with
 * a LookupError that lists what there is when nothing matches, and the ids when several do.
 */
import { checker } from "../../client/arguments";
import { exactlyOne, lookup, lookupClient, toOutput, type LookupOptions } from "../../lookupSupport";

/** A menu colour theme: a system theme (offered by the service) or one of the organization's own. */
export interface ThemeResult {
  /** For a headset experience's `themeId`. */
  id: string;
  name: string;
  /** True for the service's themes, which cannot change. */
  isSystemOwned: boolean;
}

/** Arguments of {@link getTheme}. */
export interface GetThemeArgs {
  /** The theme's exact name, e.g. "ArborXR Dark" (case-sensitive). */
  name: string;
  /** Only system themes (true) or only the organization's (false): for a custom theme named like a system one. */
  systemOwned?: boolean;
}

const THEME_USAGE =
  'getTheme({ name: "ArborXR Dark" }) or getTheme({ name: "Acme Brand", systemOwned: false })';

/**
 * Finds a theme, system or custom, by name.
 *
 * @function
 * @example
 * const dark = dm.getThemeOutput({ name: "ArborXR Dark" });
 * const brand = dm.getThemeOutput({ name: "Acme Brand", systemOwned: false });
 */
export const getTheme = lookup(async function getTheme(
  args: GetThemeArgs,
  options?: LookupOptions,
): Promise<ThemeResult> {
  const check = checker("getTheme", args, THEME_USAGE);
  check.only("name", "systemOwned");
  const name = check.name("name", "theme's name");
  const systemOwned = args.systemOwned;
  if (systemOwned !== undefined && typeof systemOwned !== "boolean")
    check.fail('argument "systemOwned" must be true or false (or left out).', "systemOwned");
  const themes = await lookupClient(options).themes.all();
  const theme = exactlyOne(
    `theme named "${name}"${systemOwned === undefined ? "" : systemOwned ? " among system themes" : " among the organization's themes"}`,
    themes.filter((t) => t.name === name && (systemOwned === undefined || t.isSystemOwned === systemOwned)),
    (t) => `${t.id} (${t.isSystemOwned ? "system" : "custom"})`,
    themes.map((t) => t.name),
  );
  return { id: theme.id, name: theme.name, isSystemOwned: theme.isSystemOwned };
});
/** {@link getTheme} with Inputs, as an Output. */
export const getThemeOutput = toOutput(getTheme);
