import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, limitsOf, safetyOf } from "../../src/core/index.js";
import { settingsMemo } from "../../src/core/settings-memo.js";

describe("settingsMemo", () => {
  it("parses a settings object once while the fallback holds the same values", () => {
    let parses = 0;
    const memo = settingsMemo((raw: object, fallback: { a: number; list: string[] }) => {
      parses += 1;
      return { ...fallback, ...raw };
    });
    const raw = { a: 2 };
    const first = memo(raw, { a: 1, list: ["x"] });
    expect(memo(raw, { a: 1, list: ["x"] })).toBe(first);
    expect(parses).toBe(1);
    // A fallback with other values, or another settings object, is parsed again.
    expect(memo(raw, { a: 1, list: ["y"] })).toEqual({ a: 2, list: ["y"] });
    expect(memo({ a: 3 }, { a: 1, list: ["y"] })).toEqual({ a: 3, list: ["y"] });
    expect(parses).toBe(3);
  });

  it("parses again after the settings object was changed in place (an editor's mode switch does that)", () => {
    let parses = 0;
    const memo = settingsMemo((raw: object, fallback: { approval: string }) => {
      parses += 1;
      return { ...fallback, ...raw };
    });
    const raw: { approval: string } = { approval: "ask" };
    const fallback = { approval: "ask" };
    expect(memo(raw, fallback).approval).toBe("ask");
    raw.approval = "auto";
    expect(memo(raw, fallback).approval).toBe("auto");
    fallback.approval = "read-only";
    expect(memo(raw, fallback)).toEqual({ approval: "auto" });
    expect(parses).toBe(3);
    expect(memo(raw, fallback)).toEqual({ approval: "auto" });
    expect(parses).toBe(3);
  });
});

describe("limitsOf and safetyOf with remembered answers", () => {
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
