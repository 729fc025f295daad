/** Property values on the wire: secrets, comparison, and the views tests read. */
import { SECRET_SIG, SECRET_SIG_KEY, UNKNOWN, type PropertyMap, type PropertyValue } from "./plugin";
import type { ResourceView, StateEntry } from "./types";

export const PROVIDER_KEY = "__provider";
export const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";

type SecretValue = { [SECRET_SIG_KEY]: typeof SECRET_SIG; value: PropertyValue };

export function isSecret(value: unknown): value is SecretValue {
  return typeof value === "object" && value !== null && (value as PropertyMap)[SECRET_SIG_KEY] === SECRET_SIG;
}

export function makeSecret(value: PropertyValue): PropertyValue {
  return isSecret(value) ? value : ({ [SECRET_SIG_KEY]: SECRET_SIG, value } as PropertyMap);
}

/** Config as Configure receives it (and the default provider stores it): the secret keys' values made secret. */
export function configArgs(config: Record<string, string>, secretKeys: string[]): PropertyMap {
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => [key, secretKeys.includes(key) ? makeSecret(value) : value]),
  );
}

export function containsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsSecret);
  return false;
}

/** What a provider that does not accept secrets receives: the same values, secret markers removed. */
export function reveal<T extends PropertyValue>(value: T): T {
  if (isSecret(value)) return reveal(value.value) as T;
  if (Array.isArray(value)) return value.map(reveal) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v)])) as T;
  }
  return value;
}

/**
 * What a provider receives outside a preview (plugin/provider_plugin.go, Check: MarshalProperties with
 * KeepUnknowns = AllowUnknowns = DryRun): properties whose value is unknown are left out, unknown array elements
 * become null. (Resources whose create `--target` or `--exclude` skipped have unknown ids in an up too.)
 */
export function dropUnknowns<T extends PropertyValue>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => (v === UNKNOWN ? null : dropUnknowns(v))) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== UNKNOWN)
        .map(([k, v]) => [k, dropUnknowns(v)]),
    ) as T;
  }
  return value;
}

/**
 * The engine's answer to providers that do not accept secrets (pulumi/pulumi#13260): a returned property is
 * secret when the same-named property it was computed from was secret.
 */
export function annotateSecrets(
  outs: PropertyMap,
  secretSource: PropertyMap,
  extraSecretKeys: string[] = [],
): PropertyMap {
  const annotated: PropertyMap = { ...outs };
  for (const key of Object.keys(annotated)) {
    if (containsSecret(secretSource[key]) || extraSecretKeys.includes(key)) {
      annotated[key] = makeSecret(annotated[key]);
    }
  }
  return annotated;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Top-level keys whose values differ, secrets unwrapped (the engine's `PropertyMap.Diff`, one level deep). */
export function changedKeys(olds: PropertyMap, news: PropertyMap): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  keys.delete(PROVIDER_KEY);
  return [...keys].filter((k) => !deepEqual(reveal(olds[k] ?? null), reveal(news[k] ?? null))).sort();
}

/**
 * The old and new values of `keys` for display (Step.changedValues): secrets masked as the CLI masks them
 * (pkg/backend/display/object_diff.go, printPrimitivePropertyValue: a secret prints as "[secret]").
 */
export function changedValues(
  olds: PropertyMap,
  news: PropertyMap,
  keys: string[],
): Record<string, { old?: unknown; new?: unknown }> {
  const shown = (value: PropertyValue | undefined) =>
    value === undefined ? undefined : containsSecret(value) ? "[secret]" : reveal(value);
  return Object.fromEntries(keys.map((k) => [k, { old: shown(olds[k]), new: shown(news[k]) }]));
}

export function secretKeysOf(map: PropertyMap): string[] {
  return Object.keys(map).filter((k) => containsSecret(map[k]));
}

export function viewOf(entry: StateEntry): ResourceView {
  const plain = (map: PropertyMap) => {
    const copy = reveal(map) as Record<string, unknown>;
    delete copy[PROVIDER_KEY];
    return copy;
  };
  return {
    urn: entry.urn,
    type: entry.type,
    name: entry.name,
    custom: entry.custom,
    parent: entry.parent,
    id: entry.id,
    inputs: plain(entry.inputs),
    outputs: plain(entry.outputs),
    secretInputs: secretKeysOf(entry.inputs).filter((k) => k !== PROVIDER_KEY),
    secretOutputs: secretKeysOf(entry.outputs).filter((k) => k !== PROVIDER_KEY),
    dependencies: [...entry.dependencies],
    options: { ...entry.options },
    ...(entry.initErrors ? { initErrors: [...entry.initErrors] } : {}),
    ...(entry.pendingDelete ? { pendingDelete: true } : {}),
    ...(entry.pendingReplacement ? { pendingReplacement: true } : {}),
    ...(entry.taint ? { taint: true } : {}),
  };
}
