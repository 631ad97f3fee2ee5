import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ScriptedRequest } from "../../helpers/scripted-openai-server.js";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { freePort } from "../../helpers/free-port.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { git as gitAs, initRepo, NO_GIT_CONFIG } from "./git-repo.js";
import { runCli, startCli, type CliRun } from "./cli-process.js";
import { Gate } from "./request-gate.js";
import { GREET_SOURCE, greetScript, roleOf } from "./task-script.js";

/*
 * `run --worktree` through the built CLI against the scripted model, in a real git repository: the session works in
 * its own worktree and branch, the main checkout stays as it was.
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

const cli = (args: string[]) => runCli(args, { cwd: ws.root, env });
function start(args: string[]): CliRun {
  const run = startCli(args, { cwd: ws.root, env });
  running.push(run);
  return run;
}

interface Finished {
  type: "session_finished";
  sessionId: string;
  status: string;
  report: string;
  worktree?: { branch: string; folder: string; uncommittedLeftOut: boolean; commits: number };
}

function finishedEvent(stdout: string): Finished {
  const events = stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { type: string });
  const finished = events.find((e) => e.type === "session_finished");
  if (!finished) throw new Error(`no session_finished in: ${stdout}`);
  return finished as Finished;
}

/** The coder step's goal (tests/faces/cli/task-script.ts) and the commit subject it gives: 72 characters at most. */
const CODER_GOAL = "Create src/greet.js exporting greet(name) and test/greet.test.js; run the tests";
const CODER_SUBJECT = `${CODER_GOAL.slice(0, 71)}…`;

const firstReviewerCall = (req: ScriptedRequest) => roleOf(req) === "reviewer" && req.messages.every((m) => m.role !== "tool");

