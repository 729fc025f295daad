/**
 * The Theme kind's properties, declared once (framework/properties.ts): the name and the six colours, how each
 * change applies (every one in place: PUT takes the whole theme) and how the API shows it. Everything else of the
 * kind reads them from here.
 */
import { z } from "zod";
import type { Theme as ApiTheme, ThemeBody } from "../../client";
import {
  requiredText,
  carried,
  type PropertySpecs,
  type StateOf,
  defineIdentity,
  knownText,
} from "../../framework";

/** "hex format" (OpenAPI): `#RRGGBB`. */
const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

/** The six colours of a theme, in the order the API and the generated program list them. */
export const THEME_COLORS = ["background1", "background2", "text", "accent1", "accent2", "accent3"] as const;
type ThemeColor = (typeof THEME_COLORS)[number] & keyof ThemeBody;

/** Colours compare without case: an API may store `#ABCDEF` as `#abcdef`, which is the same colour. */
export const sameColor = (a: unknown, b: unknown) =>
  typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b;

const color = (key: ThemeColor, description: string) => ({
  description: `${description}, #RRGGBB (case does not matter).`,
  schema: z
    .string({ error: `${key} is required: a colour in hex format such as "#1A2B3C"` })
    .trim()
    .regex(HEX_COLOR, { error: `${key} must be a colour in hex format "#RRGGBB", such as "#1A2B3C"` }),
  change: "update" as const,
  fromLive: (live: ApiTheme) => live[key],
  equal: sameColor,
});

export const themeProperties = {
  name: {
    description: "The theme's name (1 to 255 characters). Updates in place.",
    schema: requiredText("name", 255),
    change: "update",
    fromLive: (live: ApiTheme) => live.name,
  },
  background1: color("background1", "The first background colour"),
  background2: color("background2", "The second background colour"),
  text: color("text", "The text colour"),
  accent1: color("accent1", "The first accent colour"),
  accent2: color("accent2", "The second accent colour"),
  accent3: color("accent3", "The third accent colour"),
  ...carried,
} satisfies PropertySpecs<ApiTheme>;

export type ThemeProperties = typeof themeProperties;
export type ThemeState = StateOf<ThemeProperties>;

/**
 * Who the Theme kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const themeIdentity = defineIdentity({
  kind: "theme",
  type: "Theme",
  naturalKey: false,
  properties: themeProperties,
  // Custom theme names compare exactly, as the create compares them.
  claim: {
    property: "name",
    keys: (p) => (knownText(p.name) === undefined ? undefined : [knownText(p.name) as string]),
    describe: (p) => `the custom theme "${String(p.name)}"`,
  },
});
