import { promises as fs } from "node:fs";
import path from "node:path";
import { credentialMatcher } from "../../safety/credential-files.js";
import { ALWAYS_SKIPPED_NAMES, GitignoreFilter } from "../../platform/gitignore-filter.js";
import { SKIPPED_FOLDERS, skipByName } from "./skip-rules.js";

export interface WalkOptions {
  /** Credential files (.env, keys) stay out of the index unless the user allows them to the model. */
  allowCredentialFiles: boolean;
  /** The user's home, for the credential catalogue. */
  home?: string;
}

/**
 * The workspace's indexable files, root-relative with forward slashes, sorted: git-ignored files, vendored and
 * build folders, version-control internals, dependencies, mini-cursor's state, credential files and names that are
 * not text are left out. Symlinks are not followed (a link could lead out of the workspace, or loop).
 */
export async function listIndexableFiles(root: string, options: WalkOptions): Promise<string[]> {
  const filter = new GitignoreFilter(root);
  const credentialAt = options.allowCredentialFiles ? undefined : credentialMatcher(options.home);
  const files: string[] = [];
  const walk = async (dirRel: string): Promise<void> => {
    await filter.loadFolder(dirRel);
    let entries;
    try {
      entries = await fs.readdir(path.join(root, dirRel), { withFileTypes: true });
    } catch {
      return; // removed while walking, or unreadable: nothing to index there
    }
    for (const entry of entries) {
      const rel = dirRel === "" ? entry.name : `${dirRel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (ALWAYS_SKIPPED_NAMES.has(entry.name) || SKIPPED_FOLDERS.has(entry.name) || filter.isIgnored(rel, true)) continue;
        await walk(rel);
      } else if (entry.isFile()) {
        if (filter.isIgnored(rel, false) || skipByName(rel)) continue;
        if (credentialAt?.(path.join(root, rel))) continue;
        files.push(rel);
      }
    }
  };
  await walk("");
  return files.sort();
}

/**
 * The same rules as listIndexableFiles for single paths (those git says changed): whether `rel` is a file the walk
 * would list. Each check loads the .gitignore files above it once; a path under a skipped or ignored folder is not.
 */
export function indexablePaths(root: string, options: WalkOptions): (rel: string) => Promise<boolean> {
  const filter = new GitignoreFilter(root);
  // Made for the first path asked about: an update that git says changed nothing asks about none.
  let credentialAt: ReturnType<typeof credentialMatcher> | undefined | null = null;
  return async (rel) => {
    if (credentialAt === null) credentialAt = options.allowCredentialFiles ? undefined : credentialMatcher(options.home);
    const parts = rel.split("/");
    const folders = parts.slice(0, -1);
    await filter.loadFolderAndAncestors(folders.join("/"));
    for (let i = 1; i <= folders.length; i += 1) {
      const name = folders[i - 1] ?? "";
      if (ALWAYS_SKIPPED_NAMES.has(name) || SKIPPED_FOLDERS.has(name) || filter.isIgnored(folders.slice(0, i).join("/"), true)) return false;
    }
    if (filter.isIgnored(rel, false) || skipByName(rel)) return false;
    return !credentialAt?.(path.join(root, rel));
  };
}
