import fs from "node:fs/promises";
import path from "node:path";
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { describeCall } from "../../../src/agents/middleware/tool-calls.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { ofType, runToEnd, text, toolMessages } from "../agent-harness.js";

const ws = useTempWorkspace({ "a.txt": "original\n" });

const coder = AGENT_SPECS.coder;
const done = () => calls({ name: "submit_work", args: { status: "done", summary: "ok" } });

describe("describeCall", () => {
  it("shows the argument a watcher wants to see, clipped", () => {
    expect(describeCall({ command: "npm test", path: "x" })).toBe("npm test");
    expect(describeCall({ path: "src/a.ts", content: "…" })).toBe("src/a.ts");
    expect(describeCall({ pattern: "TODO" })).toBe("TODO");
    expect(describeCall({ other: 1 })).toBe("");
    expect(describeCall(null)).toBe("");
    const long = describeCall({ command: "x".repeat(200) });
    expect(long).toHaveLength(120);
    expect(long.endsWith("...")).toBe(true);
  });
});

describe("tool-calls middleware", () => {
  it("refuses a tool this run does not offer (read-only mode), and nothing is written", async () => {
    const models = scriptedModels({ coder: [calls({ name: "write_file", args: { path: "b.txt", content: "x" } }), done()] });
    const { final, outcome, events } = await runToEnd(coder, models, { workspace: ws.root, safety: { approval: "read-only" } });
    expect(outcome.stopReason).toBe("finished");
    expect(await ws.exists("b.txt")).toBe(false);
    const result = toolMessages(final.messages)[0];
    expect(result?.status).toBe("error");
    expect(text(result)).toBe('Error: tool "write_file" is not available to the coder. Available tools: read_file, list_directory, search_code, submit_work.');
    expect(ofType(events, "tool_call")).toHaveLength(0);
    expect(ofType(events, "tool_result")).toEqual([
      { type: "tool_result", agent: "coder", stepId: "s1", tool: "write_file", ok: false, detail: "not available" },
    ]);
    expect(outcome.filesChanged).toEqual([]);
  });

  it("answers arguments that are not valid JSON with an error the model can correct", async () => {
    const broken = new AIMessage({
      content: "",
      invalid_tool_calls: [
        { id: "bad_1", name: "write_file", args: '{"path": "b.txt", "content": "x', error: "Unterminated string in JSON", type: "invalid_tool_call" },
      ],
      usage_metadata: { input_tokens: 100, output_tokens: 10, total_tokens: 110 },
    });
    const models = scriptedModels({ coder: [broken, calls({ name: "write_file", args: { path: "b.txt", content: "fixed\n" } }), done()] });
    const { final, outcome, events } = await runToEnd(coder, models, { workspace: ws.root });
    expect(outcome.stopReason).toBe("finished");
    const results = toolMessages(final.messages);
    expect(results[0]?.tool_call_id).toBe("bad_1");
    expect(results[0]?.status).toBe("error");
    expect(text(results[0])).toBe(
      "Error: the arguments for write_file were not valid JSON (Unterminated string in JSON). Call write_file again with a valid JSON object.",
    );
    // The call stays paired with its result in the next prompt.
    const next = models.seen.coder?.[1] ?? [];
    const asked = next.find((m): m is AIMessage => AIMessage.isInstance(m) && (m.tool_calls ?? []).some((c) => c.id === "bad_1"));
    expect(asked).toBeDefined();
    expect(ofType(events, "tool_result")[0]).toMatchObject({ tool: "write_file", ok: false, detail: "invalid JSON arguments" });
    expect(await fs.readFile(path.join(ws.root, "b.txt"), "utf8")).toBe("fixed\n");
  });

  it("answers arguments that fail the tool's schema with an invalid-arguments error", async () => {
    const models = scriptedModels({ coder: [calls({ name: "write_file", args: { path: "b.txt" } }), done()] });
    const { final, outcome, events } = await runToEnd(coder, models, { workspace: ws.root });
    expect(outcome.stopReason).toBe("finished");
    expect(await ws.exists("b.txt")).toBe(false);
    const result = toolMessages(final.messages)[0];
    expect(result?.status).toBe("error");
    expect(text(result)).toMatch(/^Error: invalid arguments for write_file: /);
    expect(text(result)).toContain("content");
    expect(text(result)).toContain("Check the tool's schema and call it again.");
    expect(ofType(events, "tool_result")[0]).toMatchObject({ tool: "write_file", ok: false });
  });

  it("refuses an invalid finish call and goes on until a valid one", async () => {
    const models = scriptedModels({
      coder: [
        calls({ name: "submit_work", args: { status: "maybe", summary: "half" } }),
        calls({ name: "read_file", args: { path: "a.txt" } }),
        calls({ name: "submit_work", args: { summary: "no status" } }),
        calls({ name: "submit_work", args: { status: "done", summary: "really done" } }),
      ],
    });
    const { final, outcome } = await runToEnd(coder, models, { workspace: ws.root, maxModelCalls: 10 });
    expect(models.seen.coder).toHaveLength(4);
    expect(outcome.stopReason).toBe("finished");
    expect(outcome.finish).toEqual({ status: "done", summary: "really done" });
    const results = toolMessages(final.messages);
    expect(results.map((m) => [m.name, m.status === "error"])).toEqual([
      ["submit_work", true],
      ["read_file", false],
      ["submit_work", true],
      ["submit_work", false],
    ]);
    expect(text(results[0])).toMatch(/^Error: invalid arguments: status: .*Fix them and call submit_work again\.$/);
    expect(text(results[2])).toMatch(/^Error: invalid arguments: status: /);
    expect(text(results[3])).toBe("Recorded. Your run is complete.");
  });
});
