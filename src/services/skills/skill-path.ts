/**
 * How the model names a skill's files: `skill://<name>/<path inside the skill's folder>`, the form load_skill lists.
 * Only read_file accepts it; the tools that change files refuse it (skills are read-only).
 */
export const SKILL_SCHEME = "skill://";

export function isSkillPath(inputPath: string): boolean {
  return inputPath.trimStart().toLowerCase().startsWith(SKILL_SCHEME);
}

export function skillPathOf(name: string, rel: string): string {
  return `${SKILL_SCHEME}${name}/${rel}`;
}

/** `{ name, rel }` of a skill path (rel may be empty: the folder itself), or null when it is not one. */
export function parseSkillPath(inputPath: string): { name: string; rel: string } | null {
  if (!isSkillPath(inputPath)) return null;
  const rest = inputPath.trimStart().slice(SKILL_SCHEME.length);
  const slash = rest.indexOf("/");
  return slash === -1 ? { name: rest, rel: "" } : { name: rest.slice(0, slash), rel: rest.slice(slash + 1) };
}
