import type { Skill } from "../tools/index.js";

/** More than this many skills are named without their descriptions: the list goes into every brief. */
const DESCRIBED_SKILLS = 40;

/**
 * The skills an agent may load, for its brief: names and descriptions only (a skill's body costs tokens only once
 * load_skill returns it). Empty when there are none. Custom agents' briefs call this too.
 */
export function renderSkillList(skills: readonly Pick<Skill, "name" | "description">[]): string[] {
  if (skills.length === 0) return [];
  const lines = ["", "Skills (instructions for particular kinds of work; when one fits your step, call load_skill with its name before you start):"];
  for (const s of skills.slice(0, DESCRIBED_SKILLS)) lines.push(`- ${s.name}: ${s.description.replace(/\s+/g, " ")}`);
  const rest = skills.slice(DESCRIBED_SKILLS);
  if (rest.length > 0) lines.push(`- also: ${rest.map((s) => s.name).join(", ")}`);
  return lines;
}
