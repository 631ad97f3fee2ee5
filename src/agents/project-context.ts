import fs from "node:fs/promises";
import path from "node:path";
import { ALWAYS_SKIPPED_NAMES, GitignoreFilter } from "../runtime/gitignore-filter.js";
import { readTextFile } from "../tools/text-file.js";
import { isUsableRealPath, resolveWorkspacePath } from "../tools/workspace-path.js";

/**
 * What every sub-agent should know about the project without spending tool calls: a small outline of the
 * workspace (two levels, .gitignore respected) and the project's own rules for agents, when it has them. It goes
 * into the brief once, capped, so it costs the same on the first call and the fortieth.
 */
const RULE_FILES = ["AGENTS.md", "CLAUDE.md", ".cursorrules", ".github/copilot-instructions.md"];
const MAX_ENTRIES = 60;
const MAX_RULES_CHARS = 2_000;

export async function projectContext(workspace: string): Promise<string> {
  const [outline, rules] = await Promise.all([workspaceOutline(workspace), projectRules(workspace)]);
  const parts = [`Workspace outline (top two levels):\n${outline}`];
  if (rules) parts.push(`Project rules from ${rules.file} (follow them):\n${rules.text}`);
  return parts.join("\n\n");
}

async function entries(dir: string): Promise<{ name: string; isDir: boolean }[]> {
  try {
    const list = await fs.readdir(dir, { withFileTypes: true });
    return list
      .filter((d) => !ALWAYS_SKIPPED_NAMES.has(d.name))
      .map((d) => ({ name: d.name, isDir: d.isDirectory() }))
      .sort((a, b) => Number(b.isDir) - Number(a.isDir) || a.name.localeCompare(b.name));
  } catch {
    return [];
  }
}

export async function workspaceOutline(workspace: string): Promise<string> {
  const filter = new GitignoreFilter(workspace);
  await filter.loadFolder("");
  const lines: string[] = [];
  let omitted = 0;
  for (const top of await entries(workspace)) {
    if (filter.isIgnored(top.name, top.isDir)) continue;
    if (lines.length >= MAX_ENTRIES) {
      omitted += 1;
      continue;
    }
    lines.push(top.isDir ? `${top.name}/` : top.name);
    if (!top.isDir) continue;
    await filter.loadFolder(top.name);
    const children = (await entries(path.join(workspace, top.name))).filter((c) => !filter.isIgnored(`${top.name}/${c.name}`, c.isDir));
    for (const child of children) {
      if (lines.length >= MAX_ENTRIES) {
        omitted += 1;
        continue;
      }
      lines.push(`  ${child.name}${child.isDir ? "/" : ""}`);
    }
  }
  if (lines.length === 0) return "(empty)";
  if (omitted > 0) lines.push(`… ${omitted} more entries (use list_directory)`);
  return lines.join("\n");
}

/**
 * The first rule file with text. Read by mini-cursor itself, outside the sandbox, as read_file reads: a rule file that
 * is a symlink (committed, or planted by a command) must stay in the workspace and lead to no credential file and
 * not into mini-cursor's state, or it is passed over.
 */
async function projectRules(workspace: string): Promise<{ file: string; text: string } | null> {
  let root: string;
  try {
    root = await fs.realpath(workspace);
  } catch {
    return null;
  }
  for (const file of RULE_FILES) {
    const resolved = await resolveWorkspacePath(root, file);
    if (!resolved.ok) continue;
    const read = await readTextFile(resolved.abs, (real) => isUsableRealPath(root, real));
    const text = read.ok ? read.text.trim() : "";
    if (!text) continue;
    return { file, text: text.length > MAX_RULES_CHARS ? `${text.slice(0, MAX_RULES_CHARS)}\n… (truncated; read ${file} for the rest)` : text };
  }
  return null;
}
