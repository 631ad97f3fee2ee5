import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProgressEvent } from "../../../src/core/index.js";
import { createExecuteCommandTool } from "../../../src/tools/index.js";
import { LIVE_TAIL_LINES, OutputStreamCap, STREAM_HEAD_CHARS, STREAM_TAIL_CHARS, type LiveTail } from "../../../src/services/commands/output-stream-cap.js";
import { callTool, makeWorkspace, type TempWorkspace } from "../../tools/helpers.js";

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

describe("what watchers see of a command's output", () => {
  it("passes short output through whole, in order", () => {
    const seen: string[] = [];
    const cap = new OutputStreamCap({ forward: (_, chunk) => seen.push(chunk), headChars: 10, tailChars: 5 });
    cap.push("stdout", "abc");
    cap.push("stderr", "def");
    cap.end();
    expect(seen.join("")).toBe("abcdef");
    expect(cap.droppedChars).toBe(0);
  });

  it("keeps the head live and the tail for the end, and says how much it left out", () => {
    const seen: string[] = [];
    const cap = new OutputStreamCap({ forward: (_, chunk) => seen.push(chunk), headChars: 10, tailChars: 5 });
    for (let i = 0; i < 10; i++) cap.push("stdout", `${i}`.repeat(4));
    cap.end();
    const all = seen.join("");
    expect(all.startsWith("0000111122")).toBe(true);
    expect(all.endsWith("89999")).toBe(true);
    expect(cap.droppedChars).toBe(40 - 10 - 5);
    expect(all).toContain("[… 25 characters of output not shown here; the end follows]");
  });

  it("past the head, sends the newest lines at once and then at most once per interval", () => {
    let now = 0;
    const tails: LiveTail[] = [];
    const cap = new OutputStreamCap({
      forward: () => undefined,
      forwardTail: (t) => tails.push(t),
      clock: { now: () => now },
      headChars: 10,
      tailChars: 100,
      tailEveryMs: 1000,
    });
    cap.push("stdout", "0123456789");
    expect(tails).toHaveLength(0);
    cap.push("stdout", "one\ntwo\n");
    expect(tails).toEqual([{ lines: ["one", "two"], totalChars: 18 }]);
    now = 999;
    cap.push("stdout", "three\n");
    expect(tails).toHaveLength(1);
    now = 1000;
    cap.push("stderr", "four");
    expect(tails[1]).toEqual({ lines: ["one", "two", "three", "four"], totalChars: 28 });
    for (let i = 0; i < 20; i++) cap.push("stdout", `l${i}\n`);
    now = 5000;
    cap.push("stdout", "last\n");
    expect(tails[2]?.lines).toHaveLength(LIVE_TAIL_LINES);
    expect(tails[2]?.lines.at(-1)).toBe("last");
  });

  it("streams a bounded amount of a 100 MB flood from a real command, while the model still gets head and tail", async () => {
    const events: ProgressEvent[] = [];
    const tool = createExecuteCommandTool({ root: ws.root, emit: (e) => events.push(e) });
    const result = await callTool(tool, { command: "head -c 100000000 /dev/zero | tr '\\0' x; echo; echo THE-END" });
    expect(result.artifact.command?.exitCode).toBe(0);
    const streamed = events.flatMap((e) => (e.type === "command_output" ? [e.chunk] : [])).join("");
    expect(streamed.length).toBeLessThan(STREAM_HEAD_CHARS + STREAM_TAIL_CHARS + 200);
    // Snapshots of the newest lines come at most once a second (and one at once), each bounded.
    const tails = events.flatMap((e) => (e.type === "command_output_tail" ? [e] : []));
    expect(tails.length).toBeGreaterThan(0);
    expect(tails.length).toBeLessThanOrEqual(1 + Math.ceil((result.artifact.command?.durationMs ?? 0) / 1000));
    for (const t of tails) expect(t.lines.join("\n").length).toBeLessThanOrEqual(2_000);
    expect(streamed).toMatch(/\[… 100\.0 MB of output not shown here; the end follows\]/);
    expect(streamed.trimEnd().endsWith("THE-END")).toBe(true);
    expect(result.content).toContain("THE-END");
    expect(result.content.length).toBeLessThan(30_000);
  });
});
