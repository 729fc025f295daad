/**
 * Theme: a custom menu colour theme of the organization (system themes are offered by the service and cannot
 * change; `getTheme` finds them). Every property updates in place (PUT takes the whole theme).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { NotPossibleError, ObjectGoneError } from "../../errors";
import { NotFoundError, ValidationError, type Theme as ApiTheme, type ThemeBody } from "../../client";
import { clientForProps } from "../../framework/context";
import {
  adoptable,
  jsonClean,
  notCreatedHere,
  partialFailure,
  unlessGone,
  untilApplied,
  type Props,
  type ResourceHandler,
} from "../../framework/framework";
import { checkKind, defineKind, diffKindAsked, liveInputs, registration } from "../../framework/kind";
import { carried, stateFrom, type PropertySpecs } from "../../framework/properties";
import { DeviceMgmtResource, type AdoptionArgs } from "../../framework/common";
import { heldByAnother, leftByUnfinishedCreate } from "../../framework/claims";

/** "hex format" (OpenAPI): `#RRGGBB`. */
const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

/** Colours compare without case: an API may store `#ABCDEF` as `#abcdef`, which is the same colour. */
const sameColor = (a: unknown, b: unknown) =>
  typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b;

const color = (name: string) => ({
  schema: z
    .string({ error: `${name} is required: a colour in hex format such as "#1A2B3C"` })
    .trim()
    .regex(HEX_COLOR, { error: `${name} must be a colour in hex format "#RRGGBB", such as "#1A2B3C"` }),
  change: "update" as const,
  fromLive: (live: ApiTheme) => live[name as keyof ThemeBody],
  equal: sameColor,
});

const themeProperties = {
  name: {
    schema: z
      .string({ error: "name is required and must be a string" })
      .trim()
      .min(1, { error: "name must not be empty" })
      .max(255, { error: "name must be at most 255 characters" }),
    change: "update",
    fromLive: (live: ApiTheme) => live.name,
  },
  background1: color("background1"),
  background2: color("background2"),
  text: color("text"),
  accent1: color("accent1"),
  accent2: color("accent2"),
  accent3: color("accent3"),
  ...carried,
} satisfies PropertySpecs<ApiTheme>;

const bodyOf = (props: Props): ThemeBody => ({
  name: props.name as string,
  background1: props.background1 as string,
  background2: props.background2 as string,
  text: props.text as string,
  accent1: props.accent1 as string,
  accent2: props.accent2 as string,
  accent3: props.accent3 as string,
});

function toOutputs(live: ApiTheme, props: Props): Props {
  return jsonClean({
    ...stateFrom(themeProperties, live, props),
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
  });
}

/** Whether the live theme already has the declared name and colours (a PUT would change nothing). */
function matches(live: ApiTheme, want: ThemeBody): boolean {
  return (Object.keys(want) as (keyof ThemeBody)[]).every((key) =>
    key === "name" ? live.name === want.name : sameColor(live[key], want[key]),
  );
}

/** A custom theme of that name: what a create must not duplicate, and what a lost create answer made. */
async function customNamed(props: Props, name: string): Promise<ApiTheme[]> {
  const themes = await clientForProps(props).themes.all();
  return themes.filter((t) => !t.isSystemOwned && t.name === name);
}

function systemThemeRefused(theme: ApiTheme): NotPossibleError {
  return new NotPossibleError(
    `adoptId: theme ${theme.id} ("${theme.name}") is a system theme, which cannot be changed. Refer to it by ` +
      `id (getTheme({ name: "${theme.name}" })) instead of declaring a Theme.`,
    { kind: "Theme", property: "adoptId", fix: "use getTheme for system themes" },
  );
}

export const themeHandler: ResourceHandler = {
  async check(_olds, news) {
    return checkKind(themeKind, news);
  },

  async diff(_id, olds, news) {
    return diffKindAsked(themeKind, olds, news);
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    const want = bodyOf(inputs);
    let live: ApiTheme;
    if (typeof inputs.adoptId === "string") {
      live = await adoptable("theme", inputs.adoptId, (id) => client.themes.get(id));
      if (live.isSystemOwned) throw systemThemeRefused(live);
    } else {
      const existing = await customNamed(inputs, want.name);
      // The theme a killed run of this very resource made is its own: taken over, then brought to the values.
      const own = leftByUnfinishedCreate("theme", inputs, existing);
      if (!own && existing.length > 0) {
        throw notCreatedHere(
          `A custom theme named "${want.name}" already exists (id ${existing[0].id}).`,
          "a theme",
          existing[0].id,
        );
      }
      if (own) live = own;
      else {
        // A create whose answer was lost is found by its name (checked free just before), never taking a theme
        // another resource of the run records.
        return {
          id: (live = await untilApplied(
            () => client.themes.create(want),
            async () =>
              (await customNamed(inputs, want.name)).find((t) => !heldByAnother("theme", t.id, inputs)),
          )).id,
          outs: toOutputs(live, inputs),
        };
      }
    }
    try {
      if (!matches(live, want)) live = await client.themes.update(live.id, want);
    } catch (error) {
      throw partialFailure(live.id, toOutputs(live, inputs), inputs, error);
    }
    return { id: live.id, outs: toOutputs(live, inputs) };
  },

  async read(id, props) {
    const live = await unlessGone(clientForProps(props).themes.get(id));
    if (!live) return {};
    const outputs = toOutputs(live, props);
    return { id, props: outputs, inputs: liveInputs(themeKind, outputs) };
  },

  async update(id, _olds, news) {
    const client = clientForProps(news);
    try {
      return { outs: toOutputs(await client.themes.update(id, bodyOf(news)), news) };
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new ObjectGoneError(
          `Theme ${id} no longer exists in the organization. Run \`pulumi refresh\` to forget it, then \`pulumi up\` recreates it.`,
          "Theme",
          id,
        );
      }
      throw error;
    }
  },

  async delete(id, props) {
    const client = clientForProps(props);
    try {
      await unlessGone(client.themes.delete(id));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw new NotPossibleError(
        `Theme ${id} ("${props.name as string}") cannot be deleted: ${error.message}. Point the headset ` +
          `experiences that use it at another theme first (or remove them from this stack with it).`,
        { kind: "Theme", fix: "stop using the theme in every experience, then delete it" },
      );
    }
  },
};

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

export const themeKind = defineKind({
  kind: "theme",
  type: "Theme",
  naturalKey: false,
  properties: themeProperties,
  outputs: ["createdAt", "updatedAt"],
  handler: themeHandler,
});
