/**
 * The Theme kind's CRUD, on typed inputs: create (never duplicating a custom theme of that name, never adopting
 * a system theme), read, update (PUT takes the whole theme), delete (refused in the user's terms while an
 * experience uses it).
 */
import { NotPossibleError, ObjectGoneError } from "../../errors";
import { NotFoundError, ValidationError, type Theme as ApiTheme, type ThemeBody } from "../../client";
import {
  clientForProps,
  adoptable,
  jsonClean,
  notCreatedHere,
  partialFailure,
  unlessGone,
  untilApplied,
  type Props,
  checkKind,
  diffKindAsked,
  readById,
  type KindHandler,
  liveStateOf,
  stateFrom,
  heldByAnother,
  leftByUnfinishedCreate,
} from "../../framework";
import {
  sameColor,
  THEME_COLORS,
  themeProperties,
  type ThemeProperties,
  type ThemeState,
  themeIdentity,
} from "./properties";

/** The body of POST and PUT: the declared name and colours. */
const themeBody = ({
  name,
  background1,
  background2,
  text,
  accent1,
  accent2,
  accent3,
}: ThemeState): ThemeBody => ({
  name,
  background1,
  background2,
  text,
  accent1,
  accent2,
  accent3,
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
  const now = liveStateOf(themeProperties, live);
  return now.name === want.name && THEME_COLORS.every((key) => sameColor(now[key], want[key]));
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

export const themeHandler: KindHandler<ThemeProperties> = {
  async check(_olds, news) {
    return checkKind(themeIdentity, news);
  },

  async diff(_id, olds, news) {
    return diffKindAsked(themeIdentity, olds, news);
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    const want = themeBody(inputs);
    let live: ApiTheme;
    if (inputs.adoptId !== undefined) {
      live = await adoptable("theme", inputs.adoptId, (id) => client.themes.get(id));
      if (live.isSystemOwned) throw systemThemeRefused(live);
    } else {
      const existing = await customNamed(inputs, want.name);
      // The theme a killed run of this very resource made is its own: taken over, then brought to the values.
      const own = leftByUnfinishedCreate(themeIdentity.kind, inputs, existing);
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
              (await customNamed(inputs, want.name)).find(
                (t) => !heldByAnother(themeIdentity.kind, t.id, inputs),
              ),
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

  read: (id, props) =>
    readById(themeIdentity, id, props, (client, themeId) => client.themes.get(themeId), toOutputs),

  async update(id, _olds, news) {
    const client = clientForProps(news);
    try {
      return { outs: toOutputs(await client.themes.update(id, themeBody(news)), news) };
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
        `Theme ${id} ("${props.name}") cannot be deleted: ${error.message}. Point the headset ` +
          `experiences that use it at another theme first (or remove them from this stack with it).`,
        { kind: "Theme", fix: "stop using the theme in every experience, then delete it" },
      );
    }
  },
};
