import { parse, YAMLParseError } from "yaml";

/** A Markdown file split into its YAML frontmatter (parsed) and its body. */
export interface Frontmatter {
  data: Record<string, unknown>;
  body: string;
}

/** Thrown with a message short enough for one line, naming what is wrong (the caller names the file). */
export class AgentFileError extends Error {}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/**
 * `---` on the first line, YAML, `---` on a line of its own, then the body. Parsed with the `yaml` package; what it
 * says about a syntax error is reduced to its first line (it appends a code excerpt).
 */
export function parseFrontmatter(text: string): Frontmatter {
  const opening = OPENING.exec(text);
  if (!opening) throw new AgentFileError("it does not start with a --- frontmatter block (name, description, tools)");
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) throw new AgentFileError("its frontmatter has no closing --- line");
  const yamlText = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, "");
  let data: unknown;
  try {
    data = parse(yamlText);
  } catch (error) {
    const said = error instanceof YAMLParseError ? (error.message.split("\n")[0] ?? "") : "unreadable";
    throw new AgentFileError(`its frontmatter is not valid YAML (${said.trim()})`);
  }
  if (data === null || data === undefined) return { data: {}, body };
  if (typeof data !== "object" || Array.isArray(data)) throw new AgentFileError("its frontmatter is not a set of key: value pairs");
  return { data: data as Record<string, unknown>, body };
}
