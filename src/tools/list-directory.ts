import { constants, promises as fs, type Dirent } from "node:fs";
import path from "node:path";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { ALWAYS_SKIPPED_NAMES, GitignoreFilter } from "../platform/gitignore-filter.js";
import { openDir, type ConfinedDir } from "../services/workspace-files/confined-fs.js";
import { failure, success, type ToolResult } from "./tool-result.js";
import { errorCode } from "../platform/error-info.js";
import type { ToolNeeds } from "./types.js";
import { isUsableRealPath, resolveWorkspacePath } from "../services/workspace-files/workspace-path.js";
import { scopeOf } from "./tool-scope.js";

export const DEFAULT_LIST_DEPTH = 2;
export const MAX_LIST_DEPTH = 6;
export const MAX_LIST_ENTRIES = 500;

const schema = z.object({
  path: z.string().default(".").describe('Folder to list, relative to the workspace root. Defaults to "." (the root).'),
  depth: z
    .number()
    .int()
    .min(1)
    .default(DEFAULT_LIST_DEPTH)
    .describe(`How many folder levels to show (1 = only direct children). Default ${DEFAULT_LIST_DEPTH}, max ${MAX_LIST_DEPTH}.`),
});

interface Entry {
  name: string;
  rel: string;
  kind: "dir" | "file" | "symlink" | "other";
  size?: number;
  linkTarget?: string;
  children?: Entry[];
  /** Children left out because the entry cap was hit. */
  omitted?: number;
  state?: "not_expanded" | "not_listed";
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

async function describe(dir: ConfinedDir, dirent: Dirent, rel: string): Promise<Entry> {
  const entryPath = dir.entry(dirent.name);
  if (dirent.isDirectory()) return { name: dirent.name, rel, kind: "dir" };
  if (dirent.isSymbolicLink()) {
    // Links are shown, never followed: following could leave the workspace or loop.
    const linkTarget = await fs.readlink(entryPath).catch(() => "?");
    return { name: dirent.name, rel, kind: "symlink", linkTarget };
  }
  if (dirent.isFile()) {
    const size = await fs.lstat(entryPath).then(
      (s) => s.size,
      () => undefined,
    );
    return { name: dirent.name, rel, kind: "file", size };
  }
  return { name: dirent.name, rel, kind: "other" };
}

/**
 * Opens the folder to list and checks what was opened: the path may have changed since it was resolved.
 * Returns the open folder or the failure for the model.
 */
async function openListedFolder(root: string, abs: string, rel: string): Promise<ConfinedDir | ToolResult> {
  let dir: ConfinedDir;
  try {
    dir = await openDir(abs);
  } catch (error) {
    const code = errorCode(error);
    if (
      code === "ENOTDIR" &&
      (await fs.lstat(abs).then(
        (s) => s.isFile(),
        () => false,
      ))
    ) {
      return failure(`"${rel}" is a file, not a directory; call read_file with path "${rel}" to read it.`);
    }
    if (code === "ENOENT" || code === "ENOTDIR") {
      return failure(`folder "${rel}" does not exist. Call list_directory with path "." to see the workspace layout.`);
    }
    return failure(`cannot read folder "${rel}" (${code ?? String(error)}); try another folder.`);
  }
  if (!isUsableRealPath(root, dir.abs)) {
    await dir.close();
    return failure(
      `folder "${rel}" changed while it was being opened (a folder on its path was replaced, e.g. by a symlink); nothing was listed. Call list_directory again once the path is stable.`,
    );
  }
  return dir;
}

/** Opens a sub-folder met while listing, only if it still is that very folder (not a symlink swapped in). */
async function openSubFolder(abs: string): Promise<ConfinedDir | undefined> {
  const dir = await openDir(abs, constants.O_NOFOLLOW).catch(() => undefined);
  if (dir && dir.abs !== abs) {
    await dir.close();
    return undefined;
  }
  return dir;
}

function render(entries: readonly Entry[], indent: string, out: string[]): void {
  for (const entry of entries) {
    if (entry.kind === "dir") {
      const state = entry.state === "not_expanded" ? " [not expanded]" : entry.state === "not_listed" ? " [not listed: entry limit]" : "";
      out.push(`${indent}${entry.name}/${state}`);
      if (entry.children) render(entry.children, `${indent}  `, out);
      if (entry.omitted) out.push(`${indent}  … ${entry.omitted} more entries not shown`);
    } else if (entry.kind === "symlink") {
      out.push(`${indent}${entry.name} -> ${entry.linkTarget ?? "?"} (symlink)`);
    } else if (entry.kind === "file") {
      out.push(`${indent}${entry.name}${entry.size === undefined ? "" : ` (${formatSize(entry.size)})`}`);
    } else {
      out.push(`${indent}${entry.name} (special file)`);
    }
  }
}

export function createListDirectoryTool(base: ToolNeeds<never>) {
  return tool(
    async ({ path: inputPath, depth: askedDepth }, config): Promise<ToolResult> => {
      const deps = scopeOf(base, config);
      const resolved = await resolveWorkspacePath(deps.root, inputPath);
      if (!resolved.ok) return failure(resolved.error);
      const { abs, rel } = resolved;
      const opened = await openListedFolder(deps.root, abs, rel);
      if (Array.isArray(opened)) return opened;
      const depth = Math.min(askedDepth, MAX_LIST_DEPTH);
      const baseRel = rel === "." ? "" : rel;
      const filter = new GitignoreFilter(deps.root);
      await filter.loadFolderAndAncestors(baseRel);
      // Asking for an ignored folder by name (e.g. "dist") means wanting to see it, so do not hide its contents.
      const baseIgnored = baseRel !== "" && filter.isIgnored(baseRel, true);

      // Breadth-first so that, when the cap is hit, the upper levels are complete.
      const top: Entry[] = [];
      // Each folder is read through its open descriptor; the first one is already open and checked.
      let first: ConfinedDir | undefined = opened;
      const queue: { abs: string; rel: string; level: number; into: Entry[]; owner?: Entry }[] = [{ abs: opened.abs, rel: baseRel, level: 1, into: top }];
      let count = 0;
      let ignoredCount = 0;
      let capped = false;
      let topOmitted = 0;
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        if (capped) {
          if (item.owner) item.owner.state = "not_listed";
          continue;
        }
        await filter.loadFolder(item.rel);
        const dir = first ?? (await openSubFolder(item.abs));
        first = undefined;
        if (!dir) {
          if (item.owner) item.owner.state = "not_listed";
          continue;
        }
        try {
          let dirents: Dirent[];
          try {
            dirents = await fs.readdir(dir.entry("."), { withFileTypes: true });
          } catch {
            if (item.owner) item.owner.state = "not_listed";
            continue;
          }
          const kept = dirents
            .filter((d) => {
              if (ALWAYS_SKIPPED_NAMES.has(d.name)) return false;
              const childRel = item.rel === "" ? d.name : `${item.rel}/${d.name}`;
              const ignored = !baseIgnored && filter.isIgnored(childRel, d.isDirectory());
              if (ignored) ignoredCount += 1;
              return !ignored;
            })
            // Folders first, then files, each alphabetically: a stable layout the model can scan.
            .sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
          const taken = kept.slice(0, MAX_LIST_ENTRIES - count);
          const omitted = kept.length - taken.length;
          if (omitted > 0) {
            capped = true;
            if (item.owner) item.owner.omitted = omitted;
            else topOmitted = omitted;
          }
          count += taken.length;
          for (const dirent of taken) {
            const childRel = item.rel === "" ? dirent.name : `${item.rel}/${dirent.name}`;
            const entry = await describe(dir, dirent, childRel);
            item.into.push(entry);
            if (entry.kind !== "dir") continue;
            if (item.level >= depth) {
              entry.state = "not_expanded";
              continue;
            }
            entry.children = [];
            queue.push({ abs: path.join(dir.abs, dirent.name), rel: childRel, level: item.level + 1, into: entry.children, owner: entry });
          }
        } finally {
          await dir.close();
        }
      }

      const lines: string[] = [];
      render(top, "", lines);
      if (topOmitted > 0) lines.push(`… ${topOmitted} more entries not shown`);
      const header = `Contents of "${rel}" (depth ${depth}; folders end with "/", files show their size):`;
      if (top.length === 0) {
        return success(`Folder "${rel}" is empty${ignoredCount > 0 ? ` (apart from ${ignoredCount} entries ignored by .gitignore)` : ""}.`);
      }
      const notes: string[] = [];
      if (askedDepth > MAX_LIST_DEPTH) notes.push(`[depth ${askedDepth} was lowered to the maximum, ${MAX_LIST_DEPTH}]`);
      if (capped) {
        notes.push(
          `[stopped after ${MAX_LIST_ENTRIES} entries; call list_directory on a sub-folder or with a smaller depth to see the rest, or use search_code to find specific files]`,
        );
      }
      if (lines.some((line) => line.endsWith("[not expanded]"))) {
        notes.push(`[folders marked [not expanded] are deeper than depth ${depth}; call list_directory on one of them to see inside]`);
      }
      if (baseIgnored) notes.push(`["${rel}" is ignored by .gitignore; its contents are shown because you asked for it]`);
      const skipped = `[not shown: .git, node_modules, .mini-cursor${ignoredCount > 0 ? ` and ${ignoredCount} entries ignored by .gitignore` : ""}]`;
      notes.push(skipped);
      return success([header, ...lines, ...notes].join("\n"));
    },
    {
      name: "list_directory",
      description:
        "List files and folders in the workspace as an indented tree (folders end with '/', files show their size). " +
        "Respects .gitignore and never shows .git, node_modules or .mini-cursor. Symlinks are shown but not followed. " +
        `Use depth (default ${DEFAULT_LIST_DEPTH}, max ${MAX_LIST_DEPTH}) to see deeper; output stops after ${MAX_LIST_ENTRIES} entries.`,
      schema,
      responseFormat: "content_and_artifact",
    },
  );
}
