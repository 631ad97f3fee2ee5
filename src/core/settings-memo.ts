/**
 * One remembered answer per settings object: `safetyOf` and `limitsOf` run in several middleware hooks of every
 * model call with the same run settings and fallback, and a zod parse each time cost ~0.3 ms per call. The answer is
 * reused only while both the settings and the fallback hold the values it was parsed from, compared field by field:
 * a settings object may be changed in place (an editor's mode switch does: src/faces/acp/acp-session.ts), and the state's
 * fallback may be a new object with equal contents.
 */
export function settingsMemo<T extends object>(parse: (raw: object, fallback: T) => T): (raw: object, fallback: T) => T {
  const answers = new WeakMap<object, { raw: unknown; fallback: unknown; result: T }>();
  return (raw, fallback) => {
    const known = answers.get(raw);
    if (known && sameValues(known.raw, raw) && sameValues(known.fallback, fallback)) return known.result;
    const result = parse(raw, fallback);
    // Copies: what was parsed, not objects that may change after.
    answers.set(raw, { raw: structuredClone(raw), fallback: structuredClone(fallback), result });
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
