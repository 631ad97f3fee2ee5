import { describe, expect, it } from "vitest";
import { isRateLimit } from "../../../src/agents/build-agent.js";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { ofType, runToEnd } from "../agent-harness.js";

const ws = useTempWorkspace({ "a.txt": "original\n" });

const rateLimited = () => Object.assign(new Error("429 Rate limit reached for requests"), { status: 429 });

describe("model retry (LangChain's modelRetryMiddleware, for rate limits)", () => {
  it("tells a rate limit from other failures", () => {
    expect(isRateLimit(rateLimited())).toBe(true);
    expect(isRateLimit(new Error("Rate limit exceeded"))).toBe(true);
    expect(isRateLimit(Object.assign(new Error("Bad request"), { status: 400 }))).toBe(false);
  });

  it("waits and asks again after a 429, and meters only the answer", async () => {
    const models = scriptedModels({ coder: [rateLimited(), calls({ name: "submit_work", args: { status: "done", summary: "ok" } })] });
    const started = Date.now();
    const { outcome, events } = await runToEnd(AGENT_SPECS.coder, models, { workspace: ws.root });
    // A 2 s first delay, with jitter.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(models.seen.coder).toHaveLength(2);
    expect(outcome.stopReason).toBe("finished");
    expect(ofType(events, "model_call")).toHaveLength(1);
  });

  it("does not retry other errors: the run fails at once", async () => {
    const models = scriptedModels({ coder: [Object.assign(new Error("400 Bad request: unknown model"), { status: 400 })] });
    await expect(runToEnd(AGENT_SPECS.coder, models, { workspace: ws.root })).rejects.toThrow(/unknown model/);
    expect(models.seen.coder).toHaveLength(1);
  });
});
