/**
 * Replaces `$NAME` / `${NAME}` with values assigned earlier in the same command line (`D=/; rm -rf $D`). Quoting
 * is not tracked here, so a single-quoted `'$D'` is replaced too: the result only feeds deny rules, where reading
 * too much is the safe side.
 */

const WHOLE = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/;
const INSIDE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;
const MAX_VARIANTS = 16;

export function substituteVariables(words: readonly string[], vars: ReadonlyMap<string, readonly string[]>): string[] {
  if (vars.size === 0) return [...words];
  const out: string[] = [];
  for (const word of words) {
    const whole = WHOLE.exec(word);
    const wholeValues = whole ? vars.get(whole[1] ?? whole[2] ?? "") : undefined;
    if (wholeValues) {
      // `for d in a b; do rm -rf $d` touches every value: list them all. Unquoted, `a="rm -rf /"; $a` splits.
      out.push(...wholeValues.flatMap((v) => v.split(/\s+/).filter((part) => part !== "")).slice(0, MAX_VARIANTS));
      continue;
    }
    let variants = [word];
    for (const match of word.matchAll(INSIDE)) {
      const values = vars.get(match[1] ?? match[2] ?? "")?.slice(0, MAX_VARIANTS);
      if (!values || values.length === 0) continue;
      variants = variants.flatMap((v) => values.map((value) => v.replace(match[0], () => value))).slice(0, MAX_VARIANTS);
    }
    out.push(...variants);
  }
  return out;
}
