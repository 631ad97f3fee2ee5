import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitEnv, PRIVATE_ATTRIBUTES, runGit, runGitScript, runGitSync } from "../../src/platform/git.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";

/*
 * A repository whose own config names programs: hooks (every kind our runs could reach), an fsmonitor and a clean/smudge
 * filter that every file gets. Each program leaves a marker file. A plain git run sets them off (the control); our runs
 * through src/platform/git.ts must not.
 */
const ws = useTempWorkspace();
const HOOKS = ["pre-commit", "commit-msg", "post-commit", "post-checkout", "post-index-change", "reference-transaction", "pre-auto-gc"];

interface Planted {
  repo: string;
  markers: string;
  /** The person's environment: their global config in a file of its own. */
  env: NodeJS.ProcessEnv;
}

function plainGit(cwd: string, args: string[], env: NodeJS.ProcessEnv): string {
  const r = spawnSync("git", args, { cwd, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** A program that leaves `markers/<name>` and passes its input through (as a filter must). */
function program(dir: string, markers: string, name: string): string {
  const file = path.join(dir, `${name}.sh`);
  fs.writeFileSync(file, `#!/bin/sh\ntouch '${path.join(markers, name)}'\ncat\n`, { mode: 0o755 });
  return file;
}

/** Plants hooks, fsmonitor and filter in the config of the git folder `gitDir`; `.gitattributes` in the work tree. */
function plant(gitDir: string, workTree: string, markers: string, env: NodeJS.ProcessEnv): void {
  const programs = path.join(ws.root, "programs");
  fs.mkdirSync(programs, { recursive: true });
  const hooks = path.join(gitDir, "hooks");
  fs.mkdirSync(hooks, { recursive: true });
  for (const hook of HOOKS) fs.copyFileSync(program(programs, markers, `hook-${hook}`), path.join(hooks, hook));
  fs.chmodSync(hooks, 0o755);
  const config = (key: string, value: string) => plainGit(workTree, [`--git-dir=${gitDir}`, "config", key, value], env);
  config("core.fsmonitor", program(programs, markers, "fsmonitor"));
  config("filter.x.clean", program(programs, markers, "filter-clean"));
  config("filter.x.smudge", program(programs, markers, "filter-smudge"));
  config("gc.auto", "1");
  fs.writeFileSync(path.join(workTree, ".gitattributes"), "* filter=x\n");
}

function setup(): Planted {
  const repo = path.join(ws.root, "repo");
  const markers = path.join(ws.root, "markers");
  fs.mkdirSync(repo);
  fs.mkdirSync(markers);
  const globalConfig = path.join(ws.root, "gitconfig");
  fs.writeFileSync(globalConfig, "[user]\n\tname = Ada\n\temail = ada@example.com\n");
  const env = { PATH: process.env.PATH ?? "", HOME: ws.root, GIT_CONFIG_GLOBAL: globalConfig, GIT_CONFIG_NOSYSTEM: "1" };
  plainGit(repo, ["init", "-q", "-b", "main"], env);
  fs.writeFileSync(path.join(repo, "a.txt"), "a\n");
  plant(path.join(repo, ".git"), repo, markers, env);
  return { repo, markers, env };
}

const ran = (markers: string) => fs.readdirSync(markers).sort();

/**
 * A repository whose files all name the filter `x` (.gitattributes) that its config does not define yet, with `a.txt`
 * staged; `configure` runs on it before the files go in. No system or global config of the person's.
 */
function filteredRepository(name: string, configure?: (repo: string, env: NodeJS.ProcessEnv) => void): Planted {
  const repo = path.join(ws.root, name);
  const markers = path.join(ws.root, `${name}-markers`);
  for (const dir of [repo, markers, path.join(ws.root, "programs")]) fs.mkdirSync(dir, { recursive: true });
  const env = { PATH: process.env.PATH ?? "", HOME: ws.root, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: os.devNull };
  plainGit(repo, ["init", "-q", "-b", "main"], env);
  configure?.(repo, env);
  fs.writeFileSync(path.join(repo, "a.txt"), "a\n");
  fs.writeFileSync(path.join(repo, ".gitattributes"), "* filter=x\n");
  plainGit(repo, ["add", "--all"], env);
  return { repo, markers, env };
}

/** What `run --worktree` and the data folder do in a person's repository. */
async function repositoryRuns(p: Planted, git: (cwd: string, args: string[]) => Promise<number>): Promise<void> {
  const steps: [string, string[]][] = [
    [p.repo, ["status", "--porcelain"]],
    [p.repo, ["add", "--all"]],
    [p.repo, ["commit", "-q", "-m", "first"]],
    [p.repo, ["worktree", "add", "-q", "-b", "side", path.join(ws.root, "wt"), "HEAD"]],
  ];
  for (const [cwd, args] of steps) expect(await git(cwd, args), `git ${args.join(" ")}`).toBe(0);
  // Stat-dirty: status compares contents, through the clean filter.
  const later = new Date(Date.now() + 5_000);
  fs.utimesSync(path.join(p.repo, "a.txt"), later, later);
  expect(await git(p.repo, ["status", "--porcelain"])).toBe(0);
}

describe("git runs in the person's repository (scope: repository)", () => {
  it("the control: plain git runs the repository's hooks, fsmonitor and filter", async () => {
    const p = setup();
    await repositoryRuns(p, async (cwd, args) => spawnSync("git", args, { cwd, env: p.env }).status ?? 1);
    expect(ran(p.markers)).toEqual(
      expect.arrayContaining(["filter-clean", "filter-smudge", "fsmonitor", "hook-post-checkout", "hook-post-commit", "hook-pre-commit"]),
    );
  });

  it("run none of them, and keep the person's identity from their global config", async () => {
    const p = setup();
    await repositoryRuns(p, async (cwd, args) => (await runGit(args, { scope: "repository", cwd, env: p.env })).code);
    expect(ran(p.markers)).toEqual([]);
    expect(plainGit(p.repo, ["log", "-1", "--format=%an <%ae>"], p.env).trim()).toBe("Ada <ada@example.com>");
    // The file went in as it is (no filter ran), and the worktree has it.
    expect(fs.readFileSync(path.join(ws.root, "wt", "a.txt"), "utf8")).toBe("a\n");
    expect(runGitSync(["rev-parse", "--show-toplevel"], { scope: "repository", cwd: p.repo, env: p.env })?.trim()).toBe(p.repo);
    expect(ran(p.markers)).toEqual([]);
  });

  it("keep a filter of the person's own global config (an LFS they installed)", async () => {
    const p = setup();
    const global = p.env.GIT_CONFIG_GLOBAL ?? "";
    const mine = program(path.join(ws.root, "programs"), p.markers, "global-filter");
    fs.appendFileSync(global, `[filter "mine"]\n\tclean = ${mine}\n`);
    fs.writeFileSync(path.join(p.repo, ".gitattributes"), "* filter=x\n*.bin filter=mine\n");
    fs.writeFileSync(path.join(p.repo, "b.bin"), "b\n");
    expect((await runGit(["add", "--all"], { scope: "repository", cwd: p.repo, env: p.env })).code).toBe(0);
    expect(ran(p.markers)).toEqual(["global-filter"]);
  });

  it("read the guard again when the repository's config changes: a filter planted after a guarded run is switched off", async () => {
    const { repo, markers, env } = filteredRepository("late");
    // A run with no filter in the config: its guard is empty, and kept for the next runs while the config is as it was.
    expect((await runGit(["status", "--porcelain"], { scope: "repository", cwd: repo, env })).code).toBe(0);
    // Then a command writes a filter into the repository's config, and makes the file stat-dirty.
    plainGit(repo, ["config", "filter.x.clean", program(path.join(ws.root, "programs"), markers, "late-filter")], env);
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(repo, "a.txt"), later, later);
    expect((await runGit(["status", "--porcelain"], { scope: "repository", cwd: repo, env })).code).toBe(0);
    expect((await runGit(["diff", "--stat"], { scope: "repository", cwd: repo, env })).code).toBe(0);
    expect(ran(markers)).toEqual([]);
    // The control: plain git runs it.
    plainGit(repo, ["status", "--porcelain"], env);
    expect(ran(markers)).toEqual(["late-filter"]);
  });

  it("read the guard on every run when the repository's config includes another file", async () => {
    const included = path.join(ws.root, "included.gitconfig");
    fs.writeFileSync(included, "[core]\n\tautocrlf = false\n");
    const { repo, markers, env } = filteredRepository("inc", (r, e) => plainGit(r, ["config", "include.path", included], e));
    expect((await runGit(["status", "--porcelain"], { scope: "repository", cwd: repo, env })).code).toBe(0);
    // The included file changes; the repository's own config does not.
    fs.appendFileSync(included, `[filter "x"]\n\tclean = ${program(path.join(ws.root, "programs"), markers, "included-filter")}\n`);
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(repo, "a.txt"), later, later);
    expect((await runGit(["status", "--porcelain"], { scope: "repository", cwd: repo, env })).code).toBe(0);
    expect(ran(markers)).toEqual([]);
  });

  it("ignore the caller's GIT_DIR and GIT_INDEX_FILE, and say when git is missing", async () => {
    const p = setup();
    const other = path.join(ws.root, "other");
    fs.mkdirSync(other);
    plainGit(other, ["init", "-q"], p.env);
    const env = { ...p.env, GIT_DIR: path.join(other, ".git"), GIT_INDEX_FILE: path.join(other, "index") };
    const top = await runGit(["rev-parse", "--show-toplevel"], { scope: "repository", cwd: p.repo, env });
    expect(top.stdout.toString("utf8").trim()).toBe(p.repo);
    expect(gitEnv("repository", env)).not.toHaveProperty("GIT_DIR");
    expect(gitEnv("repository", env).GIT_CONFIG_GLOBAL).toBe(p.env.GIT_CONFIG_GLOBAL);
    const missing = await runGit(["status"], { scope: "repository", cwd: p.repo, env: p.env, binary: path.join(ws.root, "no-git") });
    expect(missing).toMatchObject({ code: 127, missing: true });
  });
});

describe("git runs on a private repository of ours (scope: private)", () => {
  /** Our repository in `store` over the workspace, as undo's shadow store has it, its config planted too. */
  function privateStore(p: Planted): string[] {
    const gitDir = path.join(ws.root, "store.git");
    plainGit(p.repo, [`--git-dir=${gitDir}`, "init", "-q", "--template="], p.env);
    fs.mkdirSync(path.join(gitDir, "info"));
    fs.writeFileSync(path.join(gitDir, "info", "attributes"), PRIVATE_ATTRIBUTES);
    plant(gitDir, p.repo, p.markers, p.env);
    return [`--git-dir=${gitDir}`, `--work-tree=${p.repo}`];
  }

  it("run nothing of the store's config or the workspace's, nor the person's config, and keep the bytes", async () => {
    const p = setup();
    const leading = privateStore(p);
    fs.writeFileSync(path.join(p.repo, "crlf.txt"), "one\r\ntwo\r\n");
    const git = async (args: string[]) => (await runGit([...leading, ...args], { scope: "private", cwd: p.repo, env: p.env })).code;
    expect(await git(["add", "--all"])).toBe(0);
    expect(await git(["status", "--porcelain"])).toBe(0);
    expect(await git(["commit", "-q", "-m", "snapshot"])).toBe(0);
    fs.rmSync(path.join(p.repo, "crlf.txt"));
    expect(await git(["checkout", "--", "crlf.txt"])).toBe(0);
    const script = await runGitScript('g add --all && g update-ref refs/x "$(g commit-tree "$(g write-tree)" -m "$1")"', ["scripted"], leading, {
      cwd: p.repo,
      env: p.env,
    });
    expect(script.code).toBe(0);
    expect(ran(p.markers)).toEqual([]);
    expect(fs.readFileSync(path.join(p.repo, "crlf.txt"), "utf8")).toBe("one\r\ntwo\r\n");
    // The fixed identity, not the person's.
    const author = await runGit([...leading, "log", "-1", "--format=%an", "refs/x"], { scope: "private", cwd: p.repo, env: p.env });
    expect(author.stdout.toString("utf8").trim()).toBe("mini-cursor");
  });

  it("see none of the caller's git variables but GIT_EXEC_PATH, nor its locale", () => {
    const env = gitEnv("private", {
      PATH: "/bin",
      GIT_DIR: "/x",
      GIT_CONFIG_GLOBAL: "/home/me/.gitconfig",
      GIT_EXEC_PATH: "/usr/lib/git-core",
      LANG: "de_DE.UTF-8",
    });
    expect(env).toMatchObject({ PATH: "/bin", GIT_EXEC_PATH: "/usr/lib/git-core", GIT_CONFIG_GLOBAL: os.devNull, LC_ALL: "C", GIT_TERMINAL_PROMPT: "0" });
    expect(env).not.toHaveProperty("GIT_DIR");
    expect(env).not.toHaveProperty("LANG");
  });
});
