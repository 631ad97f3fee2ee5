import { existsSync } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import net from "node:net";
import path from "node:path";

import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { concat } from "@langchain/core/utils/stream";
import { ChatOpenAI, ChatOpenAICompletions } from "@langchain/openai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

import { freePort } from "./free-port.js";
import {
  SCRIPTED_MODEL_ID,
  hasToolResult,
  lastMessage,
  startScriptedOpenAIServer,
  systemPrompt,
  toolResults,
  type Script,
  type ScriptedServer,
} from "./scripted-openai-server.js";
import { makeTempWorkspace } from "./temp-workspace.js";

const readFileTool = tool(async ({ path: p }: { path: string }) => `contents of ${p}`, {
  name: "read_file",
  description: "Read a file from the workspace.",
  schema: z.object({ path: z.string().describe("Relative path") }),
});

const listDirTool = tool(async () => "a.txt\nb.txt", {
  name: "list_dir",
  description: "List the workspace.",
  schema: z.object({}),
});

const servers: ScriptedServer[] = [];

async function start(script: Script): Promise<ScriptedServer> {
  const server = await startScriptedOpenAIServer(script);
  servers.push(server);
  return server;
}

function model(server: ScriptedServer, extra: { streamUsage?: boolean } = {}): ChatOpenAICompletions {
  return new ChatOpenAICompletions({
    model: "gpt-4o-mini",
    apiKey: "test",
    configuration: { baseURL: server.baseUrl },
    maxRetries: 0,
    ...extra,
  });
}