describe("run --worktree", () => {
  it("works on its own branch in its own folder: the main checkout stays clean, each coder step is a commit", async () => {
    initRepo(ws.root);
    const run = await cli(["run", "--worktree", "--json", "Add greet with a test"]);
    expect(run.code, run.stderr).toBe(0);
    const finished = finishedEvent(run.stdout);
    const id = finished.sessionId;
    expect(finished.worktree).toMatchObject({ branch: `mini-cursor/${id}`, uncommittedLeftOut: false, commits: 1 });
    const folder = finished.worktree?.folder ?? "";
    expect(folder).toBe(path.join(ws.root, ".mini-cursor", "worktrees", id));
    expect(finished.report).toContain(`branch mini-cursor/${id}`);
    expect(finished.report).toContain(folder);
    expect(finished.report).not.toContain("Uncommitted changes");

    // The main checkout: nothing changed, nothing new in git status (its runtime folder, the worktree inside it, included).
    expect(git(ws.root, ["status", "--porcelain", "--untracked-files=all"])).toBe("");
    expect(fs.existsSync(path.join(ws.root, "src/greet.js"))).toBe(false);
    expect(git(ws.root, ["rev-parse", "--abbrev-ref", "HEAD"]).trim()).toBe("main");

    // The work is in the worktree and committed on its branch, one commit by mini-cursor named after the coder's step.
    expect(fs.readFileSync(path.join(folder, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    expect(git(folder, ["status", "--porcelain", "--untracked-files=all"])).toBe("");
    const log = git(ws.root, ["log", "--format=%s|%an <%ae>|%cn", `main..mini-cursor/${id}`])
      .trim()
      .split("\n");
    expect(log).toEqual([`${CODER_SUBJECT}|mini-cursor <mini-cursor@localhost>|mini-cursor`]);
    const files = git(ws.root, ["show", "--name-only", "--format=", `mini-cursor/${id}`])
      .trim()
      .split("\n")
      .sort();
    expect(files).toEqual(["src/greet.js", "test/greet.test.js"]);
    const body = git(ws.root, ["log", "-1", "--format=%b", `mini-cursor/${id}`]);
    expect(body).toContain(CODER_GOAL);
    expect(body).toContain(`mini-cursor session ${id}, step s1 (coder)`);

    // `sessions` in the main checkout shows it with its branch and folder.
    const listed = JSON.parse((await cli(["sessions", "--json"])).stdout) as {
      id: string;
      status: string;
      branch: string;
      worktree: string;
      workspace: string;
    }[];
    expect(listed).toEqual([expect.objectContaining({ id, status: "done", branch: `mini-cursor/${id}`, worktree: folder, workspace: ws.root })]);
    const text = await cli(["sessions"]);
    expect(text.stdout).toContain(`worktree: branch mini-cursor/${id} in ${folder}`);
  });

  it("starts from HEAD when the main checkout has uncommitted changes, says so, and leaves them alone", async () => {
    initRepo(ws.root);
    fs.writeFileSync(path.join(ws.root, "README.md"), "# demo, edited\n");
    fs.writeFileSync(path.join(ws.root, "notes.txt"), "mine\n");
    const run = await cli(["run", "--worktree", "Add greet with a test"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Uncommitted changes in the main checkout were not included");
    const json = await cli(["run", "--worktree", "--json", "Add greet with a test"]);
    expect(finishedEvent(json.stdout).worktree?.uncommittedLeftOut).toBe(true);
    expect(finishedEvent(json.stdout).report).toContain("Uncommitted changes in the main checkout were not included");
    const folder = finishedEvent(json.stdout).worktree?.folder ?? "";
    expect(fs.readFileSync(path.join(folder, "README.md"), "utf8")).toBe("# demo\n");
    expect(fs.existsSync(path.join(folder, "notes.txt"))).toBe(false);
    expect(git(ws.root, ["status", "--porcelain", "--untracked-files=all"]).split("\n").filter(Boolean).sort()).toEqual([" M README.md", "?? notes.txt"]);
  });

  it("outside a git repository is a usage error: one line, exit 2, nothing created", async () => {
    const run = await cli(["run", "--worktree", "Add greet with a test"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("--worktree needs a git repository");
    expect(fs.existsSync(path.join(ws.root, ".mini-cursor"))).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it("a run that fails before its session exists leaves no worktree or branch behind", async () => {
    initRepo(ws.root);
    // Nothing listens there: the session database cannot be opened, after the worktree was made.
    const port = await freePort();
    const run = await runCli(["run", "--worktree", "Add greet with a test"], {
      cwd: ws.root,
      env: { ...env, MINI_CURSOR_DATABASE_URL: `postgres://u:p@127.0.0.1:${port}/db` },
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(git(ws.root, ["branch", "--list", "mini-cursor/*"])).toBe("");
    expect(git(ws.root, ["worktree", "list", "--porcelain"]).match(/^worktree /gm)).toHaveLength(1);
    expect(fs.readdirSync(path.join(ws.root, ".mini-cursor", "worktrees"))).toEqual([]);
    expect(git(ws.root, ["status", "--porcelain", "--untracked-files=all"])).toBe("");
  });

  it("runs two worktree sessions on one repository at once", async () => {
    initRepo(ws.root);
    // The first session is held at its reviewer's first model call, its coder step committed; the second runs whole.
    gate.arm(firstReviewerCall);
    const first = start(["run", "--worktree", "--json", "Add greet with a test"]);
    await gate.reached;
    const second = await cli(["run", "--worktree", "--json", "Add greet with a test"]);
    expect(second.code, second.stderr).toBe(0);
    gate.release();
    const { code } = await first.done;
    expect(code, first.stderr()).toBe(0);
    const a = finishedEvent(first.stdout());
    const b = finishedEvent(second.stdout);
    expect(a.sessionId).not.toBe(b.sessionId);
    for (const s of [a, b]) {
      expect(s.status).toBe("done");
      expect(git(ws.root, ["rev-list", "--count", `main..mini-cursor/${s.sessionId}`]).trim()).toBe("1");
      expect(fs.readFileSync(path.join(s.worktree?.folder ?? "", "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    }
    expect(git(ws.root, ["status", "--porcelain", "--untracked-files=all"])).toBe("");
    expect(git(ws.root, ["worktree", "list", "--porcelain"])).toContain(a.worktree?.folder ?? "?");
  });

  it("resumes, diffs and undoes a worktree session from the main checkout; the undo is a commit on its branch", async () => {
    initRepo(ws.root);
    gate.arm(firstReviewerCall);
    const first = start(["run", "--worktree", "Add greet with a test"]);
    await gate.reached;
    first.child.kill("SIGKILL");
    await first.done;
    gate.release();
    const [listed] = JSON.parse((await cli(["sessions", "--json"])).stdout) as { id: string; status: string; worktree: string; branch: string }[];
    expect(listed?.status).toBe("interrupted");
    const id = listed?.id ?? "";
    const folder = path.join(ws.root, ".mini-cursor", "worktrees", id);
    expect(listed?.worktree).toBe(folder);

    const resumed = await cli(["resume", id, "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const finished = finishedEvent(resumed.stdout);
    expect(finished.status).toBe("done");
    expect(finished.worktree).toMatchObject({ branch: `mini-cursor/${id}`, folder });
    // The reviewer's commands ran in the worktree: the main checkout never got the files.
    expect(fs.existsSync(path.join(ws.root, "src/greet.js"))).toBe(false);
    expect(git(ws.root, ["status", "--porcelain", "--untracked-files=all"])).toBe("");

    const diff = JSON.parse((await cli(["diff", id, "--json"])).stdout) as { session: string; changes: { path: string; change: string }[] };
    expect(diff.changes.map((c) => `${c.change} ${c.path}`).sort()).toEqual(["created src/greet.js", "created test/greet.test.js"]);
    // Without an id: the latest session, a worktree one.
    const latestDiff = await cli(["diff"]);
    expect(latestDiff.stdout).toContain(`Session ${id} changed 2 files`);

    const undone = await cli(["undo", "--json"]);
    expect(undone.code, undone.stderr).toBe(0);
    const report = JSON.parse(undone.stdout) as { removed: string[]; worktreeCommit: { branch: string; commit: string } };
    expect(report.removed.filter((p) => !p.endsWith("/")).sort()).toEqual(["src/greet.js", "test/greet.test.js"]);
    expect(fs.existsSync(path.join(folder, "src/greet.js"))).toBe(false);
    // The branch stays what the folder holds: the undo is a new commit; the worktree is clean, the main checkout too.
    expect(git(ws.root, ["rev-parse", `mini-cursor/${id}`]).trim()).toBe(report.worktreeCommit.commit);
    expect(
      git(ws.root, ["log", "--format=%s", `main..mini-cursor/${id}`])
        .trim()
        .split("\n"),
    ).toEqual([`Undo mini-cursor session ${id}`, CODER_SUBJECT]);
    expect(git(ws.root, ["diff", "--stat", "main", `mini-cursor/${id}`])).toBe("");
    expect(git(folder, ["status", "--porcelain", "--untracked-files=all"])).toBe("");
    expect(git(ws.root, ["status", "--porcelain", "--untracked-files=all"])).toBe("");
  });

  it("sessions delete keeps the worktree and branch; with --worktree it removes them (a dirty worktree is refused first)", async () => {
    initRepo(ws.root);
    const a = finishedEvent((await cli(["run", "--worktree", "--json", "Add greet with a test"])).stdout);
    const b = finishedEvent((await cli(["run", "--worktree", "--json", "Add greet with a test"])).stdout);
    const [folderA, folderB] = [a.worktree?.folder ?? "", b.worktree?.folder ?? ""];

    const kept = await cli(["sessions", "delete", a.sessionId]);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toContain(`Deleted session ${a.sessionId}`);
    expect(kept.stdout).toContain("its undo records");
    expect(kept.stdout).toContain(`Its worktree ${folderA} and branch mini-cursor/${a.sessionId} are kept`);
    expect(fs.existsSync(path.join(folderA, "src/greet.js"))).toBe(true);

    // Uncommitted work in the worktree: refused, nothing deleted.
    fs.writeFileSync(path.join(folderB, "scratch.txt"), "mine\n");
    const refused = await cli(["sessions", "delete", b.sessionId, "--worktree"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("has uncommitted changes, so nothing was deleted");
    expect(JSON.parse((await cli(["sessions", "--json"])).stdout)).toEqual([expect.objectContaining({ id: b.sessionId })]);

    // Clean again: the worktree goes; its branch is not merged, so it stays with its work.
    fs.rmSync(path.join(folderB, "scratch.txt"));
    const removed = await cli(["sessions", "delete", b.sessionId, "--worktree", "--json"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({
      type: "session_deleted",
      id: b.sessionId,
      undo: true,
      worktreeRemoved: { folder: folderB, branchDeleted: false },
    });
    expect(fs.existsSync(folderB)).toBe(false);
    expect(git(ws.root, ["worktree", "list", "--porcelain"])).not.toContain(folderB);
    expect(git(ws.root, ["rev-list", "--count", `main..mini-cursor/${b.sessionId}`]).trim()).toBe("1");
    expect(git(ws.root, ["status", "--porcelain", "--untracked-files=all"])).toBe("");

    // Merged into the main checkout's branch: the branch goes too.
    git(ws.root, ["merge", "-q", "--ff-only", `mini-cursor/${a.sessionId}`]);
    const c = finishedEvent((await cli(["run", "--worktree", "--json", "Add greet with a test"])).stdout);
    git(ws.root, ["merge", "-q", "--no-edit", `mini-cursor/${c.sessionId}`]);
    const merged = await cli(["sessions", "delete", c.sessionId, "--worktree"]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toContain(`Removed its worktree ${c.worktree?.folder ?? "?"} and its branch mini-cursor/${c.sessionId}.`);
    expect(git(ws.root, ["branch", "--list", `mini-cursor/${c.sessionId}`])).toBe("");
  });
});
