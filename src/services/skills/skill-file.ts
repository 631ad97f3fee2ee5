import { promises as fs, type Dirent } from "node:fs";
import path from "node:path";
import { isAgentState, STATE_DIR_NAME } from "../../core/index.js";
import { credentialFilesAllowed, credentialLocationOf, credentialRefusal } from "../../safety/credential-files.js";
import { readTextFile, type TextFile } from "../workspace-files/text-file.js";
import { errorCode } from "../../platform/error-info.js";
import { isInside } from "../../platform/path-inside.js";
import { toDisplayPath } from "../workspace-files/workspace-path.js";
import type { SkillLibrary } from "./catalogue.js";
import type { Skill } from "./discover.js";
import { parseSkillPath, skillPathOf } from "./skill-path.js";

/**
 * Whether a real path may be read as one of `skill`'s files: inside its folder, not a credential file and (for a
 * skill folder that somehow leads into it) not the workspace's own state outside `.mini-cursor/skills/`.
 */
function readableInSkill(skill: Skill, workspace: string, real: string): boolean {
  if (!isInside(skill.dir, real)) return false;
  if (!credentialFilesAllowed() && credentialLocationOf(real) !== undefined) return false;
  if (!isInside(workspace, real)) return true;
  const rel = toDisplayPath(workspace, real);
  return !isAgentState(rel) || rel.startsWith(`${STATE_DIR_NAME}/skills/`);
}

function skillNames(library: SkillLibrary | undefined, workspace: string): string {
  const names = library?.catalogue(workspace).skills.map((s) => s.name) ?? [];
  return names.length > 0 ? `Skills here: ${names.join(", ")}.` : "This workspace has no skills.";
}

/**
 * Opens `skill://<name>/<path>` for read_file. The path is resolved to its real location (every symlink followed)
 * and must stay inside the skill's folder; then the file is opened without following a last symlink and what was
 * opened is checked again, so a swap after the check cannot lead out either (src/services/workspace-files/confined-fs.ts).
 */
export async function openSkillFile(
  library: SkillLibrary | undefined,
  workspace: string,
  inputPath: string,
): Promise<{ rel: string; file: TextFile } | { error: string }> {
  const parsed = parseSkillPath(inputPath);
  if (!parsed) return { error: `"${inputPath}" is not a skill path; skill files are named skill://<skill>/<file>.` };
  const skill = library?.catalogue(workspace).find(parsed.name);
  if (!skill) return { error: `there is no skill "${parsed.name}". ${skillNames(library, workspace)}` };
  if (parsed.rel.includes("\0")) return { error: `path "${inputPath}" contains a NUL character; pass a plain file path.` };
  const rel = parsed.rel.replace(/^\/+/, "");
  if (rel.trim() === "") return { error: `name a file of the skill, e.g. ${skillPathOf(skill.name, "SKILL.md")}; load_skill lists its files.` };
  const lexical = path.resolve(skill.dir, rel);
  const outside = `"${inputPath}" leads outside the folder of skill "${skill.name}"; only the files load_skill lists can be read.`;
  if (!isInside(skill.dir, lexical) || lexical === skill.dir) return { error: outside };
  const shown = skillPathOf(skill.name, path.relative(skill.dir, lexical).split(path.sep).join("/"));
  let real: string;
  try {
    real = await fs.realpath(lexical);
  } catch (error) {
    const code = errorCode(error);
    // Also a dangling symlink: nothing is read, wherever it points.
    if (code === "ENOENT" || code === "ENOTDIR") return { rel: shown, file: { ok: false, reason: "missing", detail: "does not exist" } };
    if (code === "ELOOP") return { error: `path "${inputPath}" has too many levels of symbolic links (a loop?).` };
    return { error: `cannot resolve path "${inputPath}" (${code ?? String(error)}).` };
  }
  if (!isInside(skill.dir, real))
    return { error: `"${inputPath}" resolves through a symlink to ${real}, outside the folder of skill "${skill.name}"; it is refused.` };
  const credential = credentialFilesAllowed() ? undefined : credentialLocationOf(real);
  if (credential !== undefined) return { error: credentialRefusal(inputPath, credential) };
  if (!readableInSkill(skill, workspace, real)) return { error: outside };
  return { rel: shown, file: await readTextFile(real, (opened) => readableInSkill(skill, workspace, opened)) };
}

async function staysInside(skill: Skill, rel: string): Promise<boolean> {
  try {
    const real = await fs.realpath(path.join(skill.dir, rel));
    return isInside(skill.dir, real) && (await fs.stat(real)).isFile();
  } catch {
    return false;
  }
}

const SKIPPED_NAMES = new Set([".git", "node_modules"]);
const MAX_LISTED_FILES = 100;
const MAX_LIST_DEPTH = 4;

/**
 * The skill's other files as `skill://` paths (SKILL.md left out), for load_skill: a bounded walk that does not
 * follow symlinked folders. `more` counts what did not fit.
 */
export async function listSkillFiles(skill: Skill): Promise<{ files: string[]; more: number }> {
  const files: string[] = [];
  let more = 0;
  const walk = async (rel: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(path.join(skill.dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (SKIPPED_NAMES.has(entry.name)) continue;
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (depth < MAX_LIST_DEPTH) await walk(child, depth + 1);
        continue;
      }
      if (child === "SKILL.md") continue;
      // A symlink is listed only if read_file would follow it: to a file inside the skill's folder.
      if (entry.isSymbolicLink() && !(await staysInside(skill, child))) continue;
      if (files.length >= MAX_LISTED_FILES) more += 1;
      else files.push(skillPathOf(skill.name, child));
    }
  };
  await walk("", 1);
  return { files, more };
}
