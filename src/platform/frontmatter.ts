import { parse } from "yaml";
import { errorMessage } from "./error-info.js";

/**
 * Markdown with YAML frontmatter, the shape of custom agents' files (`.mini-cursor/agents/*.md`, `.claude/agents`)
 * and skills' SKILL.md: `---` on the first line (after a byte-order mark, if any), YAML, a closing `---` (or YAML's
 * `...`) on a line of its own, then the body. Parsed with the `yaml` package. What is wrong comes back as a value,
 * for the caller to word for its own file.
 */
export type Frontmatter =
  | { ok: true; data: Record<string, unknown>; body: string }
  /** No opening `---` line. */
  | { ok: false; problem: "missing" }
  /** No closing line in the text given: more of the file is needed, or the block is never closed. */
  | { ok: false; problem: "unclosed" }
  /** Not YAML; `detail` is the parser's first line (it appends a code excerpt). */
  | { ok: false; problem: "invalid-yaml"; detail: string }
  /** YAML, but a list or a single value instead of `key: value` lines. */
  | { ok: false; problem: "not-a-map" };

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

/** Splits `text` into its frontmatter (empty: no keys) and its body (without the line break after the closing line). */
export function parseFrontmatter(text: string): Frontmatter {
  const opening = OPENING.exec(text);
  if (!opening) return { ok: false, problem: "missing" };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { ok: false, problem: "unclosed" };
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, "");
  let data: unknown;
  try {
    data = parse(rest.slice(0, closing.index));
  } catch (error) {
    const first = errorMessage(error).split("\n", 1)[0] ?? "";
    return { ok: false, problem: "invalid-yaml", detail: first.trim() };
  }
  if (data === null || data === undefined) return { ok: true, data: {}, body };
  if (typeof data !== "object" || Array.isArray(data)) return { ok: false, problem: "not-a-map" };
  return { ok: true, data: data as Record<string, unknown>, body };
}
