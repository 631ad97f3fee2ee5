import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { addWorktree, inspectRepository, removeWorktree, worktreeChanges, WorktreeUnavailableError } from "../../../src/sessions/worktree/repository.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";

/*
 * A project with a submodule, in a run --worktree worktree: a sandboxed command turns the submodule's empty folder into
 * a repository of its own whose config has a clean filter. mini-cursor's own git (status before sessions delete
 * --worktree, git worktree remove) must not run it.
 */
const ws = useTempWorkspace();
const env = { PATH: process.env.PATH ?? "", HOME: os.tmpdir(), GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: "1" };

function git(cwd: string, args: string[]): string {
  const r = spawnSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "protocol.file.allow=always", ...args], {
    cwd,
    encoding: "utf8",
    env,
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

describe("a repository planted in a submodule's folder of a worktree", () => {
  it("is never looked into by mini-cursor's git: status skips it and removal is refused, the filter never runs", async () => {
    const lib = path.join(ws.root, "lib");
    const main = path.join(ws.root, "main");
    fs.mkdirSync(lib);
    fs.mkdirSync(main);
    fs.writeFileSync(path.join(lib, "a.txt"), "a\n");
    git(lib, ["init", "-q", "-b", "main"]);
    git(lib, ["add", "-A"]);
    git(lib, ["commit", "-q", "-m", "lib"]);
    fs.writeFileSync(path.join(main, "README.md"), "# main\n");
    git(main, ["init", "-q", "-b", "main"]);
    git(main, ["submodule", "add", "-q", lib, "sub"]);
    git(main, ["add", "-A"]);
    git(main, ["commit", "-q", "-m", "with a submodule"]);
    const wt = await addWorktree(main, "20261203-160000-ab12", await inspectRepository(main, env), env);
    const sub = path.join(wt.folder, "sub");
    expect(fs.readdirSync(sub)).toEqual([]);

    // What a sandboxed command can do in the worktree: a repository in the empty folder, a filter in its config.
    const marker = path.join(ws.root, "filter-ran");
    fs.writeFileSync(path.join(ws.root, "clean.sh"), `#!/bin/sh\ntouch '${marker}'\ncat\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(sub, "a.txt"), "planted\n");
    fs.writeFileSync(path.join(sub, ".gitattributes"), "* filter=x\n");
    git(sub, ["init", "-q", "-b", "main"]);
    git(sub, ["add", "-A"]);
    git(sub, ["commit", "-q", "-m", "planted"]);
    git(sub, ["config", "filter.x.clean", path.join(ws.root, "clean.sh")]);
    fs.rmSync(marker, { force: true });
    // Stat-dirty: any status in that repository would run the clean filter to compare.
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(sub, "a.txt"), later, later);

    const changes = await worktreeChanges(wt.folder, env);
    expect(fs.existsSync(marker)).toBe(false);
    expect(changes).toBe("");
    await expect(removeWorktree(wt.folder, `mini-cursor/20261203-160000-ab12`, env)).rejects.toThrow(WorktreeUnavailableError);
    await expect(removeWorktree(wt.folder, `mini-cursor/20261203-160000-ab12`, env)).rejects.toThrow(/repository in its submodule folder sub/);
    expect(fs.existsSync(marker)).toBe(false);
    expect(fs.existsSync(wt.folder)).toBe(true);
  });
});
