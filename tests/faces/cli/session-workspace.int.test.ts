import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/faces/cli/exit-codes.js";
import { sessionWorkspace } from "../../../src/faces/cli/session-workspace.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";

const ws = useTempWorkspace({ "README.md": "# demo\n", "sub/a.txt": "a\n" });
const ID = "20261203-150000-ab12";

function git(cwd: string, args: string[]): void {
  const env = { PATH: process.env.PATH ?? "", HOME: ws.root, GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: "1" };
  const r = spawnSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", ...args], { cwd, encoding: "utf8", env });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

/** A real git worktree where `run --worktree` puts one: `<checkout>/.mini-cursor/worktrees/<id>`. */
function addWorktree(checkout: string, id: string): string {
  const folder = path.join(checkout, ".mini-cursor", "worktrees", id);
  fs.mkdirSync(path.dirname(folder), { recursive: true });
  git(checkout, ["worktree", "add", "-q", "-b", `mini-cursor/${id}`, folder]);
  return folder;
}

function initRepo(): void {
  git(ws.root, ["init", "-q", "-b", "main"]);
  git(ws.root, ["add", "-A"]);
  git(ws.root, ["commit", "-q", "-m", "initial"]);
}

describe("sessionWorkspace", () => {
  it("is the workspace itself outside a worktree, from the current folder or --workspace", () => {
    initRepo();
    expect(sessionWorkspace(undefined, ws.root)).toEqual({ workspace: ws.root });
    expect(sessionWorkspace("sub", ws.root)).toEqual({ workspace: path.join(ws.root, "sub") });
  });

  it("inside a session's worktree (its top or any folder below) stands for the main checkout and that session", () => {
    initRepo();
    const folder = addWorktree(ws.root, ID);
    expect(sessionWorkspace(undefined, folder)).toEqual({ workspace: ws.root, worktreeSession: ID });
    expect(sessionWorkspace(undefined, path.join(folder, "sub"))).toEqual({ workspace: ws.root, worktreeSession: ID });
    expect(sessionWorkspace(folder, os.tmpdir())).toEqual({ workspace: ws.root, worktreeSession: ID });
    // Through a symlink to the worktree: the real path counts.
    const link = path.join(ws.root, "link-to-worktree");
    fs.symlinkSync(folder, link);
    expect(sessionWorkspace("link-to-worktree", ws.root)).toEqual({ workspace: ws.root, worktreeSession: ID });
  });

  it("a worktree session started from inside another one's worktree belongs to the innermost checkout", () => {
    initRepo();
    const outer = addWorktree(ws.root, ID);
    const inner = addWorktree(outer, "20261203-151500-cd34");
    expect(sessionWorkspace(undefined, inner)).toEqual({ workspace: outer, worktreeSession: "20261203-151500-cd34" });
  });

  it("a folder that only looks like one (not a git worktree), or the worktrees folder itself, is taken as it is", () => {
    const lookalike = path.join(ws.root, ".mini-cursor", "worktrees", ID);
    fs.mkdirSync(lookalike, { recursive: true });
    expect(sessionWorkspace(undefined, lookalike)).toEqual({ workspace: lookalike });
    // A `.git` folder (a clone, not a worktree) is not one either.
    fs.mkdirSync(path.join(lookalike, ".git"));
    expect(sessionWorkspace(undefined, lookalike)).toEqual({ workspace: lookalike });
    const worktrees = path.dirname(lookalike);
    expect(sessionWorkspace(undefined, worktrees)).toEqual({ workspace: worktrees });
  });

  it("a missing workspace is still a usage error", () => {
    expect(() => sessionWorkspace("nope", ws.root)).toThrow(UsageError);
  });
});
