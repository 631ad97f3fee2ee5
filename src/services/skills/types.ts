/** Workspace skills win over the user's on a name clash. */
export type SkillScope = "workspace" | "user";

export interface Skill {
  name: string;
  description: string;
  /** The skill's folder, a real path: its files are read only from inside it. */
  dir: string;
  scope: SkillScope;
  /** Where it was found, for people: workspace-relative, or absolute for the user's skills. */
  shownAs: string;
}

/** The skills one workspace sees (its own and the user's), found once. */
export interface SkillCatalogue {
  readonly skills: readonly Skill[];
  find(name: string): Skill | undefined;
}

/**
 * Skills per workspace: the CLI's session has one workspace, a Studio run names its own. Each workspace's skills
 * are discovered on first use and kept for the process (a session sees the skills it started with).
 */
export interface SkillLibrary {
  catalogue(workspace: string): SkillCatalogue;
}
