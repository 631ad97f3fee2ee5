import { describe, expect, it } from "vitest";
import { AgentRunState, ModelCallState } from "../../src/agents/run.js";

describe("ModelCallState", () => {
  it("is the run state without the transcript, field for field the same definitions", () => {
    const run = AgentRunState.fields as Record<string, unknown>;
    const wrap = ModelCallState.fields as Record<string, unknown>;
    expect(Object.keys(wrap)).toEqual(Object.keys(run).filter((k) => k !== "messages"));
    // The same objects: the agent's merged state gets one definition per channel, whichever middleware declares it.
    for (const key of Object.keys(wrap)) expect(wrap[key]).toBe(run[key]);
  });
});
