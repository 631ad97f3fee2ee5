import fs from "node:fs";
import path from "node:path";
import { UnknownSessionError } from "./errors.js";
import { GitRunner } from "./git-runner.js";
import { readMeta } from "./session-meta.js";
import { assertSessionId, shadowDir, snapshotRef } from "./shadow-repo.js";
import { withStoreLock } from "./store-lock.js";

export interface ExportOptions {
  env?: NodeJS.ProcessEnv;
  gitBinary?: string;
}

/**
 * Writes the workspace as it was when a session started (its undo baseline, `refs/mini-cursor/<session>/before` in
 * the workspace's shadow store) into `dir`, an existing folder: files with their modes and symlinks, and the empty
 * folders the baseline noted. A throwaway index is used, so neither the store's indexes nor `dir` get a .git.
 * What the baseline never held (ignored files, .git, .mini-cursor/, node_modules/) is not there.
 */
export async function exportBaseline(workspace: string, sessionId: string, dir: string, o: ExportOptions = {}): Promise<void> {
  assertSessionId(sessionId);
  const resolved = path.resolve(workspace);
  const root = fs.existsSync(resolved) ? fs.realpathSync(resolved) : resolved;
  const gitDir = shadowDir(root);
  if (!fs.existsSync(path.join(gitDir, "HEAD"))) throw new UnknownSessionError(`no undo baseline for session ${sessionId} in ${root}`);
  const target = fs.realpathSync(dir);
  const git = new GitRunner({ gitDir, workTree: target, env: o.env ?? process.env, binary: o.gitBinary ?? "git" });
  const index = path.join(gitDir, `export-${process.pid}-${Date.now()}.index`);
  await withStoreLock(gitDir, async () => {
    const found = await git.run(["rev-parse", "--verify", "--quiet", `${snapshotRef(sessionId, "before")}^{tree}`], { okCodes: [0, 1] });
    const tree = found.stdout.toString("utf8").trim();
    if (found.code !== 0 || !tree) throw new UnknownSessionError(`no undo baseline for session ${sessionId} in ${root}`);
    try {
      await git.run(["read-tree", tree], { index });
      await git.run(["checkout-index", "--all", "--force"], { index });
    } finally {
      fs.rmSync(index, { force: true });
    }
  });
  for (const folder of readMeta(gitDir, sessionId).emptyDirs) fs.mkdirSync(path.join(target, folder), { recursive: true });
}
