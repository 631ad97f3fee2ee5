import { promises as fs } from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
// core/workspace.ts, not the core barrel: the barrel brings zod, which a search (gitignore rules) never needs.
import { STATE_DIR_NAME } from "../core/workspace.js";

/** Never listed: version-control internals, dependencies and mini-cursor's own state. */
export const ALWAYS_SKIPPED_NAMES: ReadonlySet<string> = new Set([".git", "node_modules", STATE_DIR_NAME]);

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Git-style ignore rules from the root's and nested `.gitignore` files (plus `.git/info/exclude`), applied
 * with git's precedence: the deepest `.gitignore` with a matching rule decides. Paths are root-relative with
 * forward slashes.
 */
export class GitignoreFilter {
  /** Folder (root-relative, "" for the root) → its rules, or null when it has no .gitignore. */
  private readonly rules = new Map<string, Ignore | null>();

  constructor(private readonly root: string) {}

  /** Loads the rules of `dirRel` and of every folder above it, once each. */
  async loadFolderAndAncestors(dirRel: string): Promise<void> {
    const parts = dirRel === "" || dirRel === "." ? [] : dirRel.split("/");
    for (let i = 0; i <= parts.length; i += 1) await this.loadFolder(parts.slice(0, i).join("/"));
  }

  async loadFolder(dirRel: string): Promise<void> {
    const key = dirRel === "." ? "" : dirRel;
    if (this.rules.has(key)) return;
    const dirAbs = path.join(this.root, key);
    const texts = [await readIfExists(path.join(dirAbs, ".gitignore"))];
    // The repository-wide exclude file belongs with the root's rules, below the root .gitignore in precedence.
    if (key === "") texts.unshift(await readIfExists(path.join(dirAbs, ".git", "info", "exclude")));
    const present = texts.filter((text): text is string => text !== undefined);
    // Joined into one string: `add` splits a string into lines, but treats each array element as one pattern.
    this.rules.set(key, present.length === 0 ? null : ignore({ ignorecase: false }).add(present.join("\n")));
  }

  /** True when git would ignore `rel` (root-relative). Folders must pass `isDir` so `build/` rules match. */
  isIgnored(rel: string, isDir: boolean): boolean {
    const parts = rel.split("/");
    for (let i = parts.length - 1; i >= 0; i -= 1) {
      const folder = parts.slice(0, i).join("/");
      const matcher = this.rules.get(folder);
      if (!matcher) continue;
      const relToFolder = parts.slice(i).join("/") + (isDir ? "/" : "");
      const result = matcher.test(relToFolder);
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }
}
