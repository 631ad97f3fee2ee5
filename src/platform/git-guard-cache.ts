import { promises as fs } from "node:fs";
import path from "node:path";

/**
 * The config files a repository's filter guard is read from (src/platform/git.ts), found as git finds them from a
 * folder: the nearest `.git` above it, a folder, or a file naming the worktree's git folder (whose `commondir` names
 * the shared one). Null when there is none to find.
 */
async function configFiles(cwd: string): Promise<string[] | null> {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, ".git");
    const stat = await fs.stat(dotGit).catch(() => undefined);
    if (stat?.isDirectory()) return [path.join(dotGit, "config"), path.join(dotGit, "config.worktree")];
    if (stat?.isFile()) {
      const pointer = /^gitdir: (.+)$/m.exec(await fs.readFile(dotGit, "utf8"))?.[1]?.trim();
      if (!pointer) return null;
      const gitDir = path.resolve(dir, pointer);
      const common = await fs.readFile(path.join(gitDir, "commondir"), "utf8").then(
        (text) => path.resolve(gitDir, text.trim()),
        () => gitDir,
      );
      return [path.join(common, "config"), path.join(gitDir, "config.worktree")];
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * What the config files are now: inode, size and change time to the nanosecond (a file written or replaced gets a
 * new change time or inode, and a process cannot set it back), or "absent". Null when the repository cannot be found.
 */
export async function configStamp(cwd: string): Promise<string | null> {
  const files = await configFiles(cwd);
  if (!files) return null;
  const parts = await Promise.all(
    files.map((file) =>
      fs.stat(file, { bigint: true }).then(
        (s) => `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`,
        () => "absent",
      ),
    ),
  );
  return `${files.join("|")}#${parts.join("|")}`;
}
