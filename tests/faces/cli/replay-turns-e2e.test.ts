import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type ScriptedReply, type ScriptedRequest, toolResults, userText } from "../../helpers/scripted-openai-server.js";
import { runCli, startCli } from "./cli-process.js";
import { useReplayWorkspaces } from "./replay-workspaces.js";
import { roleOf } from "./task-script.js";
import { commandScript } from "../../safety/approval-script.js";

/**
 * Issue 40: replay reproduces ordinary sessions. A turn is replayed with its own settings and answers (not the
 * settings a later `resume` left in the session's row), notes the environment adds to a tool result are not a
 * divergence, and a divergence names its step.
 */

const fx = useReplayWorkspaces();

/**
 * Turn 1 plans a coder step that writes one.txt with a command; a follow-up that says "TWO" plans one that writes
 * two.txt. The coder runs its command, then reports. Replies depend only on the request.
 */
function twoTurnCommands(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  const text = userText(req);
  if (role === "planner") {
    const followUp = /Follow-up instruction \(turn \d+\)/.test(text);
    const plan = (goal: string) => ({ toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal }], finished: false } }] });
    if (followUp && !text.includes("Did TWO")) return plan("Write TWO with a command");
    if (!followUp && text.includes("There is no plan yet")) return plan("Write ONE with a command");
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Done." } }] };
  }
  if (role === "coder") {
    const two = text.includes("Write TWO");
    if (toolResults(req).length === 0)
      return { toolCalls: [{ name: "execute_command", args: { command: two ? "echo two > two.txt" : "echo one > one.txt" } }] };
    return { toolCalls: [{ name: "submit_work", args: { status: "done", summary: two ? "Did TWO." : "Did ONE." } }] };
  }
  if (role === "reviewer") return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "ok" } }] };
  return { toolCalls: [{ name: "submit_findings", args: { summary: "nothing", findings: [] } }] };
}

/** The coder writes src/a.ts, then src/b.ts, then reports. */
function twoWrites(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  if (role === "planner") {
    if (userText(req).includes("There is no plan yet"))
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal: "Write src/a.ts and src/b.ts" }], finished: false } }] };
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Wrote them." } }] };
  }
  if (role === "coder") {
    const steps = [
      { name: "write_file", args: { path: "src/a.ts", content: "export const a = 1;\n" } },
      { name: "write_file", args: { path: "src/b.ts", content: "export const b = 2;\n" } },
      { name: "submit_work", args: { status: "done", summary: "Wrote src/a.ts and src/b.ts." } },
    ];
    return { toolCalls: [steps[Math.min(toolResults(req).length, steps.length - 1)]!] };
  }
  return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "ok" } }] };
}

/**
 * Runs `script` as a session whose coder's second call (after its first tool result) hangs once, Ctrl-C there, then
 * `resume` with `resumeArgs` (and `input` on stdin): the resumed process makes that call again and goes on.
 */
async function interruptedAndResumed(
  script: (req: ScriptedRequest) => ScriptedReply,
  o: { files?: Record<string, string>; resumeArgs?: string[]; input?: string } = {},
): Promise<string> {
  let hang: () => void = () => {};
  const hanging = new Promise<void>((resolve) => (hang = resolve));
  let hung = false;
  await fx.start((req) => {
    if (!hung && roleOf(req) === "coder" && toolResults(req).length === 1) {
      hung = true;
      hang();
      return { hangMs: 60_000 };
    }
    return script(req);
  }, o.files);
  const first = startCli(["run", "Do the step"], { cwd: fx.ws.root, env: fx.env });
  const early = await Promise.race([hanging.then(() => null), first.done]);
  if (early) throw new Error(`the run exited (${String(early.code)}) before its coder's second call: ${first.stderr()}`);
  first.child.kill("SIGINT");
  expect((await first.done).code).toBe(130);
  const resumed = await runCli(["resume", ...(o.resumeArgs ?? [])], { cwd: fx.ws.root, env: fx.env, ...(o.input !== undefined ? { input: o.input } : {}) });
  expect(resumed.stderr).toBe("");
  expect(resumed.code).toBe(0);
  return fx.latestId();
}

