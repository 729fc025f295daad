/**
 * The `ignoreChanges` resource option as the engine applies it before Check: each property path of the new
 * inputs is reset to its value in the old inputs, or removed where the old inputs lack it
 * (pkg/resource/deploy/step_generator.go, processIgnoreChanges; sdk/go/common/resource/properties_path.go,
 * ParsePropertyPath and PropertyPath.Reset). Paths are `a.b`, `a[0]`, `a["key with.dots"]` and `*`.
 */
import type { PropertyMap, PropertyValue } from "./plugin";
import { isSecret } from "./values";

type PathElement = string | number;

/** Parses a property path (ParsePropertyPath); undefined for a malformed one, which the engine skips. */
export function parsePropertyPath(path: string): PathElement[] | undefined {
  const elements: PathElement[] = [];
  let rest = path;
  while (rest.length > 0) {
    if (rest.startsWith("[")) {
      const quoted = /^\["((?:[^"\\]|\\.)*)"\]/.exec(rest);
      const index = /^\[(\d+|\*)\]/.exec(rest);
      if (quoted) {
        elements.push(quoted[1].replace(/\\(.)/g, "$1"));
        rest = rest.slice(quoted[0].length);
      } else if (index) {
        elements.push(index[1] === "*" ? "*" : Number(index[1]));
        rest = rest.slice(index[0].length);
      } else {
        return undefined;
      }
    } else {
      if (rest.startsWith(".")) rest = rest.slice(1);
      const name = /^[^.[]+/.exec(rest);
      if (!name) return undefined;
      elements.push(name[0]);
      rest = rest.slice(name[0].length);
    }
  }
  return elements.length > 0 ? elements : undefined;
}

/** A container in wire form seen through a secret wrapper: the value to walk into. */
const inner = (value: PropertyValue | undefined): PropertyValue | undefined =>
  isSecret(value) ? (value.value as PropertyValue) : value;
const isObject = (value: unknown): value is PropertyMap =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** PropertyPath.Reset: false where the path meets added or removed elements (the engine then only informs). */
function reset(
  path: PathElement[],
  old: PropertyValue | undefined,
  news: PropertyValue | undefined,
): boolean {
  const [key, ...more] = path;
  const o = inner(old);
  const n = inner(news);
  if (key === "*") {
    if (isObject(o) && isObject(n)) {
      for (const k of Object.keys(o)) {
        if (!(k in n)) continue;
        if (more.length === 0) n[k] = o[k];
        else if (!reset(more, o[k], n[k])) return false;
      }
      return true;
    }
    if (Array.isArray(o) && Array.isArray(n)) {
      for (let i = 0; i < Math.min(o.length, n.length); i++) {
        if (more.length === 0) n[i] = o[i];
        else if (!reset(more, o[i], n[i])) return false;
      }
      return o.length === n.length;
    }
    return false;
  }
  if (typeof key === "number") {
    if (!Array.isArray(o) || !Array.isArray(n) || key >= o.length || key >= n.length) {
      return !Array.isArray(o) && !Array.isArray(n);
    }
    if (more.length === 0) {
      n[key] = o[key];
      return true;
    }
    return reset(more, o[key], n[key]);
  }
  if (more.length === 0) {
    if (isObject(o) && key in o) {
      if (!isObject(n)) return false;
      n[key] = o[key];
    } else if (isObject(n)) {
      delete n[key];
    }
    return true;
  }
  if (!isObject(o) || !isObject(n)) return !isObject(o) && !isObject(n);
  if (key in o && !(key in n)) return false;
  if (!(key in o) && !(key in n)) return true;
  return reset(more, o[key], n[key]);
}

/**
 * The new inputs with every ignored path reset to the old inputs (processIgnoreChanges). Returns the paths that
 * could not be applied (added or removed elements along the path), which the engine reports as information.
 */
export function applyIgnoreChanges(
  news: PropertyMap,
  olds: PropertyMap,
  ignoreChanges: string[],
): { inputs: PropertyMap; invalidPaths: string[] } {
  const inputs = structuredClone(news);
  const invalidPaths: string[] = [];
  for (const ignored of ignoreChanges) {
    const path = parsePropertyPath(ignored);
    if (!path) continue;
    if (!reset(path, olds as PropertyValue, inputs as PropertyValue)) invalidPaths.push(ignored);
  }
  return { inputs, invalidPaths };
}
