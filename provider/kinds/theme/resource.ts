import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type AdoptionArgs, registration } from "../../framework";
import { themeKind } from "./definition";

// What the package exports of the kind besides its class, from the kind's other files.
export { getTheme, getThemeOutput, type GetThemeArgs, type ThemeResult } from "./lookups";

/** The inputs of a {@link Theme}. */
export interface ThemeArgs extends AdoptionArgs {
  /** The theme's name (1 to 255 characters). Updates in place. */
  name: pulumi.Input<string>;
  /** The first background colour, `#RRGGBB` (case does not matter). */
  background1: pulumi.Input<string>;
  /** The second background colour, `#RRGGBB`. */
  background2: pulumi.Input<string>;
  /** The text colour, `#RRGGBB`. */
  text: pulumi.Input<string>;
  /** The first accent colour, `#RRGGBB`. */
  accent1: pulumi.Input<string>;
  /** The second accent colour, `#RRGGBB`. */
  accent2: pulumi.Input<string>;
  /** The third accent colour, `#RRGGBB`. */
  accent3: pulumi.Input<string>;
}

/**
 * A custom menu colour theme, for a headset experience's `themeId`. Name and colours update in place; colours
 * compare without case. A create fails, before any write, when a custom theme of that name exists: take it over
 * with `adoptId`. System themes cannot be declared: find them with `getTheme`.
 *
 * @example
 * // A name of its own: the sandbox organization already has a custom theme "Acme Brand" (adopt it, or look it up).
 * const lobbyTheme = new dm.Theme("lobby-theme", {
 *   name: "Acme Lobby", background1: "#101820", background2: "#1C2B39", text: "#FFFFFF",
 *   accent1: "#F2AA4C", accent2: "#2BAE66", accent3: "#E94B3C",
 * });
 */
export class Theme extends DeviceMgmtResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly background1: pulumi.Output<string>;
  declare readonly background2: pulumi.Output<string>;
  declare readonly text: pulumi.Output<string>;
  declare readonly accent1: pulumi.Output<string>;
  declare readonly accent2: pulumi.Output<string>;
  declare readonly accent3: pulumi.Output<string>;
  /** When the theme was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the theme was last changed (ISO 8601). */
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: ThemeArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(themeKind, name, args, opts));
  }
}
