import { spawnSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { changedSince, gitSnapshot } from "../../../src/memory/retrieval/git-changes.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";

/** What git says changed, for the index's updates, against real repositories. */
let repo: TempWorkspace | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const env = { PATH: process.env.PATH ?? "", HOME: "/nonexistent-home" };
function git(cwd: string, ...args: string[]): string {
  const ran = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", ...args], { cwd, encoding: "utf8" });
  if (ran.status !== 0) throw new Error(`git ${args.join(" ")}: ${ran.stderr}`);
  return ran.stdout;
}

async function committed(files: Record<string, string>): Promise<string> {
  repo = await makeTempWorkspace(files);
  git(repo.root, "init", "-q");
  git(repo.root, "add", "-A");
  git(repo.root, "commit", "-qm", "one");
  return repo.root;
}

describe("what git says changed", () => {
  it("is nothing outside a repository", async () => {
    repo = await makeTempWorkspace({ "a.ts": "a\n" });
    expect(await gitSnapshot(repo.root, env)).toBeNull();
  });

  it("names changed, staged, deleted and untracked files, relative to a workspace inside the repository", async () => {
    const root = await committed({ "app/a.ts": "a\n", "app/b.ts": "b\n", "app/c.ts": "c\n", "other/x.ts": "x\n" });
    const workspace = path.join(root, "app");
    const clean = await gitSnapshot(workspace, env);
    expect(clean).toEqual({ head: git(root, "rev-parse", "HEAD").trim(), dirty: [] });
    await writeFile(path.join(workspace, "a.ts"), "changed\n");
    await rm(path.join(workspace, "b.ts"));
    await mkdir(path.join(workspace, "new"), { recursive: true });
    await writeFile(path.join(workspace, "new/n.ts"), "n\n");
    await writeFile(path.join(root, "other/x.ts"), "outside the workspace\n");
    git(root, "mv", "app/c.ts", "app/d.ts");
    const now = await gitSnapshot(workspace, env);
    expect(now?.dirty.sort()).toEqual(["a.ts", "b.ts", "c.ts", "d.ts", "new/n.ts"]);
  });

  it("since a snapshot: what was dirty then, what is now, and what the commits since changed", async () => {
    const root = await committed({ "a.ts": "a\n", "b.ts": "b\n", "c.ts": "c\n" });
    await writeFile(path.join(root, "a.ts"), "dirty then\n");
    const then = await gitSnapshot(root, env);
    // a.ts is put back, b.ts changed and committed, c.ts changed now.
    git(root, "checkout", "--", "a.ts");
    await writeFile(path.join(root, "b.ts"), "committed\n");
    git(root, "commit", "-qam", "two");
    await writeFile(path.join(root, "c.ts"), "dirty now\n");
    const now = await gitSnapshot(root, env);
    if (!then || !now) throw new Error("no snapshot");
    expect(await changedSince(root, env, then, now)).toEqual(["a.ts", "b.ts", "c.ts"]);
    // A HEAD git no longer knows (history rewritten): nothing can be said.
    expect(await changedSince(root, env, { head: "0".repeat(40), dirty: [] }, now)).toBeNull();
  });
});
