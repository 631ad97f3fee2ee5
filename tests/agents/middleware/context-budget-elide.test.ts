import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { elideLarge, elisionLimit } from "../../../src/agents/middleware/context-budget.js";
import { formatSize } from "../../../src/core/index.js";

const MB = "0123456789".repeat(100_000);
const LIMIT = elisionLimit(32_000);

function write(id: string, content: string, result: { content: string; status?: "error"; filesChanged?: string[] }): BaseMessage[] {
  return [
    new AIMessage({ content: "", tool_calls: [{ id, name: "write_file", args: { path: "big.txt", content }, type: "tool_call" }] }),
    new ToolMessage({
      tool_call_id: id,
      name: "write_file",
      content: result.content,
      status: result.status,
      artifact: { ok: result.status !== "error", filesChanged: result.filesChanged ?? [] },
    }),
  ];
}

const argsOf = (m: BaseMessage | undefined) => (m && AIMessage.isInstance(m) ? (m.tool_calls?.[0]?.args ?? {}) : {});

describe("elideLarge", () => {
  it("replaces a large write_file content by a note with the tool, path, size and outcome; the stored messages are untouched", () => {
    const stored = [
      new SystemMessage("sys"),
      new HumanMessage("brief"),
      ...write("c1", MB, { content: 'Created "big.txt" (1000000 bytes, 1 lines).', filesChanged: ["big.txt"] }),
    ];
    const view = elideLarge(stored, LIMIT);
    expect(argsOf(view[2])).toEqual({
      path: "big.txt",
      content: "[write_file big.txt: 1.0 MB written; the content is elided from this prompt (read_file shows part of it)]",
    });
    expect(view[3]).toBe(stored[3]);
    expect(view[0]).toBe(stored[0]);
    expect(argsOf(stored[2]).content).toBe(MB);
    expect((view[2] as AIMessage).tool_calls?.[0]?.id).toBe("c1");
  });

  it("says when the write changed nothing or failed, so the note never claims what did not happen", () => {
    const same = elideLarge(write("c1", MB, { content: '"big.txt" already has exactly this content' }), LIMIT);
    expect(String(argsOf(same[0]).content)).toMatch(/^\[write_file big.txt: 1.0 MB unchanged \(the file already had this content\)/);
    const failed = elideLarge(write("c2", MB, { content: "Error: denied", status: "error" }), LIMIT);
    expect(String(argsOf(failed[0]).content)).toMatch(/^\[write_file big.txt: 1.0 MB not written \(see the tool result\)/);
  });

  it("keeps the head of a large text reply and says how much was left out", () => {
    const reply = new AIMessage({
      content: `Here is the data: ${MB}`,
      tool_calls: [{ id: "c1", name: "list_directory", args: { path: "." }, type: "tool_call" }],
    });
    const stored = [new HumanMessage("brief"), reply, new ToolMessage({ tool_call_id: "c1", name: "list_directory", content: "a.txt" })];
    const [, elided] = elideLarge(stored, LIMIT);
    const text = String(elided?.content);
    expect(text.startsWith("Here is the data: 0123456789")).toBe(true);
    expect(text.length).toBeLessThan(1_200);
    expect(text).toMatch(/\[… your reply went on for 999\.0 KB more \(1\.0 MB in all\); elided from this prompt/);
    expect((elided as AIMessage).tool_calls).toEqual(reply.tool_calls);
  });

  it("elides other tools' long arguments generically and leaves short ones and other messages alone", () => {
    const call = new AIMessage({
      content: "",
      tool_calls: [{ id: "c1", name: "edit_file", args: { path: "a.ts", oldText: "short", newText: MB }, type: "tool_call" }],
    });
    const [elided] = elideLarge(
      [call, new ToolMessage({ tool_call_id: "c1", name: "edit_file", content: "Edited", artifact: { ok: true, filesChanged: ["a.ts"] } })],
      LIMIT,
    );
    expect(argsOf(elided)).toEqual({ path: "a.ts", oldText: "short", newText: "[edit_file a.ts newText: 1.0 MB; elided from this prompt]" });
    const small = new AIMessage({ content: "ok", tool_calls: [{ id: "c2", name: "read_file", args: { path: "a.ts" }, type: "tool_call" }] });
    expect(elideLarge([small], LIMIT)[0]).toBe(small);
  });

  it("makes the elided copy once and reuses it for every later prompt", () => {
    const stored = [new HumanMessage("brief"), ...write("c1", MB, { content: "Created", filesChanged: ["big.txt"] })];
    const first = elideLarge(stored, LIMIT);
    const later = elideLarge([...stored, new AIMessage("more")], LIMIT);
    expect(later[1]).toBe(first[1]);
  });

  it("sizes in bytes, KB and MB", () => {
    expect(formatSize(999)).toBe("999 bytes");
    expect(formatSize(25_300)).toBe("25.3 KB");
    expect(formatSize(1_000_000)).toBe("1.0 MB");
    expect(formatSize(999_960)).toBe("1.0 MB");
    expect(elisionLimit(6_000)).toBe(6_000);
    expect(elisionLimit(200_000)).toBe(20_000);
  });
});
