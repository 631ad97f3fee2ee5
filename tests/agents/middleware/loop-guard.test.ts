import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { ofType, runToEnd, text, toolMessages } from "../agent-harness.js";

const ws = useTempWorkspace({ "a.txt": "original\n" });

const coder = AGENT_SPECS.coder;
const done = () => calls({ name: "submit_work", args: { status: "done", summary: "ok" } });
const readA = () => calls({ name: "read_file", args: { path: "a.txt" } });

describe("loop-guard middleware", () => {
  it("warns on the second identical call and stops the run on the third", async () => {
    const models = scriptedModels({ coder: [readA(), readA(), readA(), done()] });
    const { final, outcome, events } = await runToEnd(coder, models, { workspace: ws.root, maxModelCalls: 10 });
    const results = toolMessages(final.messages);
    expect(results).toHaveLength(3);
    expect(text(results[0])).not.toContain("Note:");
    expect(text(results[0])).toContain("original");
    expect(text(results[1])).toContain("original");
    expect(text(results[1])).toContain("Note: you already made this exact read_file call and nothing has changed since");
    expect(results[1]?.status).not.toBe("error");
    expect(text(results[2])).toBe(
      "Error: not run: you repeated read_file with the same arguments 3 times without changing anything, so this run is stopped and the planner will decide what to do next.",
    );
    expect(results[2]?.status).toBe("error");
    // The run ends there: the finish reply is never asked for.
    expect(models.seen.coder).toHaveLength(3);
    expect(outcome.stopReason).toBe("loop");
    expect(outcome.stopDetail).toBe("repeated read_file with the same arguments 3 times without changing anything");
    expect(final.stop).toEqual({ kind: "loop", detail: outcome.stopDetail });
    expect(ofType(events, "limit_reached")).toEqual([{ type: "limit_reached", limit: "loop", detail: `coder s1: ${outcome.stopDetail}` }]);
    expect(results.filter((m) => text(m).includes("Note: you already made"))).toHaveLength(1);
  });

  it("forgets repeats after a successful file change", async () => {
    const models = scriptedModels({
      coder: [readA(), readA(), calls({ name: "write_file", args: { path: "a.txt", content: "changed\n" } }), readA(), done()],
    });
    const { final, outcome } = await runToEnd(coder, models, { workspace: ws.root, maxModelCalls: 10 });
    expect(outcome.stopReason).toBe("finished");
    expect(text(toolMessages(final.messages)[3])).toContain("changed");
  });

  it("stops the same write_file repeated 25 times after one warning: copies of a write change nothing", async () => {
    const write = () => calls({ name: "write_file", args: { path: "data.txt", content: "row\n".repeat(10_000) } });
    const models = scriptedModels({ coder: [...Array.from({ length: 25 }, write), done()] });
    const { final, outcome, events } = await runToEnd(coder, models, { workspace: ws.root, maxModelCalls: 30 });
    const results = toolMessages(final.messages);
    expect(results.map((m) => m.name)).toEqual(["write_file", "write_file", "write_file"]);
    expect(text(results[0])).toMatch(/^Created "data.txt"/);
    expect(text(results[1])).toContain("already has exactly this content");
    expect(text(results[1])).toContain("Note: you already made this exact write_file call and nothing has changed since");
    expect(text(results[2])).toBe(
      "Error: not run: you repeated write_file with the same arguments 3 times without changing anything, so this run is stopped and the planner will decide what to do next.",
    );
    expect(models.seen.coder).toHaveLength(3);
    expect(outcome.stopReason).toBe("loop");
    expect(ofType(events, "limit_reached")).toHaveLength(1);
  });

  it("warns after four failed calls in a row and stops at the sixth", async () => {
    const missing = Array.from({ length: 6 }, (_, i) => calls({ name: "read_file", args: { path: `missing-${i}.txt` } }));
    const models = scriptedModels({ coder: [...missing, done()] });
    const { final, outcome, events } = await runToEnd(coder, models, { workspace: ws.root, maxModelCalls: 20 });
    const results = toolMessages(final.messages);
    expect(results).toHaveLength(6);
    expect(results.every((m) => m.status === "error")).toBe(true);
    const noted = results.map((m) => text(m).includes("Note: your last"));
    expect(noted).toEqual([false, false, false, true, false, false]);
    expect(text(results[3])).toContain("Note: your last 4 tool calls all failed.");
    expect(models.seen.coder).toHaveLength(6);
    expect(outcome.stopReason).toBe("loop");
    expect(outcome.stopDetail).toBe("6 tool calls in a row failed");
    expect(ofType(events, "limit_reached")).toHaveLength(1);
  });

  it("runs the calls of one reply one after another, in order", async () => {
    const models = scriptedModels({
      coder: [
        calls(
          { name: "write_file", args: { path: "b.txt", content: "first version\n" } },
          { name: "read_file", args: { path: "b.txt" } },
          { name: "edit_file", args: { path: "b.txt", oldText: "first", newText: "second" } },
          { name: "read_file", args: { path: "b.txt", startLine: 1 } },
        ),
        done(),
      ],
    });
    const { final, outcome } = await runToEnd(coder, models, { workspace: ws.root });
    expect(outcome.stopReason).toBe("finished");
    const results = toolMessages(final.messages);
    expect(results.map((m) => m.name)).toEqual(["write_file", "read_file", "edit_file", "read_file", "submit_work"]);
    expect(text(results[1])).toContain("first version");
    expect(text(results[3])).toContain("second version");
    expect(await fs.readFile(path.join(ws.root, "b.txt"), "utf8")).toBe("second version\n");
  });

  it('answers the calls after a stop in the same reply with "not run"', async () => {
    const models = scriptedModels({
      coder: [
        calls(
          { name: "read_file", args: { path: "a.txt" } },
          { name: "read_file", args: { path: "a.txt" } },
          { name: "read_file", args: { path: "a.txt" } },
          { name: "write_file", args: { path: "c.txt", content: "should not exist\n" } },
        ),
        done(),
      ],
    });
    const { final, outcome } = await runToEnd(coder, models, { workspace: ws.root });
    expect(outcome.stopReason).toBe("loop");
    const results = toolMessages(final.messages);
    expect(results).toHaveLength(4);
    expect(text(results[2])).toMatch(/^Error: not run: you repeated read_file/);
    expect(text(results[3])).toBe("Error: not run: this run was stopped (repeated read_file with the same arguments 3 times without changing anything).");
    expect(results[3]?.status).toBe("error");
    expect(await ws.exists("c.txt")).toBe(false);
    expect(models.seen.coder).toHaveLength(1);
  });
});
