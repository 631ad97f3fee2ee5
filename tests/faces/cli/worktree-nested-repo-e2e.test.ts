import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { commandScript } from "../../safety/approval-script.js";
import { git as gitAs, initRepo, NO_GIT_CONFIG } from "./git-repo.js";
import { runCli } from "./cli-process.js";

/*
 * A sandboxed command in a `run --worktree` session makes a git repository of its own inside the worktree (`sub/.git`,
 * whose config has a clean filter, a file in it stat-dirty). Staged by mini-cursor's step commit as a gitlink, it would
 * make every later `git status` of the worktree run `git status` inside it, and so the filter: `sessions delete
 * --worktree` (its own status, then `git worktree remove`'s) ran the command's program outside the sandbox.
 */

/** Run in the worktree folder `<main>/.mini-cursor/worktrees/<id>`: the filter, run in sub/, writes into the main checkout. */
const ATTACK = [
  "git init -q sub && cd sub && echo '* filter=x' > .gitattributes && echo data > f.txt",
  "printf '#!/bin/sh\\necho escaped > ../../../../escaped.txt\\ncat\\n' > c.sh && chmod +x c.sh",
  "git add . && git -c user.name=x -c user.email=x@example.com commit -q -m s",
  "git config filter.x.clean ./c.sh && touch -d @1000000000 f.txt && cd .. && echo changed >> README.md",
].join(" && ");

let server: ScriptedServer;
let ws: TempWorkspace;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(commandScript([ATTACK]));
  ws = await makeTempWorkspace({ "README.md": "# demo\n" });
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

const git = (cwd: string, args: string[]): string => gitAs(cwd, args, ws.root);

describe("run --worktree and a repository a command made inside the worktree", () => {
  it("is left out of the step's commit, so sessions delete --worktree never runs its filter", async () => {
    initRepo(ws.root);
    const env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", ...NO_GIT_CONFIG };
    const run = await runCli(["run", "--worktree", "--json", "Run the checks"], { cwd: ws.root, env });
    expect(run.code, run.stderr).toBe(0);
    const id = (JSON.parse(run.stdout.split("\n").find((l) => l.includes('"session_finished"')) ?? "{}") as { sessionId: string }).sessionId;
    const folder = path.join(ws.root, ".mini-cursor", "worktrees", id);
    expect(fs.existsSync(path.join(folder, "sub", ".git"))).toBe(true);
    expect(fs.existsSync(path.join(ws.root, "escaped.txt"))).toBe(false);
    // The step's own change is committed; the nested repository is not (it stays in the folder, untracked).
    expect(
      git(ws.root, ["show", "--name-only", "--format=", `mini-cursor/${id}`])
        .trim()
        .split("\n"),
    ).toEqual(["README.md"]);
    const deleted = await runCli(["sessions", "delete", id, "--worktree"], { cwd: ws.root, env });
    expect(deleted.code).toBe(2);
    expect(deleted.stderr).toContain("uncommitted changes");
    expect(fs.existsSync(path.join(ws.root, "escaped.txt"))).toBe(false);
  });
});
