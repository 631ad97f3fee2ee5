export { createSkillLibrary, hasSkills, NO_SKILLS, skillCatalogue, type SkillCatalogue, type SkillLibrary } from "./catalogue.js";
export { discoverSkills, skillRoots, SKILL_FILE, type Skill, type SkillDiscovery, type SkillRoot, type SkillScope } from "./discover.js";
export { parseSkillMarkdown, MAX_DESCRIPTION_CHARS } from "./frontmatter.js";
export { listSkillFiles, openSkillFile } from "./skill-file.js";
export { isSkillPath, parseSkillPath, skillPathOf, SKILL_SCHEME } from "./skill-path.js";
