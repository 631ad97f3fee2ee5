import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, DEFAULT_SAFETY } from "../../src/core/index.js";
import { withConversationSettings } from "../../src/host/conversation-settings.js";

describe("a conversation's settings kept with its session", () => {
  it("applies the face's settings over the stored options: mode, network, file changes, budget in dollars, model", () => {
    const base = { limits: DEFAULT_LIMITS, commandTimeoutMs: 1, budget: { usd: 2, tokens: 500 }, model: "old" };
    const safety = { ...DEFAULT_SAFETY, deny: ["rm *"] };
    const next = withConversationSettings(base, safety, { approval: "read-only", allowNetwork: true, approveFileChanges: true, budgetUsd: null });
    expect(next).toEqual({
      ...base,
      safety: { ...safety, approval: "read-only", allowNetwork: true, approveFileChanges: true },
      budget: { tokens: 500 },
      model: "old",
    });
    const chosen = withConversationSettings(next, DEFAULT_SAFETY, {
      approval: "auto",
      allowNetwork: false,
      approveFileChanges: false,
      budgetUsd: 5,
      model: "new",
    });
    // The stored policy is kept under the settings (its deny rule), not the configured one.
    expect(chosen).toMatchObject({ safety: { approval: "auto", deny: ["rm *"] }, budget: { tokens: 500, usd: 5 }, model: "new" });
  });
});