async function collect(stream: AsyncIterable<AIMessageChunk>): Promise<AIMessageChunk> {
  let total: AIMessageChunk | undefined;
  for await (const chunk of stream) total = total === undefined ? chunk : concat(total, chunk);
  if (total === undefined) throw new Error("empty stream");
  return total;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("startScriptedOpenAIServer with the real ChatOpenAICompletions client", () => {
  it("answers a text reply and records the request", async () => {
    const server = await start(() => ({ content: "Hello there", usage: { promptTokens: 12, completionTokens: 3 } }));
    const reply = await model(server).invoke([new SystemMessage("You are terse."), new HumanMessage("hi")]);

    expect(reply.content).toBe("Hello there");
    expect(reply.tool_calls).toEqual([]);
    expect(reply.response_metadata["finish_reason"]).toBe("stop");
    expect(reply.usage_metadata).toMatchObject({ input_tokens: 12, output_tokens: 3, total_tokens: 15 });

    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.index).toBe(0);
    expect(req.model).toBe("gpt-4o-mini");
    expect(req.stream).toBe(false);
    expect(req.toolNames).toEqual([]);
    expect(req.messages.map((m) => [m.role, m.content])).toEqual([
      ["system", "You are terse."],
      ["user", "hi"],
    ]);
    expect(systemPrompt(req)).toBe("You are terse.");
    expect(lastMessage(req)?.content).toBe("hi");
    expect(server.scriptErrors).toEqual([]);
  });

  it("estimates usage when the script gives none", async () => {
    const server = await start(() => ({ content: "x".repeat(40) }));
    const reply = await model(server).invoke("y".repeat(80));
    expect(reply.usage_metadata).toMatchObject({ input_tokens: 20, output_tokens: 10, total_tokens: 30 });
  });

  it("returns tool calls to a model with bound tools and records the tool-result round trip", async () => {
    const server = await start((req) => {
      if (!hasToolResult(req, "read_file")) {
        return {
          toolCalls: [
            { name: "read_file", args: { path: "src/a.ts" } },
            { name: "list_dir", args: {}, id: "my-id" },
          ],
        };
      }
      const results = toolResults(req);
      return { content: `saw ${results.map((r) => `${r.name}=${r.content}`).join("; ")}` };
    });
    const bound = model(server).bindTools([readFileTool, listDirTool]);
    const history = [new SystemMessage("sys prompt"), new HumanMessage("read a.ts")];

    const first = await bound.invoke(history);
    expect(first.response_metadata["finish_reason"]).toBe("tool_calls");
    expect(first.tool_calls).toEqual([
      { name: "read_file", args: { path: "src/a.ts" }, id: "call_0_0", type: "tool_call" },
      { name: "list_dir", args: {}, id: "my-id", type: "tool_call" },
    ]);
    expect(first.invalid_tool_calls).toEqual([]);

    const req0 = server.requests[0]!;
    expect(req0.toolNames).toEqual(["read_file", "list_dir"]);
    expect(hasToolResult(req0, "read_file")).toBe(false);

    // Run the real tools on the calls and send their results back.
    const toolMessages: ToolMessage[] = [];
    for (const call of first.tool_calls ?? []) {
      const out: unknown = call.name === "read_file" ? await readFileTool.invoke(call) : await listDirTool.invoke(call);
      if (!(out instanceof ToolMessage)) throw new Error("expected a ToolMessage");
      toolMessages.push(out);
    }
    const second = await bound.invoke([...history, first, ...toolMessages]);
    expect(second.content).toBe("saw read_file=contents of src/a.ts; list_dir=a.txt\nb.txt");

    const req1 = server.requests[1]!;
    expect(req1.index).toBe(1);
    expect(req1.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool"]);
    expect(req1.messages[2]!.toolCalls).toEqual([
      { id: "call_0_0", name: "read_file", arguments: '{"path":"src/a.ts"}' },
      { id: "my-id", name: "list_dir", arguments: "{}" },
    ]);
    expect(req1.messages[3]!.toolCallId).toBe("call_0_0");
    expect(toolResults(req1)).toEqual([
      { name: "read_file", content: "contents of src/a.ts", toolCallId: "call_0_0" },
      { name: "list_dir", content: "a.txt\nb.txt", toolCallId: "my-id" },
    ]);
    expect(hasToolResult(req1, "read_file")).toBe(true);
    expect(hasToolResult(req1, "write_file")).toBe(false);
    expect(systemPrompt(req1)).toBe("sys prompt");
    expect(lastMessage(req1)?.role).toBe("tool");
  });

  it("streams content, tool calls and usage", async () => {
    const server = await start((req) =>
      req.index === 0
        ? {
            content: "Let me look at the file now.",
            toolCalls: [{ name: "read_file", args: { path: "a/b/c.txt" } }],
            usage: { promptTokens: 11, completionTokens: 7 },
          }
        : { content: "All done." },
    );
    const streaming = model(server, { streamUsage: true }).bindTools([readFileTool]);

    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await streaming.stream("go")) chunks.push(chunk);
    expect(chunks.filter((c) => typeof c.content === "string" && c.content.length > 0).length).toBeGreaterThan(1);
    const total = chunks.reduce((a, b) => concat(a, b));
    expect(total.content).toBe("Let me look at the file now.");
    expect(total.tool_calls).toEqual([{ name: "read_file", args: { path: "a/b/c.txt" }, id: "call_0_0", type: "tool_call" }]);
    expect(total.response_metadata["finish_reason"]).toBe("tool_calls");
    expect(total.usage_metadata).toMatchObject({ input_tokens: 11, output_tokens: 7, total_tokens: 18 });

    const req0 = server.requests[0]!;
    expect(req0.stream).toBe(true);
    expect(req0.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });

    const second = await collect(
      await streaming.stream([
        new HumanMessage("go"),
        new AIMessage({ content: "", tool_calls: total.tool_calls ?? [] }),
        new ToolMessage({ content: "ok", tool_call_id: "call_0_0" }),
      ]),
    );
    expect(second.content).toBe("All done.");
    expect(second.response_metadata["finish_reason"]).toBe("stop");
    expect(second.usage_metadata?.output_tokens).toBe(3);
    expect(toolResults(server.requests[1]!)).toEqual([{ name: "read_file", content: "ok", toolCallId: "call_0_0" }]);
  });

  it("reports scripted cached prompt tokens, which the client reads as cache_read (invoke and stream)", async () => {
    const server = await start(() => ({ content: "ok", usage: { promptTokens: 1200, completionTokens: 30, cachedTokens: 1024 } }));
    const replied = await model(server).invoke("hi");
    expect(replied.usage_metadata).toMatchObject({ input_tokens: 1200, output_tokens: 30, input_token_details: { cache_read: 1024 } });
    const streamed = await collect(await model(server, { streamUsage: true }).stream("hi"));
    expect(streamed.usage_metadata).toMatchObject({ input_tokens: 1200, output_tokens: 30, input_token_details: { cache_read: 1024 } });
    // Without cachedTokens the usage has no details at all, as before.
    const plain = await start(() => ({ content: "ok", usage: { promptTokens: 12, completionTokens: 3 } }));
    expect((await model(plain).invoke("hi")).usage_metadata?.input_token_details?.cache_read).toBeUndefined();
  });

  it("flattens a parts-array message to text", async () => {
    const server = await start(() => ({ content: "ok" }));
    await collect(
      await model(server, { streamUsage: true }).stream([
        new HumanMessage({
          content: [
            { type: "text", text: "first" },
            { type: "text", text: "second" },
          ],
        }),
      ]),
    );
    expect(server.requests[0]!.messages[0]).toEqual({ role: "user", content: "first\nsecond", toolCalls: [] });
    const body = server.requests[0]!.body;
    expect(body).toMatchObject({
      messages: [
        {
          content: [
            { type: "text", text: "first" },
            { type: "text", text: "second" },
          ],
        },
      ],
    });
  });

  it("puts invalid JSON arguments into invalid_tool_calls (invoke and stream)", async () => {
    const server = await start((req) => ({
      toolCalls: [{ name: "read_file", args: req.index === 0 ? '{"path": "a.ts"' : '{"path": oops}', id: "bad-1" }],
    }));
    const bound = model(server, { streamUsage: true }).bindTools([readFileTool]);

    const reply = await bound.invoke("go");
    expect(reply.tool_calls).toEqual([]);
    expect(reply.invalid_tool_calls).toHaveLength(1);
    expect(reply.invalid_tool_calls?.[0]).toMatchObject({ name: "read_file", args: '{"path": "a.ts"', id: "bad-1" });

    const streamed = await collect(await bound.stream("go"));
    expect(streamed.tool_calls).toEqual([]);
    expect(streamed.invalid_tool_calls?.[0]).toMatchObject({ name: "read_file", args: '{"path": oops}', id: "bad-1" });
  });

  it("documents a client quirk: streamed truncated JSON is repaired by the partial-JSON parser", async () => {
    const server = await start(() => ({ toolCalls: [{ name: "read_file", args: '{"path": "a.ts"', id: "cut-1" }] }));
    const streamed = await collect(await model(server, { streamUsage: true }).bindTools([readFileTool]).stream("go"));
    expect(streamed.invalid_tool_calls).toEqual([]);
    expect(streamed.tool_calls).toEqual([{ name: "read_file", args: { path: "a.ts" }, id: "cut-1", type: "tool_call" }]);
  });

  it("surfaces a scripted HTTP error", async () => {
    const server = await start(() => ({ httpStatus: 500, error: "boom from the script" }));
    await expect(model(server).invoke("hi")).rejects.toThrow(/boom from the script/);
    // `.stream()` pulls the first chunk eagerly, so the error rejects the `stream()` call itself.
    await expect(model(server, { streamUsage: true }).stream("hi")).rejects.toThrow(/boom from the script/);
    expect(server.requests).toHaveLength(2);

    const limited = await start(() => ({ httpStatus: 429, error: "slow down" }));
    await expect(model(limited).invoke("hi")).rejects.toThrow(/slow down/);
  });

  it("turns a script exception into HTTP 500 and records it", async () => {
    const server = await start(() => {
      throw new Error("script exploded");
    });
    await expect(model(server).invoke("hi")).rejects.toThrow(/script exploded/);
    expect(server.scriptErrors).toEqual(["script exploded"]);
    expect(server.requests[0]!.scriptError).toBe("script exploded");
  });

  it("accepts an async script", async () => {
    const server = await start(async (req) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { content: `request ${req.index}` };
    });
    const m = model(server);
    expect((await m.invoke("a")).content).toBe("request 0");
    expect((await m.invoke("b")).content).toBe("request 1");
  });

  it("hangs on request so a call timeout fires, and close() does not wait for the hang", async () => {
    const server = await start(() => ({ hangMs: 30_000 }));
    const startedAt = Date.now();
    await expect(model(server).invoke("hi", { timeout: 200 })).rejects.toThrow();
    expect(Date.now() - startedAt).toBeLessThan(5_000);

    // A request still hanging when the server closes must not keep close() waiting.
    const pending = model(server)
      .invoke("hi")
      .then(
        () => "resolved",
        () => "rejected",
      );
    while (server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const closeStarted = Date.now();
    await server.close();
    expect(Date.now() - closeStarted).toBeLessThan(2_000);
    expect(await pending).toBe("rejected");
  });

  it("answers with an empty message once a short hang is over", async () => {
    const server = await start(() => ({ hangMs: 50 }));
    const reply = await model(server).invoke("hi");
    expect(reply.content).toBe("");
  });

  it("works with ChatOpenAI too (streaming and not)", async () => {
    const server = await start((req) =>
      req.toolNames.includes("read_file") && !hasToolResult(req, "read_file")
        ? { toolCalls: [{ name: "read_file", args: { path: "x" } }] }
        : { content: "plain" },
    );
    const chat = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test", configuration: { baseURL: server.baseUrl }, maxRetries: 0, streamUsage: true });
    expect((await chat.invoke("hi")).content).toBe("plain");
    const called = await chat.bindTools([readFileTool]).invoke("read x");
    expect(called.tool_calls?.[0]).toMatchObject({ name: "read_file", args: { path: "x" } });
    const streamed = await collect(await chat.bindTools([readFileTool]).stream("read x"));
    expect(streamed.tool_calls?.[0]).toMatchObject({ name: "read_file", args: { path: "x" } });
    expect(streamed.usage_metadata?.total_tokens).toBeGreaterThan(0);
    expect(server.requests.map((r) => r.stream)).toEqual([false, false, true]);
  });

  it("serves embeddings deterministically", async () => {
    const server = await start(() => ({ content: "unused" }));
    const answer = async (input: string | string[]) => {
      const res = await fetch(`${server.baseUrl}/embeddings`, { method: "POST", body: JSON.stringify({ model: "m", input }) });
      return (await res.json()) as { data: { index: number; embedding: number[] }[] };
    };
    const one = await answer("hello");
    const two = await answer(["hello", "world"]);
    expect(one.data[0]?.embedding).toHaveLength(16);
    expect(two.data.map((d) => d.index)).toEqual([0, 1]);
    expect(two.data[0]?.embedding).toEqual(one.data[0]?.embedding);
    expect(two.data[1]?.embedding).not.toEqual(one.data[0]?.embedding);
  });

  it("serves /v1/models, 404s unknown routes, and rejects a non-JSON body", async () => {
    const server = await start(() => ({ content: "unused" }));
    const models = await fetch(`${server.baseUrl}/models`);
    expect(models.status).toBe(200);
    expect(await models.json()).toMatchObject({ object: "list", data: [{ id: SCRIPTED_MODEL_ID, object: "model" }] });

    const missing = await fetch(`${server.baseUrl}/completions`, { method: "POST", body: "{}" });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { type: "not_found_error" } });

    const responses = await fetch(`${server.baseUrl}/responses`, { method: "POST", body: "{}" });
    expect(responses.status).toBe(404);

    const bad = await fetch(`${server.baseUrl}/chat/completions`, { method: "POST", body: "not json" });
    expect(bad.status).toBe(400);
    expect(server.requests).toHaveLength(0);
  });

  it("close() is idempotent and frees the port", async () => {
    const server = await startScriptedOpenAIServer(() => ({ content: "x" }));
    const port = Number(new URL(server.baseUrl).port);
    // Keep a connection open so close() has a socket to destroy.
    const socket = net.connect(port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    await Promise.all([server.close(), server.close()]);
    await server.close();
    await expect(fetch(`${server.baseUrl}/models`)).rejects.toThrow();
    socket.destroy();
  });
});

describe("makeTempWorkspace", () => {
  it("writes files under a real-path root and cleans up", async () => {
    const ws = await makeTempWorkspace({ "a.txt": "A", "src/deep/b.ts": "export const b = 1;\n" });
    expect(ws.root).toBe(await realpath(ws.root));
    expect(await readFile(path.join(ws.root, "a.txt"), "utf8")).toBe("A");
    expect(await readFile(path.join(ws.root, "src/deep/b.ts"), "utf8")).toBe("export const b = 1;\n");
    await ws.cleanup();
    await ws.cleanup();
    expect(existsSync(ws.root)).toBe(false);
  });

  it("refuses paths that leave the workspace", async () => {
    await expect(makeTempWorkspace({ "../escape.txt": "x" })).rejects.toThrow(/leaves the workspace/);
    await expect(makeTempWorkspace({ "/etc/x": "x" })).rejects.toThrow(/must be relative/);
  });
});

describe("freePort", () => {
  it("returns a port that can be bound", async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
