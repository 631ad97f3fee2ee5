import picomatch from "picomatch";

/**
 * The one glob engine: picomatch, with the options of each kind of subject said here once.
 *
 * - `path`: an absolute path, or one segment of one, as a command names it (`~/.ssh/*`, `/etc/ssh/ssh_host_*_key`).
 *   `*`, `?` and `[…]` stay within one folder; `**` alone in a segment crosses folders. Dot files match too: the
 *   safety checks built on this must err toward a match, and where bash's rule (a glob not starting with "." skips
 *   dot files) decides, the caller applies it (src/safety/credential-match.ts). Braces stay literal: bash expands
 *   them before matching (src/safety/command-paths.ts, expandBraces). `[!a]` is bash's spelling of `[^a]`.
 * - `name`: a name that is not a path: a model (`qwen/qwen3-coder:7b`, priced by `*coder*`) or an MCP tool
 *   (`mcp__github__*`). `*` is any run of characters, `/` and dots included; `{a,b}` lists alternatives.
 *
 * Neither kind negates a whole pattern with a leading `!` nor reads extglobs (`+(…)`, `!(…)`): names and paths may
 * contain those characters. `\` escapes, `/` is the only separator (also on Windows: the subjects are POSIX paths
 * and names). `ignoreCase` is for names that providers spell in any case (model names).
 */

export type GlobKind = "path" | "name";

const COMMON: picomatch.PicomatchOptions = { dot: true, nonegate: true, noextglob: true, windows: false };
const OPTIONS: Readonly<Record<GlobKind, picomatch.PicomatchOptions>> = {
  path: { ...COMMON, nobrace: true },
  // `bash` makes a single `*` a globstar, so it crosses `/` (picomatch has no other switch for that).
  name: { ...COMMON, bash: true },
};

const GLOB_CHARS = /[*?[]/;

/** Whether `text` has a wildcard (`*`, `?` or `[`); text without one names exactly itself. */
export function hasGlob(text: string): boolean {
  return GLOB_CHARS.test(text);
}

export type GlobMatcher = (subject: string) => boolean;

const compiled = new Map<string, GlobMatcher>();
/** Patterns come from commands the model writes: bounded, so a long session cannot grow it without end. */
const MAX_COMPILED = 500;

function compile(pattern: string, kind: GlobKind, ignoreCase: boolean): GlobMatcher {
  // picomatch knows only `[^…]` for a negated class.
  const source = kind === "path" ? pattern.replace(/(^|[^\\])\[!/g, "$1[^") : pattern;
  // The bare expression: picomatch's matcher function doubles the cost of a call (1 µs against 0.5), for options we do not use.
  const regex = picomatch.makeRe(source, { ...OPTIONS[kind], nocase: ignoreCase });
  // A pattern picomatch cannot compile matches nothing there; it still names itself.
  if (ignoreCase) return (subject) => subject.toLowerCase() === pattern.toLowerCase() || regex.test(subject);
  return (subject) => subject === pattern || regex.test(subject);
}

/** The matcher for `pattern`, compiled once (and kept while few patterns are in use). */
export function globMatcher(pattern: string, kind: GlobKind, ignoreCase = false): GlobMatcher {
  const key = `${kind}:${ignoreCase ? "i" : ""}:${pattern}`;
  let matcher = compiled.get(key);
  if (!matcher) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    matcher = compile(pattern, kind, ignoreCase);
    compiled.set(key, matcher);
  }
  return matcher;
}

/** Whether `subject` matches the glob `pattern` (see the kinds above). */
export function matchesGlob(pattern: string, subject: string, kind: GlobKind, ignoreCase = false): boolean {
  return globMatcher(pattern, kind, ignoreCase)(subject);
}
