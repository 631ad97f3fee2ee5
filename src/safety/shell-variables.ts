import { fieldChild, fieldChildren, type SyntaxNode } from "./bash-syntax.js";
import { wordValue } from "./shell-word-value.js";

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

/** `for X in a b` — so `rm -rf $X` in its body is read with each value. */
export function rememberLoop(vars: Map<string, string[]>, node: SyntaxNode): void {
  const name = fieldChild(node, "variable")?.text;
  const values = fieldChildren(node, "value").map(wordValue);
  if (name) vars.set(name, substituteVariables(values, vars));
}

/** `X=1`, `export X=1` — so a later `rm -rf $X` is read with X's value. */
export function rememberVariables(vars: Map<string, string[]>, argv: string[], assignments: Array<[string, string]>): void {
  if (argv.length === 0) for (const [name, value] of assignments) vars.set(name, [value]);
  const head = argv[0] ?? "";
  if (["export", "declare", "local", "readonly", "typeset"].includes(head)) {
    for (const arg of argv.slice(1)) {
      const eq = arg.indexOf("=");
      if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(arg.slice(0, eq))) vars.set(arg.slice(0, eq), [arg.slice(eq + 1)]);
    }
  }
}
