import { closeSync, fstatSync, readdirSync, readSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { envValue, userConfigPath } from "../../platform/config/index.js";
import { STATE_DIR_NAME } from "../../core/index.js";
import { CAN_VERIFY_OPENED, openedPathSync, openForReadingSync } from "../workspace-files/confined-fs.js";
import { errorCode, errorMessage } from "../../platform/error-info.js";
import { isInside } from "../../platform/path-inside.js";
import { toDisplayPath } from "../workspace-files/workspace-path.js";
import { parseSkillMarkdown } from "./frontmatter.js";
import type { Skill, SkillScope } from "./types.js";
import { realPath } from "../../platform/real-path.js";

export type { Skill, SkillScope } from "./types.js";

export interface SkillRoot {
  dir: string;
  scope: SkillScope;
}

export interface SkillDiscovery {
  skills: Skill[];
  /** One line per skill that could not be loaded, naming its file. */
  notices: string[];
}

export const SKILL_FILE = "SKILL.md";
/** Discovery reads at most this much of each SKILL.md: the frontmatter, never the body. */
export const FRONTMATTER_READ_BYTES = 16 * 1024;

/** Where skills live, most important first: the workspace's (ours, then Claude Code's), then the user's. */
export function skillRoots(workspace: string, env: NodeJS.ProcessEnv): SkillRoot[] {
  const home = envValue(env, "HOME") ?? os.homedir();
  return [
    { dir: path.join(workspace, STATE_DIR_NAME, "skills"), scope: "workspace" },
    { dir: path.join(workspace, ".claude", "skills"), scope: "workspace" },
    { dir: path.join(path.dirname(userConfigPath(env)), "skills"), scope: "user" },
    { dir: path.join(home, ".claude", "skills"), scope: "user" },
  ];
}

type Head = { ok: true; text: string; complete: boolean } | { ok: false; problem: string };

/** The start of `<dir>/SKILL.md`, opened without following a symlink and checked to be inside `dir`. */
function readHead(dir: string): Head {
  let fd: number;
  try {
    fd = openForReadingSync(path.join(dir, SKILL_FILE));
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT") return { ok: false, problem: `has no ${SKILL_FILE}` };
    if (code === "ELOOP") return { ok: false, problem: `has a ${SKILL_FILE} that is a symlink (skill files must be real files in the skill's folder)` };
    return { ok: false, problem: `has a ${SKILL_FILE} that cannot be read (${code ?? errorMessage(error)})` };
  }
  try {
    if (CAN_VERIFY_OPENED && path.dirname(openedPathSync(fd)) !== dir) return { ok: false, problem: "changed while it was being read" };
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, problem: `has a ${SKILL_FILE} that is not a regular file` };
    const buffer = Buffer.alloc(Math.min(FRONTMATTER_READ_BYTES, stat.size));
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return { ok: true, text: buffer.subarray(0, read).toString("utf8"), complete: stat.size <= FRONTMATTER_READ_BYTES };
  } catch (error) {
    return { ok: false, problem: `has a ${SKILL_FILE} that cannot be read (${errorCode(error) ?? errorMessage(error)})` };
  } finally {
    closeSync(fd);
  }
}

/**
 * Finds every skill: each root's folders are listed and each folder's SKILL.md frontmatter is read, nothing more
 * (no recursion, no bodies), so it is fast enough to run at every session start. A bad skill is a notice naming its
 * file; the others still load. Synchronous: it runs once per workspace, before the first tool call needs it.
 */
export function discoverSkills(workspace: string, env: NodeJS.ProcessEnv): SkillDiscovery {
  const realWorkspace = realPath(workspace) ?? workspace;
  const shown = (abs: string): string => (isInside(realWorkspace, abs) ? toDisplayPath(realWorkspace, abs) : abs);
  const skills: Skill[] = [];
  const notices: string[] = [];
  const seenRoots = new Set<string>();
  const byName = new Map<string, { skill: Skill; root: string }>();
  for (const root of skillRoots(realWorkspace, env)) {
    const realRoot = realPath(root.dir);
    // No such folder is the normal case; the same folder twice (a workspace that is the home folder) is read once.
    if (realRoot === undefined || seenRoots.has(realRoot)) continue;
    seenRoots.add(realRoot);
    let names: string[];
    try {
      names = readdirSync(realRoot)
        .filter((n) => !n.startsWith("."))
        .sort();
    } catch (error) {
      if (errorCode(error) !== "ENOTDIR")
        notices.push(`Skills in ${shown(realRoot)} cannot be listed (${errorCode(error) ?? errorMessage(error)}); they are skipped.`);
      continue;
    }
    for (const name of names) {
      const entry = path.join(realRoot, name);
      const dir = realPath(entry);
      // Loose files beside the skill folders (a README) are not skills.
      if (dir === undefined || !isDirectory(dir)) continue;
      const file = `${shown(entry)}/${SKILL_FILE}`;
      if (root.scope === "workspace" && !isInside(realWorkspace, dir)) {
        notices.push(`Skill skipped: ${shown(entry)} leads outside the workspace (to ${dir}); a workspace skill must live in it.`);
        continue;
      }
      const head = readHead(dir);
      if (!head.ok) {
        notices.push(`Skill skipped: ${shown(entry)} ${head.problem}.`);
        continue;
      }
      const parsed = parseSkillMarkdown(head.text);
      if (!parsed.ok) {
        const tooLong = "unclosed" in parsed && !head.complete;
        notices.push(`Skill skipped: ${file} ${tooLong ? `has no closing \`---\` line in its first ${FRONTMATTER_READ_BYTES} bytes` : parsed.problem}.`);
        continue;
      }
      const skill: Skill = { name: parsed.name, description: parsed.description, dir, scope: root.scope, shownAs: shown(entry) };
      const earlier = byName.get(skill.name);
      if (earlier) {
        // Across places the more important one wins quietly (that is the point of the order); twice in one place is a mistake.
        if (earlier.root === realRoot) notices.push(`Skill skipped: ${file} is named "${skill.name}" like ${earlier.skill.shownAs}, which is used.`);
        continue;
      }
      byName.set(skill.name, { skill, root: realRoot });
      skills.push(skill);
    }
  }
  return { skills, notices };
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
