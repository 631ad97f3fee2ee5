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

/**
 * Workspace files that later sessions read as settings: MCP servers declared there start as programs outside the
 * sandbox, `commands.allow` there widens what runs unasked, agent and skill files become prompts and tool grants.
 * Relative to the workspace root; folders cover everything below them.
 */
export const PROJECT_CONFIG_PATHS: readonly string[] = [".mcp.json", "mini-cursor.json", ".claude/agents", ".claude/skills"];

/** Whether a workspace-relative path is one of PROJECT_CONFIG_PATHS or inside one of its folders. */
export function isProjectConfig(rel: string): boolean {
  const p = parts(rel).join("/");
  return PROJECT_CONFIG_PATHS.some((config) => p === config || p.startsWith(`${config}/`));
}

/**
 * Other developer tools' configuration that runs commands on the person's machine, outside our sandbox: Claude Code's
 * settings (its hooks), VS Code's tasks, launch and settings files, dev containers, direnv's `.envrc`, CI workflows,
 * git hook managers (husky, pre-commit) and git attributes (which pick the filters git runs). Relative to the
 * workspace root; folders cover everything below them.
 */
export const TOOL_CONFIG_PATHS: readonly string[] = [
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".vscode/settings.json",
  ".vscode/tasks.json",
  ".vscode/launch.json",
  ".devcontainer",
  ".envrc",
  ".github/workflows",
  ".husky",
  ".pre-commit-config.yaml",
  ".gitattributes",
];
/** Read in every folder, not just at the root: direnv loads a folder's `.envrc`, git every `.gitattributes`. */
const TOOL_CONFIG_NAMES: ReadonlySet<string> = new Set([".envrc", ".gitattributes"]);

/** Whether a workspace-relative path is another tool's configuration (TOOL_CONFIG_PATHS) or inside one of its folders. */
export function isToolConfig(rel: string): boolean {
  const segments = parts(rel);
  const p = segments.join("/");
  return TOOL_CONFIG_NAMES.has(segments.at(-1) ?? "") || TOOL_CONFIG_PATHS.some((config) => p === config || p.startsWith(`${config}/`));
}

/**
 * Why a write to this path needs a person even under `--approval auto`, or undefined when it does not: what is
 * written there takes effect later, outside the sandbox.
 */
export function runsLaterReason(rel: string): string | undefined {
  if (isGitInternal(rel)) return "git runs hooks and reads config from .git outside the sandbox";
  if (isProjectConfig(rel)) return "later sessions read this file as settings (MCP servers there run outside the sandbox)";
  if (isToolConfig(rel)) return "another developer tool runs what this file says (hooks, tasks, workflows) outside the sandbox";
  return undefined;
}

/**
 * What a file write was approved for, bound to its tool call (src/agents/middleware/approval.ts): `landing` is the
 * one place a person (or their "always" answer) approved; without it the write was approved by rule or mode, which
 * never covers a place where a write runs later outside the sandbox.
 */
export interface WriteGrant {
  landing?: string;
}

function normalRel(rel: string): string {
  return parts(rel).join("/");
}

/**
 * Why a write that lands at `landing` (workspace-relative, the real place the tool opened) is not covered by its
 * grant, or undefined when it is. Checked by the file tools on what they actually opened, at the moment they write.
 */
export function writeGrantRefusal(grant: WriteGrant | undefined, landing: string, asked: string): string | undefined {
  const where = normalRel(landing) || ".";
  if (grant?.landing !== undefined) {
    if (normalRel(grant.landing) === normalRel(landing)) return undefined;
    return `the path changed while waiting for approval: "${asked}" now lands at "${where}", not at "${normalRel(grant.landing) || "."}" as approved; nothing was written. Call the tool again to be asked about the new place.`;
  }
  const reason = runsLaterReason(landing);
  if (reason === undefined) return undefined;
  return `the path changed after it was checked: "${asked}" now lands at "${where}", where a write needs a person's approval (${reason}); nothing was written. Call the tool again to ask for it.`;
}
