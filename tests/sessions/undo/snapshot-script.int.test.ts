import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GitCommandError } from "../../../src/sessions/undo/errors.js";
import { GitRunner } from "../../../src/sessions/undo/git-runner.js";
import { takeSnapshot, type SnapshotPlan } from "../../../src/sessions/undo/snapshot-script.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { write } from "./helpers.js";

let ws: TempWorkspace;
let gitDir: string;
let git: GitRunner;

beforeEach(async () => {
  ws = await makeTempWorkspace();
  gitDir = path.join(ws.root, ".shadow.git");
  execFileSync("git", ["init", "-q", "--bare", gitDir]);
  fs.writeFileSync(path.join(ws.root, ".gitignore"), ".shadow.git/\n");
  git = new GitRunner({ gitDir, workTree: ws.root, env: process.env, binary: "git" });
});

afterEach(async () => {
  await ws.cleanup();
});

const plan = (over: Partial<SnapshotPlan>): SnapshotPlan => ({
  index: path.join(gitDir, "index-test"),
  addConfig: [],
  unlessTree: "",
  parent: "",
  message: "snapshot",
  ref: "refs/test/one",
  oldValue: "",
  listUntracked: false,
  ...over,
});

const gitText = (...args: string[]) => execFileSync("git", [`--git-dir=${gitDir}`, ...args], { encoding: "utf8" }).trim();

/** One snapshot is one shell process running git's add, write-tree, commit-tree and update-ref (src/sessions/undo/snapshot-script.ts). */
describe("a snapshot script", () => {
  it("passes values as data: quotes, dollars, backticks and newlines reach git unchanged", async () => {
    write(ws.root, "a.txt", "a\n");
    fs.mkdirSync(path.join(ws.root, "empty"));
    const message = `it's $HOME \`id\` "q"\nsecond line; rm -rf /`;
    const first = await takeSnapshot(git, plan({ message, listUntracked: true, addConfig: ["core.bigFileThreshold=1"] }));
    expect(first.commit).not.toBeNull();
    expect(gitText("rev-parse", "refs/test/one")).toBe(first.commit);
    expect(gitText("log", "-1", "--format=%B", "refs/test/one")).toBe(message);
    expect(gitText("ls-tree", "--name-only", first.tree)).toBe([".gitignore", "a.txt"].join("\n"));
    expect(first.untracked).toEqual(["empty/"]);
    expect(first.addProblem).toBeNull();
  });

  it("commits only when the tree changed, with its parent, and names the step that failed", async () => {
    write(ws.root, "a.txt", "a\n");
    const before = await takeSnapshot(git, plan({}));
    const same = await takeSnapshot(git, plan({ ref: "refs/test/two", unlessTree: before.tree, parent: before.commit ?? "", oldValue: null }));
    expect(same).toMatchObject({ tree: before.tree, commit: null });
    expect(() => gitText("rev-parse", "--verify", "-q", "refs/test/two")).toThrow();
    write(ws.root, "a.txt", "b\n");
    const changed = await takeSnapshot(git, plan({ ref: "refs/test/two", unlessTree: before.tree, parent: before.commit ?? "", oldValue: null }));
    expect(changed.commit).not.toBeNull();
    expect(gitText("rev-parse", `${changed.commit ?? ""}^`)).toBe(before.commit);
    // The ref exists and the plan says it must not: update-ref refuses, and the error says so.
    write(ws.root, "a.txt", "c\n");
    await expect(takeSnapshot(git, plan({}))).rejects.toThrow(GitCommandError);
    await expect(takeSnapshot(git, plan({}))).rejects.toThrow(/^git update-ref failed \(exit 3\): fatal: /);
    expect(gitText("rev-parse", "refs/test/one")).toBe(before.commit);
  });
});
