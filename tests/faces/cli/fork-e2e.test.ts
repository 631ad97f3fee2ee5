import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useHangingCoderSession } from "./hanging-session.js";
import { userText } from "../../helpers/scripted-openai-server.js";
import { SHOUT_SOURCE } from "./follow-up-script.js";
import { snapshotOf } from "./session-snapshot.js";

/**
 * `fork SESSION` copies a session (index row, checkpoint history, undo records) into a new id; a follow-up on the
 * fork leaves the original exactly as it was. The built CLI against a scripted server.
 */
const { session, cli, rows, startStuckRun } = useHangingCoderSession();

describe("fork copies a session into a new id", () => {
  it("a fork resumed with another instruction changes only the fork: the original's row, checkpoints and diff stay byte-identical", async () => {
    expect((await cli(["run", "Add greet with a test"])).code).toBe(0);
    const [original] = await rows();
    const id = original?.id ?? "";
    const before = snapshotOf(session.root, id);
    expect((before.checkpoints as unknown[]).length).toBeGreaterThan(3);
    expect(before.refs).toMatch(/refs\/mini-cursor\/.*\/after/);
    const diffBefore = await cli(["diff", id]);

    const forked = await cli(["fork", id, "--json"]);
    expect(forked.stderr).toBe("");
    expect(forked.code).toBe(0);
    const out = JSON.parse(forked.stdout) as { type: string; from: string; id: string; checkpoints: number; undo: boolean; resume: string };
    expect(out).toMatchObject({ type: "session_forked", from: id, undo: true, checkpoints: (before.checkpoints as unknown[]).length });
    expect(out.id).not.toBe(id);
    expect(out.resume).toBe(`mini-cursor resume ${out.id} --message "..."`);
    // The copy has the same history and the same changes.
    expect((await cli(["diff", out.id])).stdout).toBe(diffBefore.stdout.replace(id, out.id));
    const copy = snapshotOf(session.root, out.id);
    expect((copy.checkpoints as unknown[]).length).toBe((before.checkpoints as unknown[]).length);
    expect((copy.writes as unknown[]).length).toBe((before.writes as unknown[]).length);
    // The recorded model calls come along, byte for byte.
    expect((before.calls as unknown[]).length).toBeGreaterThan(5);
    expect(copy.calls).toEqual(before.calls);

    const start = session.server.requests.length;
    const followUp = await cli(["resume", out.id, "-m", "Add shout(name) in src/shout.js"]);
    expect(followUp.stderr).toBe("");
    expect(followUp.code).toBe(0);
    // The fork's planner sees the original's work (its plan and files) with the new instruction.
    const context = userText(session.server.requests[start]!);
    expect(context).toContain("Follow-up instruction (turn 2): Add shout(name) in src/shout.js");
    expect(context).toMatch(/- s1 \[coder\] done: Create src\/greet\.js/);
    expect(context).toMatch(/Files changed so far: .*src\/greet\.js/);
    expect(await fs.readFile(path.join(session.root, "src/shout.js"), "utf8")).toBe(SHOUT_SOURCE);

    // The original is untouched: same bytes in the database and the undo store, same diff (no shout.js).
    expect(snapshotOf(session.root, id)).toEqual(before);
    const diffAfter = await cli(["diff", id]);
    expect(diffAfter.stdout).toBe(diffBefore.stdout);
    expect(diffAfter.stdout).not.toContain("shout");
    expect((await cli(["diff", out.id])).stdout).toContain("src/shout.js");
    const listed = await rows();
    expect(listed.find((r) => r.id === id)).toMatchObject({ status: "done", turns: 1, latestInstruction: null });
    expect(listed.find((r) => r.id === out.id)).toMatchObject({
      status: "done",
      task: "Add greet with a test",
      turns: 2,
      latestInstruction: "Add shout(name) in src/shout.js",
    });
  });

  it("prints the new id and the command to continue it", async () => {
    expect((await cli(["run", "Add greet with a test"])).code).toBe(0);
    const id = (await rows())[0]?.id ?? "";
    const forked = await cli(["fork", id]);
    expect(forked.code).toBe(0);
    expect(forked.stdout).toMatch(
      new RegExp(
        `^Forked session ${id} into (\\S+) \\(\\d+ checkpoints, its undo records\\)\\.\\nContinue the copy with: mini-cursor resume \\1 --message "\\.\\.\\."\\n$`,
      ),
    );
  });

  it("a running session is refused with one line (its last checkpoint may be a step behind); stopped, it can be forked", async () => {
    const { run, id } = await startStuckRun();
    try {
      const refused = await cli(["fork", id]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        new RegExp(`^mini-cursor: session ${id} is running in process \\d+; fork it once it has stopped \\(Ctrl-C stops it, its progress is kept\\)\n$`),
      );
      expect(await rows()).toHaveLength(1);
      run.child.kill("SIGTERM");
      expect((await run.done).code).toBe(130);
      const forked = await cli(["fork", id]);
      expect(forked.code).toBe(0);
      expect(await rows()).toHaveLength(2);
    } finally {
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
    }
  });

  it("a session waiting for an approval: the fork waits for the same approval, answered without a new model call", async () => {
    const waiting = await cli(["run", "--approval", "ask", "Add greet with a test"]);
    expect(waiting.code).toBe(130);
    const [original] = await rows();
    expect(original?.status).toBe("awaiting_approval");
    const before = snapshotOf(session.root, original?.id ?? "");
    const out = JSON.parse((await cli(["fork", original?.id ?? "", "--json"])).stdout) as { id: string };
    expect((await rows()).find((r) => r.id === out.id)?.status).toBe("awaiting_approval");

    const start = session.server.requests.length;
    // Yes to the coder's test run and to the reviewer's.
    const answered = await session.cli(["resume", out.id, "--json"], "y\ny\ny\n");
    expect(answered.code).toBe(0);
    const events = answered.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; subject?: string });
    // The same question (the test command the coder wanted to run) comes first, before any model call.
    const asked = events.findIndex((e) => e.type === "approval_requested");
    expect(events[asked]?.subject).toBe("node --test test/");
    expect(events.slice(0, asked).some((e) => e.type === "model_call")).toBe(false);
    expect(session.server.requests.length).toBeGreaterThan(start);
    expect(snapshotOf(session.root, original?.id ?? "")).toEqual(before);
    expect((await rows()).find((r) => r.id === original?.id)?.status).toBe("awaiting_approval");
  });

  it("a bogus session id is one clear line, exit 2", async () => {
    expect((await cli(["run", "Add greet with a test"])).code).toBe(0);
    const bogus = await cli(["fork", "no-such-session"]);
    expect(bogus.code).toBe(2);
    expect(bogus.stdout).toBe("");
    expect(bogus.stderr).toBe(`mini-cursor: no session "no-such-session" in ${await fs.realpath(session.root)} (see mini-cursor sessions)\n`);
    const none = await cli(["fork"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe("mini-cursor: fork needs the session to copy (see mini-cursor sessions)\n");
  });
});
