import path from "node:path";
import { findClose } from "./bracket-match.js";

/**
 * Turns a command argument into the absolute path bash would touch, without touching the file system: `~`,
 * `$HOME`, `$PWD`, `$(pwd)` and relative paths are resolved; globs stay in. Unknown variables are either assumed
 * empty (the classic `rm -rf "$DIR/"*` with DIR unset) or read as `*` (any value), depending on the question.
 */

export interface PathContext {
  workspace: string;
  home: string;
  /** Absolute folder the command runs in; undefined after a `cd` that cannot be followed. */
  cwd: string | undefined;
}

export interface ResolvedPath {
  path: string;
  /** Variables and substitutions assumed empty to get `path`, as written (e.g. "$DIR"). */
  emptied: string[];
}

const posix = path.posix;
const HOME_PREFIX = /^(?:\$HOME|\$\{HOME(?:[:?=+-][^}]*)?\})(?=\/|$)/;
const PWD_PREFIX = /^(?:\$PWD|\$\{PWD\}|\$\(\s*pwd(?:\s+-[LP])?\s*\)|`\s*pwd(?:\s+-[LP])?\s*`)(?=\/|$)/;
const TOPLEVEL_PREFIX = /^\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\)(?=\/|$)/;
/** `${X:?}` / `${X?msg}` stop the shell when X is empty: such a path is something specific, never `/`. */
const GUARDED = /^\$\{[A-Za-z_][A-Za-z0-9_]*:?\?[^}]*\}/;
const SIMPLE_VAR = /^\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/;
/** Length of a `$…` / backtick expansion starting at `i`, or 0. */
function expansionLength(text: string, i: number): number {
  const rest = text.slice(i);
  if (rest.startsWith("$(") || rest.startsWith("${")) {
    const close = findClose(text, i + 2, rest.charAt(1), rest.charAt(1) === "(" ? ")" : "}");
    return close < 0 ? text.length - i : close - i + 1;
  }
  if (rest.startsWith("`")) {
    const close = text.indexOf("`", i + 1);
    return close < 0 ? text.length - i : close - i + 1;
  }
  return SIMPLE_VAR.exec(rest)?.[0].length ?? 0;
}

function userHome(user: string, home: string): string {
  return user === "root" ? "/root" : posix.join(posix.dirname(home), user);
}

/** The folder a leading `~`, `$HOME`, `$PWD`, `$(pwd)` or `$(git rev-parse --show-toplevel)` stands for. */
function leadingBase(text: string, pc: PathContext): { base: string | undefined; length: number } | undefined {
  const tilde = /^~([A-Za-z0-9._-]*)(?=\/|$)/.exec(text);
  if (tilde) return { base: tilde[1] ? userHome(tilde[1], pc.home) : pc.home, length: tilde[0].length };
  const home = HOME_PREFIX.exec(text);
  if (home) return { base: pc.home, length: home[0].length };
  const pwd = PWD_PREFIX.exec(text);
  if (pwd) return { base: pc.cwd, length: pwd[0].length };
  const top = TOPLEVEL_PREFIX.exec(text);
  return top ? { base: pc.workspace, length: top[0].length } : undefined;
}

export function resolvePath(word: string, pc: PathContext, unknown: "empty" | "wildcard"): ResolvedPath | undefined {
  const lead = leadingBase(word, pc);
  if (lead && lead.base === undefined) return undefined;
  const text = lead ? word.slice(lead.length) : word;
  const emptied: string[] = [];
  let out = "";
  for (let i = 0; i < text.length;) {
    const length = expansionLength(text, i);
    if (length === 0) {
      out += text.charAt(i++);
      continue;
    }
    const expansion = text.slice(i, i + length);
    if (GUARDED.test(expansion)) out += "\u0001";
    else if (unknown === "wildcard") out += "*";
    else emptied.push(expansion);
    i += length;
  }
  if (lead?.base !== undefined) out = lead.base + out;
  if (out === "") return undefined;
  if (!out.startsWith("/")) {
    if (pc.cwd === undefined) return undefined;
    out = posix.resolve(pc.cwd, out);
  }
  const normal = posix.normalize(out);
  return { path: normal.length > 1 ? normal.replace(/\/+$/, "") : normal, emptied };
}

/** The alternatives of the first `{a,b}` group in `word`, or undefined when it has none. */
function expandFirstGroup(word: string): string[] | undefined {
  for (let open = word.indexOf("{"); open >= 0; open = word.indexOf("{", open + 1)) {
    if (word.charAt(open - 1) === "$") continue;
    const close = findClose(word, open + 1, "{", "}");
    if (close < 0) return undefined;
    const parts: string[] = [];
    let depth = 0;
    let from = open + 1;
    for (let i = open + 1; i < close; i++) {
      const c = word.charAt(i);
      if (c === "{") depth++;
      else if (c === "}") depth--;
      else if (c === "," && depth === 0) {
        parts.push(word.slice(from, i));
        from = i + 1;
      }
    }
    if (parts.length === 0) continue;
    parts.push(word.slice(from, close));
    return parts.map((part) => word.slice(0, open) + part + word.slice(close + 1));
  }
  return undefined;
}

/** `a{b,c}d` → `abd`, `acd`, like bash; nested and repeated groups too, within fixed limits. */
export function expandBraces(word: string, limit = 32): string[] {
  let words = [word];
  for (let round = 0; round < 8; round++) {
    let changed = false;
    words = words
      .flatMap((w) => {
        const expanded = expandFirstGroup(w);
        if (expanded) changed = true;
        return expanded ?? [w];
      })
      .slice(0, limit);
    if (!changed) break;
  }
  return words;
}
