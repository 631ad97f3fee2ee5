import { discoverSkills } from "./discover.js";
import type { Skill, SkillCatalogue, SkillLibrary } from "./types.js";

export type { SkillCatalogue, SkillLibrary } from "./types.js";

export function skillCatalogue(skills: readonly Skill[]): SkillCatalogue {
  const byName = new Map(skills.map((s) => [s.name, s]));
  return { skills, find: (name) => byName.get(name) };
}

export const NO_SKILLS: SkillCatalogue = skillCatalogue([]);

/** A library that discovers each workspace's skills once; `onNotice` hears about every skill that could not load. */
export function createSkillLibrary(env: NodeJS.ProcessEnv, onNotice: (message: string) => void): SkillLibrary {
  const found = new Map<string, SkillCatalogue>();
  return {
    catalogue(workspace) {
      let catalogue = found.get(workspace);
      if (!catalogue) {
        const discovery = discoverSkills(workspace, env);
        for (const notice of discovery.notices) onNotice(notice);
        catalogue = skillCatalogue(discovery.skills);
        found.set(workspace, catalogue);
      }
      return catalogue;
    },
  };
}

/** Whether `workspace` has at least one skill (load_skill is offered only then). */
export function hasSkills(library: SkillLibrary | undefined, workspace: string): boolean {
  return library !== undefined && library.catalogue(workspace).skills.length > 0;
}
