import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commitWorktree, stepMessage } from "../../../src/sessions/worktree/commit.js";
import { WorktreeCommitter } from "../../../src/sessions/worktree/committer.js";
import { addWorktree, inspectRepository, WorktreeUnavailableError } from "../../../src/sessions/worktree/repository.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";

const ws = useTempWorkspace();
/** No person's git identity anywhere: the commits fall back to mini-cursor's. */
const env = { PATH: process.env.PATH ?? "", HOME: os.tmpdir(), GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: "1" };

function git(cwd: string, args: string[]): string {
  const r = spawnSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", ...args], { cwd, encoding: "utf8", env });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

function write(root: string, files: Record<string, string>): void {
  for (const [p, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), content);
  }
}

async function worktree(id = "20261202-010000-abcd") {
  write(ws.root, { "README.md": "# r\n", "sub/a.txt": "a\n" });
  git(ws.root, ["init", "-q", "-b", "main"]);
  git(ws.root, ["add", "-A"]);
  git(ws.root, ["commit", "-q", "-m", "initial"]);
  const repo = await inspectRepository(ws.root, env);
  return addWorktree(ws.root, id, repo, env);
}

describe("worktree commits", () => {
  it("commits the step's files but never credential files nor mini-cursor's runtime folders", async () => {
    const wt = await worktree();
    write(wt.folder, {
      "src/x.js": "x\n",
      ".env": "TOKEN=1\n",
      "certs/site.pem": "P\n",
      ".env.example": "TOKEN=\n",
      "deploy/id_rsa": "KEY\n",
      ".mini-cursor/notes": "n\n",
      "sub/.mini-cursor/y": "y\n",
    });
    // A project .gitignore that lets runtime folders through does not get them committed either.
    write(wt.folder, { ".gitignore": "!.mini-cursor/\n" });
    const commit = await commitWorktree(wt.folder, stepMessage("Add x", "mini-cursor session s, step s1 (coder)"), env);
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(wt.folder, ["show", "--name-only", "--format=", "HEAD"]).trim().split("\n").sort()).toEqual([".env.example", ".gitignore", "src/x.js"]);
    expect(git(wt.folder, ["log", "-1", "--format=%an <%ae>|%cn <%ce>"]).trim()).toBe(
      "mini-cursor <mini-cursor@localhost>|mini-cursor <mini-cursor@localhost>",
    );
    // The credential files stay in the folder, out of the index.
    expect(fs.readFileSync(path.join(wt.folder, ".env"), "utf8")).toBe("TOKEN=1\n");
    expect(git(wt.folder, ["ls-files", ".env", "deploy/id_rsa", "certs/site.pem"])).toBe("");
    // Nothing left to commit: no empty commit.
    write(wt.folder, { ".env": "TOKEN=2\n" });
    expect(await commitWorktree(wt.folder, "again", env)).toBeNull();
  });

  it("leaves a repository made inside the worktree out of the commit (git status would run git inside it), in the folder", async () => {
    const wt = await worktree();
    write(wt.folder, { "nested/f.txt": "f\n", "c.txt": "c\n" });
    git(path.join(wt.folder, "nested"), ["init", "-q"]);
    git(path.join(wt.folder, "nested"), ["add", "-A"]);
    git(path.join(wt.folder, "nested"), ["commit", "-q", "-m", "n"]);
    expect(await commitWorktree(wt.folder, "c", env)).toMatch(/^[0-9a-f]{40}$/);
    expect(git(wt.folder, ["show", "--name-only", "--format=", "HEAD"]).trim().split("\n")).toEqual(["c.txt"]);
    expect(git(wt.folder, ["ls-files", "--stage", "nested"])).toBe("");
    expect(fs.existsSync(path.join(wt.folder, "nested", ".git"))).toBe(true);
    // Only the nested repository changed: nothing to commit.
    expect(await commitWorktree(wt.folder, "again", env)).toBeNull();
  });

  it("takes the author from MINI_CURSOR_GIT_NAME/EMAIL and keeps the person's identity as committer when there is one", async () => {
    const wt = await worktree();
    git(wt.folder, ["config", "user.name", "Ada"]);
    git(wt.folder, ["config", "user.email", "ada@example.com"]);
    write(wt.folder, { "b.txt": "b\n" });
    await commitWorktree(wt.folder, "b", { ...env, MINI_CURSOR_GIT_NAME: "bot", MINI_CURSOR_GIT_EMAIL: "bot@example.com" });
    expect(git(wt.folder, ["log", "-1", "--format=%an <%ae>|%cn <%ce>"]).trim()).toBe("bot <bot@example.com>|Ada <ada@example.com>");
  });

  it("a step message keeps the subject to one line of 72 characters, the whole goal below", () => {
    const long = "x".repeat(100);
    const message = stepMessage(`${long}\nmore`, "detail");
    const [subject] = message.split("\n");
    expect(subject).toHaveLength(72);
    expect(message).toContain(`${long}\nmore`);
    expect(stepMessage("Short  goal", "d")).toBe("Short goal\n\nd\n");
  });

  it("a failing commit is one notice and commits stop for the run; the session goes on", async () => {
    const wt = await worktree();
    const problems: string[] = [];
    const committer = new WorktreeCommitter(wt.folder, "s", env, (m) => problems.push(m));
    write(wt.folder, { "c.txt": "c\n" });
    await committer.after({ id: "s1", agent: "coder", goal: "Add c" });
    expect(committer.made).toBe(1);
    fs.rmSync(wt.folder, { recursive: true, force: true });
    await committer.after({ id: "s2", agent: "coder", goal: "Add d" });
    await committer.after({ id: "s3", agent: "coder", goal: "Add e" });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^Committing on the worktree's branch is off for this run: /);
    expect(committer.made).toBe(1);
  });

  it("refuses a folder outside git and a repository without a commit, with one line", async () => {
    await expect(inspectRepository(ws.root, env)).rejects.toThrow(WorktreeUnavailableError);
    git(ws.root, ["init", "-q"]);
    await expect(inspectRepository(ws.root, env)).rejects.toThrow(/has no commit yet; commit first/);
  });

  it("a workspace in a subfolder of the repository is the same subfolder of the worktree", async () => {
    write(ws.root, { "pkg/app/a.txt": "a\n" });
    git(ws.root, ["init", "-q", "-b", "main"]);
    git(ws.root, ["add", "-A"]);
    git(ws.root, ["commit", "-q", "-m", "initial"]);
    const workspace = path.join(ws.root, "pkg/app");
    const wt = await addWorktree(workspace, "20261202-010000-beef", await inspectRepository(workspace, env), env);
    expect(wt.folder).toBe(path.join(workspace, ".mini-cursor/worktrees/20261202-010000-beef"));
    expect(wt.workspace).toBe(path.join(wt.folder, "pkg/app"));
    expect(fs.readFileSync(path.join(wt.workspace, "a.txt"), "utf8")).toBe("a\n");
    expect(git(ws.root, ["status", "--porcelain", "--untracked-files=all"])).toBe("");
  });
});
