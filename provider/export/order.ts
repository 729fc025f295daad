/**
 * The order everything the exporter writes is sorted in. Its own module because the model (model.ts) and the
 * readers whose objects it holds (deviceRead.ts, experienceRead.ts) all sort: kept in model.ts, it made them an
 * import cycle.
 */

/** Code-unit order: the same on every machine and locale, so output never depends on where it ran. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares by each key in turn. */
export function compareBy<T>(...keys: ((item: T) => string)[]): (a: T, b: T) => number {
  return (a, b) => {
    for (const key of keys) {
      const order = compareText(key(a), key(b));
      if (order !== 0) return order;
    }
    return 0;
  };
}
