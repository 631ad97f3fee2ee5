import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureDataDir } from "../../src/sessions/data-dir.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";

const ws = useTempWorkspace({ "README.md": "demo\n" });
const git = (...args: string[]) => execFileSync("git", args, { cwd: ws.root, encoding: "utf8" });
const put = (relative: string, text = "x\n") => {
  fs.mkdirSync(path.dirname(path.join(ws.root, relative)), { recursive: true });
  fs.writeFileSync(path.join(ws.root, relative), text);
};
const untracked = () =>
  git("status", "--porcelain", "--untracked-files=all")
    .split("\n")
    .filter(Boolean)
    .map((l) => l.slice(3))
    .sort();
const exclude = () => fs.readFileSync(path.join(ws.root, ".git/info/exclude"), "utf8");

describe(".mini-cursor/ and git", () => {
  it("ignores the runtime data but not agents/ and skills/, which a team commits", () => {
    git("init", "-q");
    ensureDataDir(ws.root);
    put(".mini-cursor/sessions.sqlite");
    put(".mini-cursor/locks/session.lock");
    put(".mini-cursor/agents/docs-writer.md");
    put(".mini-cursor/skills/release/SKILL.md");
    expect(untracked()).toEqual([".mini-cursor/agents/docs-writer.md", ".mini-cursor/skills/release/SKILL.md", "README.md"]);
    // Once: a second call (as every session makes) adds nothing.
    ensureDataDir(ws.root);
    expect(
      exclude()
        .split("\n")
        .filter((l) => l === "/.mini-cursor/*"),
    ).toHaveLength(1);
  });

  it("rewrites an earlier version's rule that ignored the whole folder once the workspace has agents/", () => {
    git("init", "-q");
    fs.appendFileSync(path.join(ws.root, ".git/info/exclude"), "# mini-cursor's session data\n/.mini-cursor/\n");
    put(".mini-cursor/sessions.sqlite");
    ensureDataDir(ws.root);
    // Nothing to share yet: no git process is spent on it, the old rule stays.
    expect(exclude()).toContain("\n/.mini-cursor/\n");
    put(".mini-cursor/agents/docs-writer.md");
    ensureDataDir(ws.root);
    expect(exclude()).not.toMatch(/^\/\.mini-cursor\/$/m);
    expect(exclude()).not.toMatch(/^# mini-cursor's session data$/m);
    expect(untracked()).toEqual([".mini-cursor/agents/docs-writer.md", "README.md"]);
  });

  it("runs no fsmonitor program the repository's config names (a command may have written it)", () => {
    git("init", "-q");
    const marker = path.join(ws.root, "fsmonitor-ran");
    put("monitor.sh", `#!/bin/sh\ntouch '${marker}'\n`);
    fs.chmodSync(path.join(ws.root, "monitor.sh"), 0o755);
    git("config", "core.fsmonitor", path.join(ws.root, "monitor.sh"));
    ensureDataDir(ws.root);
    expect(exclude()).toContain("/.mini-cursor/*");
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("adds nothing when the project's own rules already ignore the runtime data", () => {
    git("init", "-q");
    put(".gitignore", ".mini-cursor/*\n!.mini-cursor/agents/\n");
    ensureDataDir(ws.root);
    expect(exclude()).not.toContain(".mini-cursor");
  });
});
