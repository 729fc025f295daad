/** What the package exports of the Theme kind: the resource and its lookup. */
export { Theme, type ThemeArgs } from "./resource";
export { getTheme, getThemeOutput, type GetThemeArgs, type ThemeResult } from "./lookups";
