import fs from "node:fs/promises";
import path from "node:path";
import { ALWAYS_SKIPPED_NAMES, GitignoreFilter } from "../../../platform/gitignore-filter.js";
import { readTextFile } from "../../../services/workspace-files/text-file.js";
import { isUsableRealPath, resolveWorkspacePath } from "../../../services/workspace-files/workspace-path.js";

/** `@path` at the start of the text or after a space; the path ends at the next space. */
const MENTION = /(^|\s)@([^\s@]+)/g;
/** Folder listings name at most this many entries. */
const MAX_ENTRIES = 200;

export interface Expanded {
  text: string;
  /** What the person should know: a mention that is not a file of the workspace, a file cut to fit. */
  notes: string[];
}

/**
 * A message with its `@path` mentions filled in: each file's content (or a folder's listing) follows the message, read
 * confined to the workspace as read_file reads, git-ignored and mini-cursor's own files left out, all of it within
 * `maxChars` (a share of the context budget: the planner sees a long task within its budget too).
 */
export async function expandMentions(workspace: string, text: string, maxChars: number): Promise<Expanded> {
  const mentioned = [...new Set([...text.matchAll(MENTION)].map((m) => (m[2] ?? "").replace(/[.,;:!?)]+$/, "")))].filter(Boolean);
  if (mentioned.length === 0) return { text, notes: [] };
  const root = await fs.realpath(workspace);
  const filter = new GitignoreFilter(root);
  const notes: string[] = [];
  const parts: string[] = [];
  let left = maxChars;
  for (const mention of mentioned) {
    const resolved = await resolveWorkspacePath(root, mention);
    const rel = resolved.ok && resolved.rel !== "." ? resolved.rel : "";
    const hidden = rel.split("/").some((segment) => ALWAYS_SKIPPED_NAMES.has(segment));
    if (!resolved.ok || hidden || (await ignored(filter, root, rel))) {
      notes.push(`@${mention} is not a file or folder of the workspace: left as written`);
      continue;
    }
    const stat = await fs.stat(resolved.abs).catch(() => null);
    let body: string;
    if (stat?.isDirectory()) body = await listing(filter, root, rel);
    else {
      const read = await readTextFile(resolved.abs, (real) => isUsableRealPath(root, real));
      if (!read.ok) {
        notes.push(`@${mention} could not be read (${read.detail}): left as written`);
        continue;
      }
      body = read.text;
    }
    if (body.length > left) {
      notes.push(`@${mention} is cut to ${Math.max(0, left)} characters to fit the context budget`);
      body = `${body.slice(0, Math.max(0, left))}\n… (cut here; read the file for the rest)`;
    }
    left -= body.length;
    parts.push(`${stat?.isDirectory() ? `Listing of ${rel || "."}/` : `Content of ${rel}`} (mentioned as @${mention}):\n\`\`\`\n${body}\n\`\`\``);
  }
  return { text: parts.length === 0 ? text : `${text}\n\n${parts.join("\n\n")}`, notes };
}

async function ignored(filter: GitignoreFilter, root: string, rel: string): Promise<boolean> {
  if (!rel) return false;
  await filter.loadFolderAndAncestors(path.posix.dirname(rel) === "." ? "" : path.posix.dirname(rel));
  const stat = await fs.stat(path.join(root, rel)).catch(() => null);
  return filter.isIgnored(rel, stat?.isDirectory() ?? false);
}

async function listing(filter: GitignoreFilter, root: string, rel: string): Promise<string> {
  await filter.loadFolderAndAncestors(rel);
  const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true });
  const shown = entries
    .filter((e) => !ALWAYS_SKIPPED_NAMES.has(e.name) && !filter.isIgnored(rel ? `${rel}/${e.name}` : e.name, e.isDirectory()))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
  const more = shown.length > MAX_ENTRIES ? [`… ${shown.length - MAX_ENTRIES} more`] : [];
  return [...shown.slice(0, MAX_ENTRIES), ...more].join("\n") || "(empty)";
}

/**
 * Completions of the `@` word being typed: the workspace's files and folders below the typed folder whose names start
 * with what follows it, git-ignored ones left out, folders first.
 */
export async function completeMention(workspace: string, partial: string, limit = 20): Promise<string[]> {
  const root = await fs.realpath(workspace);
  const slash = partial.lastIndexOf("/");
  const dir = slash >= 0 ? partial.slice(0, slash) : "";
  const prefix = slash >= 0 ? partial.slice(slash + 1) : partial;
  const resolved = await resolveWorkspacePath(root, dir || ".");
  if (!resolved.ok) return [];
  const filter = new GitignoreFilter(root);
  const rel = resolved.rel === "." ? "" : resolved.rel;
  await filter.loadFolderAndAncestors(rel);
  const entries = await fs.readdir(resolved.abs, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.name.startsWith(prefix) && !ALWAYS_SKIPPED_NAMES.has(e.name))
    .filter((e) => !filter.isIgnored(rel ? `${rel}/${e.name}` : e.name, e.isDirectory()))
    .sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((e) => `${dir ? `${dir}/` : ""}${e.name}${e.isDirectory() ? "/" : ""}`);
}
