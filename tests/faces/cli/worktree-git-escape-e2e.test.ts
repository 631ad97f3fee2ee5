import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { commandScript } from "../../safety/approval-script.js";
import { git as gitAs, initRepo, NO_GIT_CONFIG } from "./git-repo.js";
import { runCli } from "./cli-process.js";

/*
 * A sandboxed command in a `run --worktree` session may write the worktree folder, and the worktree's `.git` is a file
 * in it (`gitdir: <repo>/.git/worktrees/<id>`). Pointed at a git folder the command made, with a clean filter in its
 * config and `* filter=x` in .gitattributes, mini-cursor's own `git add` for the step's commit (made outside the
 * sandbox) would run the command's program with the person's rights. It must not.
 */

/** Run from the worktree folder `<main>/.mini-cursor/worktrees/<id>`: the filter writes into the main checkout, which the sandbox keeps read-only. */
const ATTACK = [
  "mkdir -p .x && git init -q .x/r && mv .x/r/.git .x/gd",
  "printf '#!/bin/sh\\necho escaped > ../../../escaped.txt\\ncat\\n' > .x/clean.sh && chmod +x .x/clean.sh",
  "printf '[filter \"x\"]\\n\\tclean = .x/clean.sh\\n' >> .x/gd/config",
  "echo changed >> README.md && echo '* filter=x' > .gitattributes && echo 'gitdir: .x/gd' > .git",
].join(" && ");

let server: ScriptedServer;
let ws: TempWorkspace;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(commandScript(["touch ../../../inside.txt; echo tried", ATTACK]));
  ws = await makeTempWorkspace({ "README.md": "# demo\n" });
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

const git = (cwd: string, args: string[]): string => gitAs(cwd, args, ws.root);

describe("run --worktree and a command that redirects the worktree's .git", () => {
  it("mini-cursor's commit never runs a filter the command planted: nothing is written outside the worktree", async () => {
    initRepo(ws.root);
    const run = await runCli(["run", "--worktree", "--json", "Run the checks"], {
      cwd: ws.root,
      env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", ...NO_GIT_CONFIG },
    });
    expect(run.code, run.stderr).toBe(0);
    // The sandbox itself keeps the main checkout read-only for the command.
    expect(fs.existsSync(path.join(ws.root, "inside.txt"))).toBe(false);
    expect(fs.existsSync(path.join(ws.root, "escaped.txt"))).toBe(false);
    // The step is still committed on the session's branch, in the real repository.
    const id = (JSON.parse(run.stdout.split("\n").filter((l) => l.includes('"session_finished"'))[0] ?? "{}") as { sessionId: string }).sessionId;
    expect(
      git(ws.root, ["show", "--name-only", "--format=", `mini-cursor/${id}`])
        .trim()
        .split("\n"),
    ).toContain("README.md");
  });
});
