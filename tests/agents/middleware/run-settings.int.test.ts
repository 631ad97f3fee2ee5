import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Command } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { DEFAULT_SAFETY } from "../../../src/core/index.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { agentHarness, text, toolMessages } from "../agent-harness.js";

/**
 * A session resumed with new settings gives the run it stopped in a new runtime context (src/graph/nodes/sub-agent.ts
 * makes it from the run's configurable settings every time it runs the agent): the agent must work by the context it
 * is given now, never by one it was started with.
 */
const ws = useTempWorkspace({ "a.txt": "original\n" });

const coder = AGENT_SPECS.coder;
const done = () => calls({ name: "submit_work", args: { status: "done", summary: "ok" } });

describe("the run's context as given when it resumes", () => {
  it("keeps a pending approval pending under a new configurable policy (marked modeOnly for the face to answer), and judges the next call under it", async () => {
    const models = scriptedModels({
      coder: [
        calls({ name: "execute_command", args: { command: "touch one.txt" } }),
        calls({ name: "execute_command", args: { command: "touch two.txt" } }),
        done(),
      ],
    });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask" } });
    const paused = await h.start();
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({ kind: "command", subject: "touch one.txt", modeOnly: true });

    // Resumed without an answer, as `resume --approval auto` does: the recorded decision is not judged again.
    const auto = { ...h.config, context: { ...h.context, safety: { ...DEFAULT_SAFETY, approval: "auto" as const } } };
    const again = await h.agent.invoke(null, auto);
    expect(again.__interrupt__?.[0]?.value).toMatchObject({ kind: "command", subject: "touch one.txt", modeOnly: true });
    expect(await ws.exists("one.txt")).toBe(false);
    // The face answers it from the mode (src/host/session-runner.ts); the next command is judged under auto: unasked.
    const final = await h.agent.invoke(new Command({ resume: { decision: "approve" } }), auto);
    expect(final.__interrupt__).toBeUndefined();
    expect(h.outcome(final).stopReason).toBe("finished");
    expect(await ws.exists("one.txt")).toBe(true);
    expect(await ws.exists("two.txt")).toBe(true);
  });

  it("applies a deny rule of the configurable policy to the next call, not to a pending one a person still decides", async () => {
    const models = scriptedModels({
      coder: [
        calls({ name: "execute_command", args: { command: "touch pending.txt" } }),
        calls({ name: "execute_command", args: { command: "touch forbidden.txt" } }),
        done(),
      ],
    });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask" } });
    await h.start();
    const policy = { ...DEFAULT_SAFETY, approval: "auto" as const, deny: ["touch forbidden*"] };
    const final = await h.agent.invoke(new Command({ resume: { decision: "reject", reason: "not now" } }), {
      ...h.config,
      context: { ...h.context, safety: policy },
    });
    expect(final.__interrupt__).toBeUndefined();
    expect(await ws.exists("pending.txt")).toBe(false);
    expect(await ws.exists("forbidden.txt")).toBe(false);
    expect(text(toolMessages(final.messages)[0])).toContain("the user rejected this command: not now");
    expect(text(toolMessages(final.messages)[1])).toContain('this is not allowed: This command matches the deny rule "touch forbidden*"');
  });

  it("asks when the context's policy says ask", async () => {
    const models = scriptedModels({ coder: [calls({ name: "execute_command", args: { command: "touch one.txt" } }), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "auto" } });
    h.config.context = { ...h.context, safety: { ...DEFAULT_SAFETY, approval: "ask" } };
    const paused = await h.start();
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({ kind: "command", subject: "touch one.txt" });
    expect(await ws.exists("one.txt")).toBe(false);
  });

  it("stops the run at the context's model-call limit", async () => {
    const models = scriptedModels({
      coder: [calls({ name: "read_file", args: { path: "a.txt" } }), calls({ name: "read_file", args: { path: "a.txt" } }), done()],
    });
    const h = agentHarness(coder, models, { workspace: ws.root, maxModelCalls: 5 });
    h.config.context = { ...h.context, maxModelCalls: 1 };
    const final = await h.start();
    expect(h.outcome(final).stopReason).toBe("call_limit");
    expect(models.seen.coder).toHaveLength(1);
  });

  it("works in the context's folder when it resumes (a session resumed in another checkout), not the one it started in", async () => {
    const models = scriptedModels({
      coder: [
        calls({ name: "execute_command", args: { command: "touch ran-here.txt" } }),
        calls({ name: "write_file", args: { path: "moved.txt", content: "written after the move\n" } }),
        calls({ name: "read_file", args: { path: "a.txt" } }),
        done(),
      ],
    });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask" } });
    const paused = await h.start();
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({ kind: "command", subject: "touch ran-here.txt" });
    // The other checkout: the same project, another folder; the first one is gone.
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "mc-run-settings-other-"));
    try {
      fs.writeFileSync(path.join(other, "a.txt"), "the other checkout\n");
      const moved = { ...h.config, context: { ...h.context, workspace: other, safety: { ...DEFAULT_SAFETY, approval: "auto" as const } } };
      const final = await h.agent.invoke(new Command({ resume: { decision: "approve" } }), moved);
      expect(h.outcome(final).stopReason).toBe("finished");
      expect(fs.existsSync(path.join(other, "ran-here.txt"))).toBe(true);
      expect(fs.readFileSync(path.join(other, "moved.txt"), "utf8")).toBe("written after the move\n");
      expect(await ws.exists("ran-here.txt")).toBe(false);
      expect(await ws.exists("moved.txt")).toBe(false);
      expect(text(toolMessages(final.messages)[2])).toContain("the other checkout");
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
