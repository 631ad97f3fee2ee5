/** The agent's own state in a workspace: sessions, checkpoints, the undo store, locks. Never the model's to touch. */
export const STATE_DIR_NAME = ".mini-cursor";

function parts(rel: string): string[] {
  return rel.split(/[\\/]+/).filter((p) => p !== "" && p !== ".");
}

/** Whether a workspace-relative path is the agent's own state folder or inside it. */
export function isAgentState(rel: string): boolean {
  return parts(rel)[0] === STATE_DIR_NAME;
}

/**
 * Whether a workspace-relative path is inside a git repository's internals (`.git/` at any depth): hooks and config
 * there run later, outside the sandbox, whenever someone uses git.
 */
export function isGitInternal(rel: string): boolean {
  return parts(rel).includes(".git");
}
