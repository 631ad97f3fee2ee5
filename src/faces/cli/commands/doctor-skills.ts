import { discoverSkills, type SkillScope } from "../../../services/skills/discover.js";

/** The skills a session in this workspace would list, and the SKILL.md files it would skip (never a failure). */
export interface SkillsReport {
  found: { name: string; scope: SkillScope; at: string }[];
  problems: string[];
}

export function checkSkills(workspace: string, env: NodeJS.ProcessEnv): SkillsReport {
  const { skills, notices } = discoverSkills(workspace, env);
  return { found: skills.map((s) => ({ name: s.name, scope: s.scope, at: s.shownAs })), problems: notices };
}

export function renderSkills(r: SkillsReport): string {
  const found = r.found.length === 0 ? "none found" : `${r.found.length}: ${r.found.map((s) => `${s.name} (${s.at})`).join(", ")}`;
  const head = `${r.problems.length > 0 ? "warn" : r.found.length > 0 ? "ok  " : "info"}  ${found}`;
  return [head, ...r.problems.map((p) => `            ${p}`)].join("\n");
}
