// @ts-check
// A TypeDoc plugin for docs/reference (typedoc.json): sorts the index the way a reader looks for things, and marks
// every page as generated. Groups come from what a symbol is, not from tags in provider/, so a new resource kind
// or lookup lands in its section without anyone remembering a tag.
import { Comment, CommentTag, Converter, ReflectionKind } from "typedoc";

/** @typedef {import("typedoc").DeclarationReflection} DeclarationReflection */
/** @typedef {import("typedoc").SomeType} SomeType */

/** @param {import("typedoc").Application} app */
export function load(app) {
  // Before TypeDoc's own GroupPlugin (priority -100 at RESOLVE_END) reads the @group tags.
  app.converter.on(
    Converter.EVENT_RESOLVE_END,
    (context) => {
      for (const reflection of context.project.children ?? []) {
        const group = groupOf(reflection);
        if (!group) continue;
        reflection.comment ??= new Comment();
        reflection.comment.blockTags.push(new CommentTag("@group", [{ kind: "text", text: group }]));
      }
    },
    100,
  );

  // markdownHooks is typedoc-plugin-markdown's (listed before this plugin in typedoc.json).
  const hooks = /** @type {any} */ (app.renderer).markdownHooks;
  // Under the index's title (content.begin comes after it; index.page.begin would come before).
  hooks.on("content.begin", (/** @type {{ page: { model: { kind: ReflectionKind } } }} */ context) =>
    context.page.model.kind === ReflectionKind.Project
      ? "Generated from the TSDoc of `provider/` by `npm run docs`: edit the source, not these pages. " +
        "How to use the package: the [README](../../README.md)."
      : "",
  );
  hooks.on(
    "page.begin",
    () => "<!-- Generated from the TSDoc by `npm run docs`: edit the source, not this page. -->",
  );
}

/**
 * The section of a top-level symbol: resources (classes whose ancestors include a Pulumi resource), lookups
 * (`getX` and `getXOutput`), errors (classes descending from Error); undefined leaves TypeDoc's kind group.
 * @param {DeclarationReflection} reflection
 */
function groupOf(reflection) {
  if (reflection.kindOf(ReflectionKind.Class)) {
    const ancestors = ancestorNames(reflection);
    if (ancestors.some((name) => /Resource$/.test(name))) return "Resources";
    if (ancestors.includes("Error")) return "Errors";
    return undefined;
  }
  if (
    reflection.kindOf(ReflectionKind.Function | ReflectionKind.Variable) &&
    /^get[A-Z]/.test(reflection.name)
  ) {
    return "Lookups";
  }
  return undefined;
}

/**
 * Names of the classes `reflection` extends, nearest first, following documented ones up their own chain.
 * @param {DeclarationReflection} reflection
 * @returns {string[]}
 */
function ancestorNames(reflection) {
  return (reflection.extendedTypes ?? []).flatMap((type) => {
    if (type.type !== "reference") return [];
    const target = type.reflection;
    const above =
      target && "extendedTypes" in target ? ancestorNames(/** @type {DeclarationReflection} */ (target)) : [];
    return [type.name, ...above];
  });
}