describe("mini-cursor replay of ordinary sessions (built CLI, issue 40)", () => {
  it("replays each turn with its own approval mode and answers: turn 1's rejection stays a rejection after `resume --message --approval auto`", async () => {
    await fx.start(twoTurnCommands);
    const run = await runCli(["run", "Write the files"], { cwd: fx.ws.root, env: { ...fx.env, MINI_CURSOR_APPROVAL: "ask" }, input: "n not now\n" });
    expect(run.code).toBe(0);
    await expect(fs.stat(path.join(fx.ws.root, "one.txt"))).rejects.toThrow();
    const id = await fx.latestId();
    const followUp = await runCli(["resume", id, "--message", "Now write TWO", "--approval", "auto"], {
      cwd: fx.ws.root,
      env: { ...fx.env, MINI_CURSOR_APPROVAL: "ask" },
    });
    expect(followUp.code, followUp.stdout + followUp.stderr).toBe(0);
    expect(await fs.readFile(path.join(fx.ws.root, "two.txt"), "utf8")).toBe("two\n");
    const recorded = fx.server.requests.length;

    const { into, replay } = await fx.replayOffline(id);
    expect(replay.stderr).toBe("");
    expect(replay.stdout).not.toContain("Divergence");
    // Turn 1 (ask mode): the command is asked about and rejected as the person did; turn 2 (auto) asks nothing.
    expect(replay.stdout).toContain("Answered from the recording: rejected (not now).");
    expect(replay.stdout).not.toContain("Answered from the recording: approved.");
    expect(replay.stdout).toContain(`The replay matched the recording (${recorded} model calls)`);
    expect(replay.code).toBe(0);
    await expect(fs.stat(path.join(into, "one.txt"))).rejects.toThrow();
    expect(await fs.readFile(path.join(into, "two.txt"), "utf8")).toBe("two\n");
  });

  it("replays a session interrupted with Ctrl-C and resumed: the diagnostics note each process adds is environment, not a divergence", async () => {
    const id = await interruptedAndResumed(twoWrites);
    // The note the first write of each process got: two in the recording, one in the replay's single process.
    const writes = fx.server.requests
      .filter((r) => roleOf(r) === "coder")
      .flatMap(toolResults)
      .filter((t) => t.name === "write_file");
    const noted = new Set(writes.filter((t) => t.content.includes("Note: no TypeScript diagnostics")).map((t) => t.toolCallId));
    expect(noted.size).toBe(2);
    // The call the Ctrl-C cut short got no answer, so it is not in the recording.
    const recorded = fx.server.requests.length - 1;

    const { into, replay } = await fx.replayOffline(id);
    expect(replay.stderr).toBe("");
    expect(replay.stdout).not.toContain("Divergence");
    expect(replay.stdout).toContain(`The replay matched the recording (${recorded} model calls)`);
    expect(replay.stdout).toContain("1 tool result differed only in what the environment adds");
    expect(replay.code).toBe(0);
    expect(await fs.readFile(path.join(into, "src/b.ts"), "utf8")).toBe("export const b = 2;\n");
  });

  it("still reports a real difference in a tool result beside the note, naming the step of a call made after the resume", async () => {
    // src/b.ts is git-ignored, so the replayed workspace does not have it: "Overwrote" in the recording, "Created" now.
    const id = await interruptedAndResumed(twoWrites, { files: { ".gitignore": "src/b.ts\n", "src/b.ts": "old\n" } });
    const { replay } = await fx.replayOffline(id);
    expect(replay.stderr).toBe("");
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(
      /Divergence in step s1 \(coder, call \d+\): the write_file result for \S+ differs from the recording:\n- Overwrote "src\/b\.ts"/,
    );
    expect(replay.stdout).toContain('+ Created "src/b.ts"');
    // The environment's note is not part of the difference.
    expect(replay.stdout).not.toMatch(/^[-+] Note: /m);
    expect(replay.stdout).toContain("1 tool result differed from the recording.");
  });
  it("replays a run resumed with other settings in the middle of a turn with those settings from where it was resumed", async () => {
    // Auto mode runs the first command; after Ctrl-C, `resume --approval ask`, and the second command is rejected.
    const id = await interruptedAndResumed(commandScript(["echo one > one.txt", "echo two > two.txt"]), {
      resumeArgs: ["--approval", "ask"],
      input: "n not now\n",
    });
    expect(await fs.readFile(path.join(fx.ws.root, "one.txt"), "utf8")).toBe("one\n");
    await expect(fs.stat(path.join(fx.ws.root, "two.txt"))).rejects.toThrow();
    const recorded = fx.server.requests.length - 1;

    const { into, replay } = await fx.replayOffline(id);
    expect(replay.stderr).toBe("");
    expect(replay.stdout).not.toContain("Divergence");
    expect(replay.stdout).toMatch(/The recorded session was resumed here \(call \d+\) with other settings: so is the replay\./);
    expect(replay.stdout).toContain("Answered from the recording: rejected (not now).");
    expect(replay.stdout).toContain(`The replay matched the recording (${recorded} model calls)`);
    expect(replay.code).toBe(0);
    expect(await fs.readFile(path.join(into, "one.txt"), "utf8")).toBe("one\n");
    await expect(fs.stat(path.join(into, "two.txt"))).rejects.toThrow();
  });
});
