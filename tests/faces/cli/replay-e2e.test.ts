import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { type ScriptedReply, type ScriptedRequest, toolResults } from "../../helpers/scripted-openai-server.js";
import { runCli, startCli } from "./cli-process.js";
import { useReplayWorkspaces } from "./replay-workspaces.js";
import { PLANNER_QUESTION, plannerAsksFirst } from "./ask-user-script.js";
import { GREET_SOURCE, GREET_TEST, greetScript, roleOf } from "./task-script.js";
import { commandScript } from "../../safety/approval-script.js";
import { decode, encode, type RecordedRequest } from "../../../src/models/recording-codec.js";

/** The greet task, but the coder first makes this tool call. */
function coderFirst(call: { name: string; args: Record<string, unknown> }) {
  return (req: ScriptedRequest): ScriptedReply => {
    if (roleOf(req) !== "coder") return greetScript(req);
    const done = toolResults(req);
    if (done.length === 0) return { toolCalls: [call] };
    // The greet coder's steps, one call later.
    return greetScript({ ...req, messages: req.messages.filter((m) => m.toolCallId !== done[0]?.toolCallId) });
  };
}

/** notes.local.md is a file .gitignore keeps out of the undo baseline. */
const readsIgnoredFile = coderFirst({ name: "read_file", args: { path: "notes.local.md" } });

const fx = useReplayWorkspaces();

async function runGreet(): Promise<string> {
  const run = await runCli(["run", "Add a greet(name) function with a unit test"], { cwd: fx.ws.root, env: fx.env });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return fx.latestId();
}

/** The replay runs with no model endpoint at all: no OPENAI_* variables, nothing pointing at the scripted server. */
const offline = {};

