import fs from "node:fs/promises";
import path from "node:path";
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { describeStop } from "../../src/core/index.js";
import { root, runGraph, useGraphWorkspace } from "./graph-workspace.js";
import { calls, finishPlan, plan, say } from "./scripted-models.js";

useGraphWorkspace();

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

describe("planner → sub-agents graph", () => {
  it("gives tool errors the model can correct: unknown tool, bad arguments, invalid JSON", async () => {
    const invalidJson = new AIMessage({
      content: "",
      tool_calls: [],
      invalid_tool_calls: [{ id: "bad_1", name: "read_file", args: "{path: oops", error: "Unexpected token", type: "invalid_tool_call" }],
    });
    const { state, seen } = await runGraph({
      planner: [plan([{ agent: "researcher", goal: "Look around" }]), finishPlan("looked")],
      researcher: [
        calls({ name: "write_file", args: { path: "evil.txt", content: "x" } }),
        calls({ name: "read_file", args: { startLine: 2 } }),
        invalidJson,
        calls({ name: "submit_findings", args: { summary: "done", findings: [] } }),
      ],
    });
    expect(state.status).toBe("done");
    await expect(fs.access(path.join(root, "evil.txt"))).rejects.toThrow();
    const lastCall = seen.researcher?.[3] ?? [];
    const errors = toolMessages(lastCall).map((m) => String(m.content));
    expect(errors[0]).toMatch(/tool "write_file" is not available to the researcher/);
    expect(errors[1]).toMatch(/^Error: invalid arguments for read_file/);
    expect(errors[2]).toMatch(/not valid JSON/);
    // Every error answers the call it belongs to, so the transcript stays valid for the API.
    const aiIds = lastCall.filter((m): m is AIMessage => AIMessage.isInstance(m)).flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
    expect(toolMessages(lastCall).map((m) => m.tool_call_id)).toEqual(aiIds);
  });

  it("stops cleanly at the sub-agent run limit and reports what was not done", async () => {
    const { state, events } = await runGraph(
      {
        planner: [
          plan([
            { agent: "researcher", goal: "Look around" },
            { agent: "coder", goal: "Change things" },
          ]),
          plan([{ agent: "coder", goal: "Change things" }]),
        ],
        researcher: [calls({ name: "submit_findings", args: { summary: "seen", findings: [] } })],
      },
      { maxAgentRuns: 1 },
    );
    expect(state.status).toBe("limit_reached");
    expect(state.stop).toMatchObject({ kind: "agent_runs" });
    expect(state.plan.map((s) => s.status)).toEqual(["done", "skipped"]);
    expect(state.finalReport).toMatch(/Not done:[\s\S]*Change things/);
    expect(events.events.some((e) => e.type === "limit_reached")).toBe(true);
  });

  it("stops a sub-agent at its model-call limit and lets the planner decide", async () => {
    const { state } = await runGraph(
      {
        planner: [plan([{ agent: "researcher", goal: "Look around" }]), finishPlan("gave up", "failed")],
        researcher: [calls({ name: "list_directory", args: {} }), calls({ name: "list_directory", args: {} })],
      },
      { maxModelCallsPerRun: 2 },
    );
    expect(state.plan[0]).toMatchObject({ status: "failed" });
    expect(state.plan[0]?.result).toMatch(/model-call limit/);
    expect(state.status).toBe("failed");
  });

  it("reminds a reviewer that answers in prose, then records a missing verdict", async () => {
    const { state, seen } = await runGraph({
      planner: [plan([{ agent: "reviewer", goal: "Review" }]), finishPlan("no verdict", "failed")],
      reviewer: [say("Looks fine to me."), say("Still fine.")],
    });
    expect(String(seen.reviewer?.[1]?.at(-1)?.content)).toMatch(/must end by calling the submit_review tool/);
    expect(state.plan[0]?.result).toMatch(/without a verdict/);
  });

  it("asks the planner again when its plan fails validation", async () => {
    const { state, seen } = await runGraph({
      planner: [calls({ name: "update_plan", args: { remainingSteps: [{ agent: "wizard", goal: "magic" }] } }), finishPlan("nothing to do")],
    });
    expect(state.status).toBe("done");
    // LangChain's structured output validated the call and sent the error back as the call's result.
    expect(toolMessages(seen.planner?.[1] ?? []).map((m) => String(m.content))[0]).toBe(
      'Error: invalid update_plan arguments (Instance does not match any of ["researcher","coder","reviewer"]). Call update_plan again with valid arguments.',
    );
  });

  it("enforces a final review when the planner wants to finish with unreviewed changes", async () => {
    const { state } = await runGraph({
      planner: [plan([{ agent: "coder", goal: "Write a file" }]), finishPlan("done"), finishPlan("reviewed")],
      coder: [
        calls({ name: "write_file", args: { path: "a.txt", content: "a" } }),
        calls({ name: "submit_work", args: { status: "done", summary: "wrote a.txt" } }),
      ],
      reviewer: [calls({ name: "submit_review", args: { decision: "approve", summary: "fine" } })],
    });
    expect(state.plan.map((s) => s.agent)).toEqual(["coder", "reviewer"]);
    expect(state.status).toBe("done");
  });

  it("ends the session when the enforced final review ends without a verdict twice, instead of adding it until the run limit", async () => {
    // A planner that always wants to finish and a reviewer that always answers in prose: before, the final review was
    // added again after every verdict-less review until the 20 sub-agent runs were used.
    const { state, events, seen } = await runGraph({
      planner: [plan([{ agent: "coder", goal: "Write a file" }]), ...Array.from({ length: 25 }, () => finishPlan("done"))],
      coder: [
        calls({ name: "write_file", args: { path: "a.txt", content: "a" } }),
        calls({ name: "submit_work", args: { status: "done", summary: "wrote a.txt" } }),
      ],
      reviewer: Array.from({ length: 50 }, () => say("Looks fine to me.")),
    });
    const started = events.events.flatMap((e) => (e.type === "step_started" ? [e.agent] : []));
    expect(started).toEqual(["coder", "reviewer", "reviewer"]);
    expect(state.status).toBe("failed");
    expect(state.stop).toMatchObject({ kind: "no_verdict" });
    expect(describeStop(state.stop)).toMatch(/^no review verdict: the reviewer ended 2 reviews in a row without a verdict/);
    // Two reviews of two model calls each (the prose answer and the one reminder); the planner is not asked a third time.
    expect(seen.reviewer).toHaveLength(4);
    // The first plan, after the coder, after the first review: not after the second.
    expect(seen.planner).toHaveLength(3);
    expect(state.counters.agentRuns).toBe(3);
  });

  it("a verdict resets the count: one verdict-less review, a verdict, then one more verdict-less review goes on", async () => {
    const { state, events } = await runGraph({
      planner: [
        plan([{ agent: "coder", goal: "Write a file" }]),
        plan([{ agent: "reviewer", goal: "Review it" }]),
        plan([{ agent: "reviewer", goal: "Review it again" }]),
        plan([{ agent: "reviewer", goal: "Review it once more" }]),
        finishPlan("reviewed"),
      ],
      coder: [
        calls({ name: "write_file", args: { path: "a.txt", content: "a" } }),
        calls({ name: "submit_work", args: { status: "done", summary: "wrote a.txt" } }),
      ],
      reviewer: [
        say("Fine."),
        say("Still fine."),
        calls({ name: "submit_review", args: { decision: "approve", summary: "fine" } }),
        say("Fine."),
        say("Still fine."),
      ],
    });
    expect(events.events.flatMap((e) => (e.type === "step_started" ? [e.agent] : []))).toEqual(["coder", "reviewer", "reviewer", "reviewer"]);
    expect(state.status).toBe("done");
    expect(state.reviewsWithoutVerdict).toBe(1);
  });
});
