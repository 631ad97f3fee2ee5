import { describe, expect, it } from "vitest";
import { afterCall, beforeCall, callSignature, type LoopGuardState } from "../../../src/agents/middleware/loop-guard.js";

const fresh = (): LoopGuardState => ({ callCounts: {}, failStreak: 0, warned: false });
const failed = { ok: false, changedFiles: false };
const noChange = { ok: true, changedFiles: false };
const changed = { ok: true, changedFiles: true };

describe("loop guard", () => {
  it("signs calls by name and arguments, whatever the key order", () => {
    expect(callSignature("read_file", { path: "a", startLine: 1 })).toBe(callSignature("read_file", { startLine: 1, path: "a" }));
    expect(callSignature("read_file", { path: "a" })).not.toBe(callSignature("read_file", { path: "b" }));
  });

  it("keeps the signature of a long argument short, and still tells different contents apart", () => {
    const big = "x".repeat(1_000_000);
    const signature = callSignature("write_file", { path: "big.txt", content: big });
    expect(signature.length).toBeLessThan(100);
    expect(callSignature("write_file", { content: big, path: "big.txt" })).toBe(signature);
    expect(callSignature("write_file", { path: "big.txt", content: `${big}y` })).not.toBe(signature);
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
    const edit = { path: "a.ts", oldText: "a", newText: "b" };
    beforeCall(g, "execute_command", { command: "npm test" });
    beforeCall(g, "execute_command", { command: "npm test" });
    beforeCall(g, "edit_file", edit);
    afterCall(g, "edit_file", edit, changed);
    expect(beforeCall(g, "execute_command", { command: "npm test" })).toEqual({ kind: "ok" });
  });

  it("counts the same write again as a repeat: the first write changed the file, the copies change nothing", () => {
    const g = fresh();
    const write = { path: "big.txt", content: "data\n".repeat(1_000) };
    const verdicts: string[] = [];
    for (let i = 0; i < 25; i++) {
      const before = beforeCall(g, "write_file", write);
      verdicts.push(before.kind);
      if (before.kind === "stop") break;
      afterCall(g, "write_file", write, i === 0 ? changed : noChange);
    }
    expect(verdicts).toEqual(["ok", "warn", "stop"]);
  });

  it("does not count a write that failed or changed nothing as a change", () => {
    const g = fresh();
    const write = { path: "a.txt", content: "same\n" };
    beforeCall(g, "execute_command", { command: "npm test" });
    beforeCall(g, "write_file", write);
    afterCall(g, "write_file", write, noChange);
    expect(beforeCall(g, "execute_command", { command: "npm test" }).kind).toBe("warn");
    const h = fresh();
    beforeCall(h, "execute_command", { command: "npm test" });
    afterCall(h, "write_file", write, failed);
    expect(beforeCall(h, "execute_command", { command: "npm test" }).kind).toBe("warn");
  });

  it("warns after a streak of failures and stops if it goes on", () => {
    const g = fresh();
    const verdicts = Array.from({ length: 6 }, () => afterCall(g, "read_file", { path: "x" }, failed).kind);
    expect(verdicts).toEqual(["ok", "ok", "ok", "warn", "ok", "stop"]);
    const h = fresh();
    for (let i = 0; i < 3; i++) afterCall(h, "read_file", { path: "x" }, failed);
    afterCall(h, "read_file", { path: "x" }, noChange);
    expect(h.failStreak).toBe(0);
  });
});
