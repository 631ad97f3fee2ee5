import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ScriptedRequest } from "../../helpers/scripted-openai-server.js";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { git as gitAs, initRepo, NO_GIT_CONFIG } from "./git-repo.js";
import { runCli, startCli, type CliRun } from "./cli-process.js";
import { Gate } from "./request-gate.js";
import { greetScript, roleOf } from "./task-script.js";

/*
 * The session commands run from inside a `run --worktree` session's folder (where a user goes to look at its work
 * or run its tests) act on that session of the main checkout, as `--workspace <checkout> SESSION` would.
 */

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;
let gate: Gate;
const running: CliRun[] = [];

beforeEach(async () => {
  gate = new Gate();
  server = await startScriptedOpenAIServer(async (req) => {
    await gate.pass(req);
    return greetScript(req);
  });
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n', "README.md": "# demo\n" });
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", ...NO_GIT_CONFIG };
});
afterEach(async () => {
  gate.release();
  for (const run of running.splice(0)) run.child.kill("SIGKILL");
  await server.close();
  await ws.cleanup();
});

const git = (cwd: string, args: string[]): string => gitAs(cwd, args, ws.root);

const cliIn = (cwd: string, args: string[]) => runCli(args, { cwd, env });

interface Listed {
  id: string;
  status: string;
  worktree: string | null;
}

const firstReviewerCall = (req: ScriptedRequest) => roleOf(req) === "reviewer" && req.messages.every((m) => m.role !== "tool");

describe("session commands from inside a worktree session's folder", () => {
  it("list, resume, diff and undo that session, even when the main checkout has a later one", async () => {
    initRepo(ws.root);
    // Killed at its reviewer's first call, its coder step done and committed.
    gate.arm(firstReviewerCall);
    const first = startCli(["run", "--worktree", "Add greet with a test"], { cwd: ws.root, env });
    running.push(first);
    await gate.reached;
    first.child.kill("SIGKILL");
    await first.done;
    gate.release();
    const [worktreeRow] = JSON.parse((await cliIn(ws.root, ["sessions", "--json"])).stdout) as Listed[];
    const id = worktreeRow?.id ?? "";
    const folder = path.join(ws.root, ".mini-cursor", "worktrees", id);
    expect(worktreeRow?.worktree).toBe(folder);
    // A later ordinary session in the main checkout: the latest one there, but not the worktree's.
    const later = await cliIn(ws.root, ["run", "--json", "Add greet with a test"]);
    expect(later.code, later.stderr).toBe(0);
    const inside = path.join(folder, "src");
    expect(fs.existsSync(inside)).toBe(true);

    // `sessions` lists the main checkout's sessions, both of them.
    const listed = await cliIn(inside, ["sessions", "--json"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as Listed[]).map((s) => s.id)).toContain(id);
    expect(JSON.parse(listed.stdout)).toHaveLength(2);

    // `diff` with no id: this worktree's session, not the checkout's latest.
    const diff = await cliIn(inside, ["diff", "--json"]);
    expect(diff.code, diff.stderr).toBe(0);
    const shown = JSON.parse(diff.stdout) as { session: string; changes: { path: string; change: string }[] };
    expect(shown.session).toBe(id);
    expect(shown.changes.map((c) => `${c.change} ${c.path}`).sort()).toEqual(["created src/greet.js", "created test/greet.test.js"]);

    // `resume` with no id goes on with it, in its worktree.
    const resumed = await cliIn(folder, ["resume", "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const finished = resumed.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { type: string; sessionId?: string; status?: string })
      .find((e) => e.type === "session_finished");
    expect(finished).toMatchObject({ sessionId: id, status: "done" });

    // `undo` with no id undoes it: a commit on its branch; the main checkout's own session is untouched.
    const undone = await cliIn(inside, ["undo", "--json"]);
    expect(undone.code, undone.stderr).toBe(0);
    expect(fs.existsSync(path.join(folder, "src/greet.js"))).toBe(false);
    expect(fs.existsSync(path.join(ws.root, "src/greet.js"))).toBe(true);
    expect(git(ws.root, ["log", "-1", "--format=%s", `mini-cursor/${id}`]).trim()).toBe(`Undo mini-cursor session ${id}`);

    // An explicit id still names any session of the main checkout (the undo took src/ away: from the top now).
    const other = (JSON.parse(listed.stdout) as Listed[]).find((s) => s.id !== id)?.id ?? "";
    const otherDiff = await cliIn(folder, ["diff", other, "--json"]);
    expect(otherDiff.code, otherDiff.stderr).toBe(0);
    expect((JSON.parse(otherDiff.stdout) as { session: string }).session).toBe(other);
  });
});
