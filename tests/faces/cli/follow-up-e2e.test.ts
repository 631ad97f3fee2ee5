import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useHangingCoderSession } from "./hanging-session.js";
import { userText } from "../../helpers/scripted-openai-server.js";
import { FAREWELL_SOURCE } from "./follow-up-script.js";
import { GREET_SOURCE, roleOf } from "./task-script.js";

/**
 * `resume --message` gives a session a follow-up instruction: a new turn of the same session, whose planner sees the
 * instruction with the original task and the work already done. The built CLI against a scripted server.
 */
const { session, cli, rows, startStuckRun } = useHangingCoderSession();

describe("resume --message continues a session with a follow-up instruction", () => {
  it("a finished session: the planner sees the new instruction and the earlier work; same id, two turns", async () => {
    const first = await cli(["run", "Add greet with a test"]);
    expect(first.code).toBe(0);
    const [before] = await rows();
    expect(before).toMatchObject({ status: "done", turns: 1, latestInstruction: null });

    const start = session.server.requests.length;
    const followUp = await cli(["resume", "--message", "Also add farewell(name) in src/farewell.js"]);
    expect(followUp.stderr).toBe("");
    expect(followUp.code).toBe(0);
    expect(followUp.stdout).toContain("Follow-up instruction (turn 2): Also add farewell(name) in src/farewell.js");
    const after = session.server.requests.slice(start);
    const planner = after[0];
    expect(planner && roleOf(planner)).toBe("planner");
    const context = planner ? userText(planner) : "";
    // The original task, the new instruction, how the first turn ended, the files it changed and its plan.
    expect(context).toContain("Task: Add greet with a test");
    expect(context).toContain("Follow-up instruction (turn 2): Also add farewell(name) in src/farewell.js");
    expect(context).toContain("previous turn ended (done: greet() and its test are written; the tests pass.)");
    expect(context).toMatch(/Files changed so far: .*src\/greet\.js/);
    expect(context).toMatch(/- s1 \[coder\] done: Create src\/greet\.js/);
    expect(context).toContain("Latest review (s2): approve");
    expect(context).not.toContain("There is no plan yet");
    expect(await fs.readFile(path.join(session.root, "src/farewell.js"), "utf8")).toBe(FAREWELL_SOURCE);
    expect(await fs.readFile(path.join(session.root, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);

    const listed = await rows();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: before?.id, status: "done", turns: 2, latestInstruction: "Also add farewell(name) in src/farewell.js" });
    const table = (await cli(["sessions"])).stdout;
    expect(table).toMatch(/TURNS/);
    expect(table).toMatch(new RegExp(`${before?.id ?? "?"} +done .* 2 {2}Add greet with a test → Also add farewell`));
  });

  it("limits count per turn: a session stopped by --max-steps runs an agent again after a follow-up", async () => {
    const stopped = await cli(["run", "--max-steps", "1", "Add greet with a test"]);
    expect(stopped.code).toBe(1);
    expect((await rows())[0]?.status).toBe("limit_reached");
    const start = session.server.requests.length;
    const followUp = await cli(["resume", "-m", "Now add farewell(name)"]);
    expect(followUp.stderr).toBe("");
    expect(followUp.code).toBe(0);
    const after = session.server.requests.slice(start);
    expect(after.some((r) => roleOf(r) === "coder")).toBe(true);
    expect(userText(after[0]!)).toContain("previous turn ended (limit_reached: sub-agent runs: the limit of 1 runs was reached");
    expect(await fs.readFile(path.join(session.root, "src/farewell.js"), "utf8")).toBe(FAREWELL_SOURCE);
    expect((await rows())[0]).toMatchObject({ status: "done", turns: 2 });
  });

  it("a session interrupted mid-step: the step left pending is dropped, the planner plans the follow-up first", async () => {
    const { run } = await startStuckRun();
    run.child.kill("SIGTERM");
    expect((await run.done).code).toBe(130);
    expect((await rows())[0]?.status).toBe("interrupted");

    const start = session.server.requests.length;
    const followUp = await cli(["resume", "--model", "good", "-m", "Forget greet; add farewell(name) instead"]);
    expect(followUp.stderr).toBe("");
    expect(followUp.code).toBe(0);
    const after = session.server.requests.slice(start);
    expect(roleOf(after[0]!)).toBe("planner");
    const context = userText(after[0]!);
    expect(context).toContain("previous turn ended (interrupted before it finished)");
    // The killed step is open again (not "in_progress" forever), and the planner replaced it.
    expect(context).toMatch(/- s1 \[coder\] pending: Create src\/greet\.js/);
    expect(after.filter((r) => roleOf(r) === "coder").every((r) => userText(r).includes("farewell"))).toBe(true);
    expect(await fs.readFile(path.join(session.root, "src/farewell.js"), "utf8")).toBe(FAREWELL_SOURCE);
    await expect(fs.stat(path.join(session.root, "src/greet.js"))).rejects.toThrow();
    expect((await rows())[0]).toMatchObject({ status: "done", turns: 2 });
  });

  it("a session waiting for an approval is refused with one line: answer it first", async () => {
    const waiting = await cli(["run", "--approval", "ask", "Add greet with a test"]);
    expect(waiting.code).toBe(130);
    const [row] = await rows();
    expect(row?.status).toBe("awaiting_approval");
    const start = session.server.requests.length;
    const refused = await cli(["resume", "-m", "Also add farewell"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `mini-cursor: session ${row?.id ?? "?"} is waiting for an answer (awaiting_approval); answer it first with: mini-cursor resume ${row?.id ?? "?"}, then give the follow-up\n`,
    );
    expect(session.server.requests.length).toBe(start);
    expect((await rows())[0]).toMatchObject({ status: "awaiting_approval", turns: 1, latestInstruction: null });
  });

  it("a done session without --message says how to give it one; an empty instruction is one clear line (exit 2)", async () => {
    expect((await cli(["run", "Add greet with a test"])).code).toBe(0);
    const done = await cli(["resume"]);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(
      /already finished \(done\); nothing to resume\. Give it a follow-up instruction with: mini-cursor resume \S+ --message "\.\.\."/,
    );
    const empty = await cli(["resume", "-m", "  "]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe("mini-cursor: --message needs an instruction, got an empty one\n");
  });
});
