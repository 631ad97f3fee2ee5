import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, limitsOf, safetyOf } from "../../src/core/index.js";

describe("limitsOf and safetyOf", () => {
  it("give the same answers as a fresh parse, for the fallback they are given each time", () => {
    const configurable = { limits: { maxPromptTokens: 9_000 }, safety: { approval: "auto" } };
    expect(limitsOf(configurable, DEFAULT_LIMITS).maxPromptTokens).toBe(9_000);
    expect(limitsOf(configurable, { ...DEFAULT_LIMITS, maxModelCallsPerRun: 7 })).toEqual({
      ...DEFAULT_LIMITS,
      maxModelCallsPerRun: 7,
      maxPromptTokens: 9_000,
    });
    expect(limitsOf(configurable, DEFAULT_LIMITS).maxModelCallsPerRun).toBe(DEFAULT_LIMITS.maxModelCallsPerRun);
    expect(safetyOf(configurable, DEFAULT_SAFETY).approval).toBe("auto");
    expect(safetyOf(configurable, { ...DEFAULT_SAFETY, deny: ["rm *"] })).toEqual({ ...DEFAULT_SAFETY, approval: "auto", deny: ["rm *"] });
    const policy = { approval: "ask" };
    const live = { safety: policy };
    expect(safetyOf(live, DEFAULT_SAFETY).approval).toBe("ask");
    policy.approval = "auto";
    expect(safetyOf(live, DEFAULT_SAFETY).approval).toBe("auto");
    // Malformed settings still fall back, each time.
    const bad = { limits: { maxPromptTokens: -1 } };
    expect(limitsOf(bad, DEFAULT_LIMITS)).toBe(DEFAULT_LIMITS);
    expect(limitsOf(bad, { ...DEFAULT_LIMITS, maxQuestions: 1 }).maxQuestions).toBe(1);
  });
});
