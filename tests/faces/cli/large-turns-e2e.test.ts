import fs from "node:fs/promises";
import path from "node:path";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { countTokens } from "../../../src/agents/middleware/context-budget.js";
import { startScriptedOpenAIServer, toolResults, type ScriptedReply, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { roleOf } from "./task-script.js";

let server: ScriptedServer | null = null;
let ws: TempWorkspace | null = null;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
  server = null;
  ws = null;
});

const BUDGET = 32_000;
/** 1 MB of generated data (rows of text, as a model writing a fixture would produce). */
const DATA = Array.from({ length: 20_000 }, (_, i) => `row ${i}: ${"0123456789abcdef".repeat(3)}\n`)
  .join("")
  .slice(0, 1_000_000);

/** The prompt as the code counts it: the messages (countTokens, 4 characters a token) plus the tool definitions. */
function promptTokens(req: ScriptedRequest): number {
  const messages: BaseMessage[] = req.messages.map((m) => {
    if (m.role === "system") return new SystemMessage(m.content);
    if (m.role === "assistant") {
      const tool_calls = m.toolCalls.map((c) => ({
        id: c.id,
        name: c.name,
        args: JSON.parse(c.arguments) as Record<string, unknown>,
        type: "tool_call" as const,
      }));
      return new AIMessage({ content: m.content, tool_calls });
    }
    if (m.role === "tool") return new ToolMessage({ tool_call_id: m.toolCallId ?? "", content: m.content });
    return new HumanMessage(m.content);
  });
  const body = req.body as { tools?: { function: { name: string; description: string; parameters: unknown } }[] };
  const tools = (body.tools ?? []).reduce(
    (sum, t) => sum + Math.ceil(JSON.stringify({ name: t.function.name, description: t.function.description, schema: t.function.parameters }).length / 4),
    0,
  );
  return countTokens(messages) + tools;
}

/** The planner plans one coder step and finishes after its report; the coder plays `coder` (by its call number). */
function script(coder: (call: number, req: ScriptedRequest) => ScriptedReply) {
  let coderCalls = 0;
  return (req: ScriptedRequest): ScriptedReply => {
    const role = roleOf(req);
    if (role === "planner") {
      const text = req.messages
        .filter((m) => m.role === "user")
        .map((m) => m.content)
        .join("\n");
      if (text.includes("There is no plan yet")) {
        return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal: "Write the data file" }], finished: false } }] };
      }
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Done." } }] };
    }
    if (role === "coder") return coder(coderCalls++, req);
    return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "ok" } }] };
  };
}

async function run(coder: (call: number, req: ScriptedRequest) => ScriptedReply) {
  server = await startScriptedOpenAIServer(script(coder));
  ws = await makeTempWorkspace({ "package.json": "{}\n", "notes.txt": "one\ntwo\nthree\n" });
  const env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" };
  const result = await runCli(["run", "--json", "--approval", "auto", "--context-budget", String(BUDGET), "Write the data file"], { cwd: ws.root, env });
  const events = result.stdout
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { type: string; limit?: string; detail?: string });
  return { ...result, events, coderRequests: server.requests.filter((r) => roleOf(r) === "coder") };
}

describe("large arguments and replies (built CLI, --context-budget 32000)", () => {
  it("keeps every prompt under the budget after a 1 MB write_file and a 1 MB text reply, telling the model what was elided", async () => {
    const { code, stderr, coderRequests } = await run((call) => {
      if (call === 0) return { toolCalls: [{ name: "write_file", args: { path: "big.txt", content: DATA } }] };
      if (call === 1) return { content: `Here is the table again:\n${DATA}`, toolCalls: [{ name: "read_file", args: { path: "notes.txt" } }] };
      if (call === 2) return { toolCalls: [{ name: "read_file", args: { path: "notes.txt", startLine: 2 } }] };
      return { toolCalls: [{ name: "submit_work", args: { status: "done", summary: "Wrote big.txt." } }] };
    });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(coderRequests).toHaveLength(4);
    // The write really happened: only the prompts left the data out.
    expect(await fs.readFile(path.join(ws?.root ?? "", "big.txt"), "utf8")).toBe(DATA);

    const all = server?.requests ?? [];
    for (const req of all) {
      expect(promptTokens(req)).toBeLessThanOrEqual(BUDGET);
      expect(JSON.stringify(req.body).length / 4).toBeLessThan(BUDGET);
    }
    for (const req of coderRequests.slice(1)) {
      const write = req.messages.flatMap((m) => m.toolCalls).find((c) => c.name === "write_file");
      expect(JSON.parse(write?.arguments ?? "{}")).toEqual({
        path: "big.txt",
        content: "[write_file big.txt: 1.0 MB written; the content is elided from this prompt (read_file shows part of it)]",
      });
    }
    for (const req of coderRequests.slice(2)) {
      const reply = req.messages.find((m) => m.role === "assistant" && m.content.startsWith("Here is the table again:"));
      expect(reply?.content).toMatch(/\[… your reply went on for [\d.]+ KB more \(1\.0 MB in all\); elided from this prompt to keep it within budget\]$/);
    }
    // Nothing was folded away: the prompts fit without it.
    expect(toolResults(coderRequests[3] as ScriptedRequest).map((r) => r.name)).toEqual(["write_file", "read_file", "read_file"]);
  });

  it("stops a run that repeats the same write_file 25 times after one warning", async () => {
    const content = "generated row\n".repeat(8_000);
    const { code, events, coderRequests } = await run((call) =>
      call < 25
        ? { toolCalls: [{ name: "write_file", args: { path: "data.txt", content } }] }
        : { toolCalls: [{ name: "submit_work", args: { status: "done", summary: "ok" } }] },
    );
    expect(code).toBe(0);
    // Written once, the copy warned (it changed nothing), the next one not run: three model calls in all.
    expect(coderRequests).toHaveLength(3);
    const results = toolResults(coderRequests[2] as ScriptedRequest);
    expect(results.map((r) => r.content.split("\n", 1)[0])).toEqual([
      'Created "data.txt" (112000 bytes, 8000 lines).',
      '"data.txt" already has exactly this content (112000 bytes, 8000 lines); nothing was changed.',
    ]);
    expect(results[1]?.content).toContain("Note: you already made this exact write_file call and nothing has changed since");
    const loops = events.filter((e) => e.type === "limit_reached" && e.limit === "loop");
    expect(loops.map((e) => e.detail)).toEqual(["coder s1: repeated write_file with the same arguments 3 times without changing anything"]);
    expect(await fs.readFile(path.join(ws?.root ?? "", "data.txt"), "utf8")).toBe(content);
  });
});
