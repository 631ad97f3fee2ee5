import { parseFrontmatter } from "../../platform/frontmatter.js";

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

const PROBLEMS = {
  missing: "has no frontmatter (it must start with a line `---`, then `name:` and `description:`, then `---`)",
  unclosed: "has no closing `---` line after its frontmatter",
  "not-a-map": "has frontmatter that is not a set of `key: value` lines",
} as const;

/**
 * Splits a SKILL.md into its YAML frontmatter (src/platform/frontmatter.ts; checked here: `name` and
 * `description`) and its body. `problem` is a short phrase for a notice that names the file.
 */
export function parseSkillMarkdown(text: string): Frontmatter {
  const split = parseFrontmatter(text);
  if (!split.ok) {
    if (split.problem === "invalid-yaml") return { ok: false, problem: `has invalid YAML frontmatter (${split.detail})` };
    return split.problem === "unclosed" ? { ok: false, problem: PROBLEMS.unclosed, unclosed: true } : { ok: false, problem: PROBLEMS[split.problem] };
  }
  const record = split.data;
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
  return { ok: true, name, description, body: split.body.trim() };
}
