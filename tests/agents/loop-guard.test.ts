import { describe, expect, it } from "vitest";
import { afterCall, beforeCall, callSignature, type LoopGuardState } from "../../src/agents/loop-guard.js";

const fresh = (): LoopGuardState => ({ callCounts: {}, failStreak: 0, warned: false });

describe("loop guard", () => {
  it("signs calls by name and arguments, whatever the key order", () => {
    expect(callSignature("read_file", { path: "a", startLine: 1 })).toBe(callSignature("read_file", { startLine: 1, path: "a" }));
    expect(callSignature("read_file", { path: "a" })).not.toBe(callSignature("read_file", { path: "b" }));
  });

  it("warns once on a repeated identical call, then stops at the third", () => {
    const g = fresh();
    expect(beforeCall(g, "execute_command", { command: "npm test" })).toEqual({ kind: "ok" });
    expect(beforeCall(g, "execute_command", { command: "npm test" }).kind).toBe("warn");
    expect(beforeCall(g, "execute_command", { command: "npm test" })).toEqual({
      kind: "stop",
      reason: "repeated execute_command with the same arguments 3 times without changing anything",
    });
  });

  it("forgets repeats after a successful file change (running the tests again after a fix is progress)", () => {
    const g = fresh();
    beforeCall(g, "execute_command", { command: "npm test" });
    beforeCall(g, "execute_command", { command: "npm test" });
    afterCall(g, "edit_file", true);
    expect(beforeCall(g, "execute_command", { command: "npm test" })).toEqual({ kind: "ok" });
  });

  it("warns after a streak of failures and stops if it goes on", () => {
    const g = fresh();
    const verdicts = Array.from({ length: 6 }, () => afterCall(g, "read_file", false).kind);
    expect(verdicts).toEqual(["ok", "ok", "ok", "warn", "ok", "stop"]);
    const h = fresh();
    for (let i = 0; i < 3; i++) afterCall(h, "read_file", false);
    afterCall(h, "read_file", true);
    expect(h.failStreak).toBe(0);
  });
});
