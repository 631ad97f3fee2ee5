import { parse } from "yaml";

/** Longest description a skill may have (the same limit as Claude Code's skills): the list goes into every brief. */
export const MAX_DESCRIPTION_CHARS = 1_024;
/** Names become `skill://<name>/...` paths and tool arguments: lowercase letters, digits and hyphens. */
export const MAX_NAME_CHARS = 64;
const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export type Frontmatter =
  | { ok: true; name: string; description: string; body: string }
  | { ok: false; problem: string }
  /** The closing `---` is not in the text given: more of the file is needed (or it is not closed at all). */
  | { ok: false; problem: string; unclosed: true };

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

/**
 * Splits a SKILL.md into its YAML frontmatter (checked: `name` and `description`) and its body. `problem` is a
 * short phrase for a notice that names the file.
 */
export function parseSkillMarkdown(text: string): Frontmatter {
  const opening = OPENING.exec(text);
  if (!opening) return { ok: false, problem: "has no frontmatter (it must start with a line `---`, then `name:` and `description:`, then `---`)" };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { ok: false, problem: "has no closing `---` line after its frontmatter", unclosed: true };
  let data: unknown;
  try {
    data = parse(rest.slice(0, closing.index));
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split("\n", 1)[0] ?? "";
    return { ok: false, problem: `has invalid YAML frontmatter (${first})` };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return { ok: false, problem: "has frontmatter that is not a set of `key: value` lines" };
  }
  const record = data as Record<string, unknown>;
  const name = typeof record.name === "string" ? record.name.trim() : "";
  const description = typeof record.description === "string" ? record.description.trim() : "";
  if (name === "") return { ok: false, problem: "has no `name` in its frontmatter" };
  if (name.length > MAX_NAME_CHARS || !NAME_PATTERN.test(name)) {
    return {
      ok: false,
      problem: `has an invalid name "${name.slice(0, 80)}" (use lowercase letters, digits and hyphens, at most ${MAX_NAME_CHARS} characters)`,
    };
  }
  if (description === "") return { ok: false, problem: "has no `description` in its frontmatter" };
  if (description.length > MAX_DESCRIPTION_CHARS) {
    return { ok: false, problem: `has a description of ${description.length} characters (at most ${MAX_DESCRIPTION_CHARS})` };
  }
  const afterClosing = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, "");
  return { ok: true, name, description, body: afterClosing.trim() };
}
