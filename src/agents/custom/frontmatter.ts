import { parseFrontmatter as splitFrontmatter } from "../../platform/frontmatter.js";

/** A Markdown file split into its YAML frontmatter (parsed) and its body. */
export interface Frontmatter {
  data: Record<string, unknown>;
  body: string;
}

/** Thrown with a message short enough for one line, naming what is wrong (the caller names the file). */
export class AgentFileError extends Error {}

/** An agent file's frontmatter and body (src/platform/frontmatter.ts), or an AgentFileError saying what is wrong. */
export function parseFrontmatter(text: string): Frontmatter {
  const split = splitFrontmatter(text);
  if (split.ok) return { data: split.data, body: split.body };
  switch (split.problem) {
    case "missing":
      throw new AgentFileError("it does not start with a --- frontmatter block (name, description, tools)");
    case "unclosed":
      throw new AgentFileError("its frontmatter has no closing --- line");
    case "invalid-yaml":
      throw new AgentFileError(`its frontmatter is not valid YAML (${split.detail})`);
    case "not-a-map":
      throw new AgentFileError("its frontmatter is not a set of key: value pairs");
  }
}