describe("mini-cursor replay (built CLI)", () => {
  it("records every model call, then replays the session offline: same files, its test passes, exit 0", async () => {
    await fx.start(greetScript);
    const id = await runGreet();
    const db = new Database(path.join(fx.ws.root, ".mini-cursor/sessions.sqlite"), { readonly: true });
    try {
      const rows = db.prepare("SELECT role, step FROM mc_model_calls WHERE session_id = ? ORDER BY seq").all(id) as { role: string; step: string | null }[];
      expect(rows.map((r) => r.role)).toEqual(fx.server.requests.map((r) => roleOf(r)));
      expect(rows.find((r) => r.role === "coder")?.step).toBe("s1");
    } finally {
      db.close();
    }
    const requestsBefore = fx.server.requests.length;
    const { into, replay } = await fx.replayOffline(id);
    expect(replay.stderr).toBe("");
    expect(replay.stdout).toContain("The replay matched the recording");
    expect(replay.code).toBe(0);
    expect(fx.server.requests.length).toBe(requestsBefore);
    expect(await fs.readFile(path.join(into, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    expect(await fs.readFile(path.join(into, "test/greet.test.js"), "utf8")).toBe(GREET_TEST);
    // The files the session started from come from its undo baseline.
    expect(await fs.readFile(path.join(into, "package.json"), "utf8")).toBe(await fs.readFile(path.join(fx.ws.root, "package.json"), "utf8"));
    const tested = spawnSync(process.execPath, ["--test", "test/"], { cwd: into, encoding: "utf8" });
    expect(tested.status).toBe(0);
    // The original workspace is untouched by the replay, and the replay is a session of DIR.
    const listed = await runCli(["sessions", "--json"], { cwd: into, env: offline });
    expect((JSON.parse(listed.stdout) as { status: string }[])[0]?.status).toBe("done");
  });

  it("reports a divergence and exits 1 when a file the session read differs in the replay", async () => {
    await fx.start(readsIgnoredFile, { ".gitignore": "notes.local.md\n", "notes.local.md": "Greet in English.\n" });
    const id = await runGreet();
    const coderRead = fx.server.requests
      .filter((r) => roleOf(r) === "coder")
      .flatMap(toolResults)
      .find((t) => t.name === "read_file");
    expect(coderRead?.content).toContain("Greet in English.");
    const { into, replay } = await fx.replayOffline(id);
    expect(replay.stderr).toBe("");
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(/Divergence in step s1 \(coder, call \d+\): the read_file result for \S+ differs from the recording/);
    expect(replay.stdout).toContain("- ");
    expect(replay.stdout).toContain("Greet in English.");
    // It still finished: the later steps were replayed.
    expect(await fs.readFile(path.join(into, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
  });

  it("exits 1 when the replay takes another path than the recording (here: the step limit recorded with the run lowered)", async () => {
    await fx.start(greetScript);
    const id = await runGreet();
    const db = new Database(path.join(fx.ws.root, ".mini-cursor/sessions.sqlite"));
    try {
      // The settings a run had are recorded with its first call; the replay runs with them.
      const { request } = db.prepare("SELECT request FROM mc_model_calls WHERE session_id = ? AND seq = 1").get(id) as { request: Buffer };
      const first = decode<RecordedRequest>(request);
      const settings = JSON.parse(first.settings ?? "") as { limits: Record<string, number> };
      settings.limits.maxAgentRuns = 1;
      db.prepare("UPDATE mc_model_calls SET request = ? WHERE session_id = ? AND seq = 1").run(encode({ ...first, settings: JSON.stringify(settings) }), id);
    } finally {
      db.close();
    }
    const into = path.join(fx.elsewhere.root, "replayed");
    const replay = await runCli(["replay", id, "--into", into, "--workspace", fx.ws.root, "--json"], { cwd: fx.elsewhere.root, env: offline });
    expect(replay.code).toBe(1);
    const events = replay.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const summary = events.at(-1);
    expect(summary).toMatchObject({ type: "replay_finished", replayOf: id, matched: false, recordedCalls: fx.server.requests.length, divergences: [] });
    expect(Number(summary?.replayedCalls)).toBeLessThan(fx.server.requests.length);
  });

  it("replays a follow-up turn (resume --message) with the same instruction after the first turn", async () => {
    await fx.start(greetScript);
    const id = await runGreet();
    const followUp = await runCli(["resume", id, "--message", "Also check the README mentions greet"], { cwd: fx.ws.root, env: fx.env });
    expect(followUp.code).toBe(0);
    const recorded = fx.server.requests.length;
    const { replay } = await fx.replayOffline(id);
    expect(replay.stderr).toBe("");
    expect(replay.stdout).toContain("Follow-up instruction (turn 2): Also check the README mentions greet");
    expect(replay.stdout).toContain(`The replay matched the recording (${recorded} model calls)`);
    expect(replay.code).toBe(0);
    expect(fx.server.requests.length).toBe(recorded);
  });

  it("replays a session that was killed mid-step and resumed: the replay resumes where the recording did", async () => {
    let hold = true;
    let reached: () => void = () => {};
    const atThirdCoderCall = new Promise<void>((resolve) => (reached = resolve));
    await fx.start((req) => {
      if (hold && roleOf(req) === "coder" && toolResults(req).length === 2) {
        hold = false;
        reached();
        return { hangMs: 60_000 };
      }
      return greetScript(req);
    });
    const first = startCli(["run", "Add a greet(name) function with a unit test"], { cwd: fx.ws.root, env: fx.env });
    await atThirdCoderCall;
    first.child.kill("SIGKILL");
    await first.done;
    const resumed = await runCli(["resume"], { cwd: fx.ws.root, env: fx.env });
    expect(resumed.code).toBe(0);
    const id = await fx.latestId();
    const { into, replay } = await fx.replayOffline(id);
    expect(replay.stderr).toBe("");
    expect(replay.stdout).toContain("The replay matched the recording");
    expect(replay.code).toBe(0);
    expect(await fs.readFile(path.join(into, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
  });

  it("answers the session's approvals as the person did (a rejection with its reason, an approval), with stdin closed", async () => {
    // Two commands that write, so both ask (the reviewer's read-only test run would not).
    await fx.start(commandScript(["echo one > one.txt", "echo two > two.txt"]));
    const run = await runCli(["run", "Run the checks"], { cwd: fx.ws.root, env: { ...fx.env, MINI_CURSOR_APPROVAL: "ask" }, input: "n not now\ny\n" });
    expect(run.code).toBe(0);
    const coderRun = fx.server.requests
      .filter((r) => roleOf(r) === "coder")
      .flatMap(toolResults)
      .find((t) => t.name === "execute_command");
    expect(coderRun?.content).toContain("the user rejected this command: not now");
    const id = await fx.latestId();
    const { replay } = await fx.replayOffline(id);
    expect(replay.stdout).toContain("Answered from the recording: rejected (not now).");
    expect(replay.stdout).toContain("Answered from the recording: approved.");
    expect(replay.stdout).toContain("The replay matched the recording");
    expect(replay.code).toBe(0);
  });

  it("answers a sub-agent's clarifying question as the person did", async () => {
    await fx.start(coderFirst({ name: "ask_user", args: { question: "Which greeting word?" } }));
    const run = await runCli(["run", "Add a greet(name) function with a unit test"], { cwd: fx.ws.root, env: fx.env, input: "Hello\n" });
    expect(run.code).toBe(0);
    const id = await fx.latestId();
    const { replay } = await fx.replayOffline(id);
    expect(replay.stdout).toContain("Answered from the recording: Hello");
    expect(replay.stdout).toContain("The replay matched the recording");
    expect(replay.code).toBe(0);
  });

  it.each([
    ["on stdin", false],
    ["on resume after the session waited", true],
  ])("answers the planner's clarifying question as the person did (answered %s): the replay runs unattended, stdin closed", async (_, waited) => {
    await fx.start(plannerAsksFirst(greetScript));
    const task = "Add a greet(name) function with a unit test";
    const asked = await runCli(["run", task], { cwd: fx.ws.root, env: fx.env, ...(waited ? {} : { input: "2\n" }) });
    expect(asked.stdout).toContain(PLANNER_QUESTION);
    expect(asked.code).toBe(waited ? 130 : 0);
    if (waited) expect((await runCli(["resume"], { cwd: fx.ws.root, env: fx.env, input: "2\n" })).code).toBe(0);
    const id = await fx.latestId();
    const recorded = fx.server.requests.length;
    // No input: stdin is closed, so a question put to the person would end the replay with exit 130.
    const { into, replay } = await fx.replayOffline(id);
    expect(replay.stderr).toBe("");
    expect(replay.stdout).toContain("Answered from the recording: 8080");
    expect(replay.stdout).toContain(`The replay matched the recording (${recorded} model calls)`);
    expect(replay.code).toBe(0);
    expect(fx.server.requests.length).toBe(recorded);
    expect(await fs.readFile(path.join(into, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    expect(await fs.readFile(path.join(into, "test/greet.test.js"), "utf8")).toBe(GREET_TEST);
  });

  it("stops before --until STEP; the printed resume command continues with a real model", async () => {
    await fx.start(greetScript);
    const id = await runGreet();
    const into = path.join(fx.elsewhere.root, "replayed");
    const replay = await runCli(["replay", id, "--into", into, "--until", "s2"], { cwd: fx.ws.root, env: offline });
    expect(replay.stderr).toBe("");
    expect(replay.code).toBe(0);
    const hint = /Continue it with a real model: (mini-cursor resume (\S+) --workspace (\S+))/.exec(replay.stdout);
    expect(hint, replay.stdout).not.toBeNull();
    expect(hint?.[3]).toBe(into);
    // s1 was replayed (the coder's files), s2 (the review) did not run.
    expect(await fs.readFile(path.join(into, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    expect(replay.stdout).not.toContain("review: approve");
    const before = fx.server.requests.length;
    const resumed = await runCli(["resume", hint?.[2] ?? "", "--workspace", into], { cwd: fx.ws.root, env: fx.env });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("review: approve");
    expect(fx.server.requests.slice(before).some((r) => roleOf(r) === "reviewer")).toBe(true);
  });

  it("refuses bad input with exit 2: unknown session, DIR not empty, unknown step", async () => {
    await fx.start(greetScript);
    const id = await runGreet();
    const unknown = await runCli(["replay", "nope", "--into", path.join(fx.elsewhere.root, "a")], { cwd: fx.ws.root, env: offline });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no session "nope"');
    await fs.writeFile(path.join(fx.elsewhere.root, "file.txt"), "x");
    const notEmpty = await runCli(["replay", id, "--into", fx.elsewhere.root], { cwd: fx.ws.root, env: offline });
    expect(notEmpty.code).toBe(2);
    expect(notEmpty.stderr).toContain("is not empty");
    const badStep = await runCli(["replay", id, "--into", path.join(fx.elsewhere.root, "b"), "--until", "s9"], { cwd: fx.ws.root, env: offline });
    expect(badStep.code).toBe(2);
    expect(badStep.stderr).toContain('no step "s9" (its steps: s1, s2)');
  });
});
