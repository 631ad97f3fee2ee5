/**
 * "Did you mean …?" for mistyped flags and commands. Hand-written rather than a dependency: the inputs are a
 * few short names, so a textbook edit distance is fifteen lines and needs no audit or lockfile change.
 */

/** Edit distance counting insertions, deletions, substitutions and swaps of neighbours ("jsno" → "json" is 1). */
export function editDistance(a: string, b: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (beforePrevious[j - 2] ?? 0) + 1);
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The one candidate close to `typed` (two letters or more): the nearest within a third of its length (at least 1, at most 3 edits),
 * else the only candidate `typed` is the start of (`--approve` → `--approve-file-changes`); undefined when
 * nothing is close or two candidates are equally close.
 */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  // Leading dashes do not count: "--jsno" is as short a word as "jsno"; a single letter ("-x") resembles everything.
  const word = typed.replace(/^-+/, "");
  if (word.length < 2) return undefined;
  const allowed = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  const scored = candidates.map((c) => ({ c, d: editDistance(typed, c) })).filter((s) => s.d <= allowed);
  const best = Math.min(...scored.map((s) => s.d));
  const nearest = scored.filter((s) => s.d === best);
  if (nearest.length === 1) return nearest[0]?.c;
  if (nearest.length > 1) return undefined;
  const extending = word.length >= 3 ? candidates.filter((c) => c.startsWith(typed)) : [];
  return extending.length === 1 ? extending[0] : undefined;
}
