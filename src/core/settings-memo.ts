/**
 * One remembered answer per settings object: `safetyOf` and `limitsOf` run in several middleware hooks of every
 * model call with the same run settings and fallback, and a zod parse each time cost ~0.3 ms per call. The answer is
 * reused while the fallback holds the same values (compared field by field: the state's copy may be a new object
 * with equal contents); settings objects are not changed in place once a run has them.
 */
export function settingsMemo<T extends object>(parse: (raw: object, fallback: T) => T): (raw: object, fallback: T) => T {
  const answers = new WeakMap<object, { fallback: T; result: T }>();
  return (raw, fallback) => {
    const known = answers.get(raw);
    if (known && sameValues(known.fallback, fallback)) return known.result;
    const result = parse(raw, fallback);
    answers.set(raw, { fallback, result });
    return result;
  };
}

/** Equal plain values: primitives, arrays and records of them, as settings hold. */
function sameValues(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every((k) => Object.hasOwn(b, k) && sameValues((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
