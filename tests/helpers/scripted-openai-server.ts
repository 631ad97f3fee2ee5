/**
 * A scripted, OpenAI-compatible chat-completions server for tests.
 *
 * It is a real HTTP server on 127.0.0.1 (free port), so the real `@langchain/openai` client
 * (`ChatOpenAICompletions` / `ChatOpenAI` with `configuration: { baseURL }`) talks to it over the wire,
 * streaming or not. Every chat-completions request is normalised into a {@link ScriptedRequest}, recorded in
 * `server.requests`, and handed to the test's script, whose {@link ScriptedReply} decides the answer.
 *
 * Routes:
 * - `POST /v1/chat/completions`: JSON reply, or SSE when the body has `stream: true`.
 * - `GET /v1/models`: a list with one model ({@link SCRIPTED_MODEL_ID}), or the models of
 *   {@link ScriptedServerOptions.models} (`null`: not served, 404, as some OpenAI-compatible servers do).
 * - `GET /api/tags`: the same model, as Ollama lists it.
 * - `POST /v1/embeddings`: deterministic 16-dimension vectors ({@link scriptedEmbedding}).
 * - anything else: 404 with an OpenAI-style error body.
 * - With {@link ScriptedServerOptions.apiKey}, `/v1/models` and chat completions answer 401 unless the request
 *   carries `Authorization: Bearer <apiKey>`.
 *
 * Notes for test authors:
 * - The LangChain client retries 5xx answers (and script exceptions, which become 500) with backoff, calling
 *   the script again each time. Build the model with `maxRetries: 0` when a test expects an error.
 * - Every reply carries a `usage` object (scripted or estimated at chars/4) so the client never needs a tokenizer.
 */
import http, { type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ScriptedToolCall {
  name: string;
  /** An object is JSON-encoded; a raw string is sent verbatim (lets tests send invalid JSON). */
  args: Record<string, unknown> | string;
  /** Defaults to `call_<requestIndex>_<position>`. */
  id?: string;
}

export interface ScriptedMessage {
  role: string;
  /** Text content, whatever the wire form: a string, or the text of a parts array joined with "\n". */
  content: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  toolCallId?: string;
  name?: string;
}

export interface ScriptedRequest {
  /** 0-based counter over chat-completions requests. */
  index: number;
  model: string;
  messages: ScriptedMessage[];
  /** Names of the tools offered in this request (`tools[].function.name`, or legacy `functions[].name`). */
  toolNames: string[];
  stream: boolean;
  /** The request's `tool_choice` as sent (undefined when absent). */
  toolChoice: unknown;
  /** The raw parsed JSON body. */
  body: unknown;
  /** Set when the script threw for this request (the client then got HTTP 500 with this message). */
  scriptError?: string;
}

export interface ScriptedUsage {
  promptTokens: number;
  completionTokens: number;
  /** The part of promptTokens served from the prompt cache: sent as `prompt_tokens_details.cached_tokens` when set. */
  cachedTokens?: number;
}

export type ScriptedReply =
  | { content?: string; toolCalls?: ScriptedToolCall[]; usage?: ScriptedUsage }
  /** An OpenAI-style error answer; `headers` are added (e.g. `retry-after`). */
  | { httpStatus: number; error: string; headers?: Record<string, string> }
  /**
   * A 200 answer with exactly this JSON body (a malformed reply such as `{ choices: [] }`). A streaming request gets
   * it as the one chunk before `[DONE]`.
   */
  | { rawBody: unknown }
  /** Send the status line, headers and half a body, then drop the connection (the client sees "terminated"). */
  | { cutOff: true }
  /** Accept the request but send nothing for this long; afterwards answer with an empty assistant message. */
  | { hangMs: number };

export type Script = (req: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>;

export interface ScriptedServer {
  /** e.g. `http://127.0.0.1:PORT/v1`: pass as `configuration: { baseURL }`. */
  baseUrl: string;
  /** Every chat-completions request received, in order. */
  requests: ScriptedRequest[];
  /** Messages of script exceptions, in order (each also answered with HTTP 500). */
  scriptErrors: string[];
  /** Every `GET /v1/models` received, in order, with its Authorization header. */
  modelListings: { authorization: string | undefined }[];
  /** Stops the server, destroys open sockets and cancels pending hangs. Safe to call twice. */
  close(): Promise<void>;
}

export interface ScriptedServerOptions {
  /** The ids `GET /v1/models` lists (default: [{@link SCRIPTED_MODEL_ID}]); `null`: the route is not served (404). */
  models?: string[] | null;
  /** When set, `/v1/models` and chat completions need `Authorization: Bearer <apiKey>`, else 401. */
  apiKey?: string;
}

/** The one model `GET /v1/models` lists. Requests may name any model; it is echoed back. */
export const SCRIPTED_MODEL_ID = "scripted-model";

// ---------------------------------------------------------------------------------------------------------------
// Helpers for reading recorded requests.

/** The last message of the request, if any. */
export function lastMessage(req: ScriptedRequest): ScriptedMessage | undefined {
  return req.messages[req.messages.length - 1];
}

/** The text of the user messages joined with "\n" (the planner's context, a sub-agent's brief, follow-ups). */
export function userText(req: ScriptedRequest): string {
  return req.messages
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
}

/** The text of the system (or developer) messages joined with "\n\n", or undefined when there are none. */
export function systemPrompt(req: ScriptedRequest): string | undefined {
  const parts = req.messages.filter((m) => m.role === "system" || m.role === "developer").map((m) => m.content);
  return parts.length > 0 ? parts.join("\n\n") : undefined;
}

export interface ScriptedToolResult {
  /** The tool name, resolved from the assistant tool call with the same id (else the message's `name`, else ""). */
  name: string;
  content: string;
  toolCallId: string;
}

/** The tool-result messages of the request, in order, with their tool names resolved. */
export function toolResults(req: ScriptedRequest): ScriptedToolResult[] {
  const namesById = new Map<string, string>();
  for (const message of req.messages) {
    for (const call of message.toolCalls) namesById.set(call.id, call.name);
  }
  const results: ScriptedToolResult[] = [];
  for (const message of req.messages) {
    if (message.role !== "tool") continue;
    const toolCallId = message.toolCallId ?? "";
    results.push({
      name: namesById.get(toolCallId) ?? message.name ?? "",
      content: message.content,
      toolCallId,
    });
  }
  return results;
}

/** Whether the request contains a tool message answering a call to `toolName`. */
export function hasToolResult(req: ScriptedRequest, toolName: string): boolean {
  return toolResults(req).some((r) => r.name === toolName);
}

// ---------------------------------------------------------------------------------------------------------------
// Wire normalisation.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringField(obj: Record<string, unknown>, key: string): string | undefined {
  const value = obj[key];
  return typeof value === "string" ? value : undefined;
}

/** Flattens a message's `content` (string, null, or an array of parts) to text. */
function flattenContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === "string") {
      texts.push(part);
    } else if (isRecord(part)) {
      const text = stringField(part, "text") ?? stringField(part, "refusal");
      if (text !== undefined) texts.push(text);
      else texts.push(`[${stringField(part, "type") ?? "part"}]`);
    }
  }
  return texts.join("\n");
}

function normaliseMessage(raw: unknown): ScriptedMessage {
  if (!isRecord(raw)) return { role: "unknown", content: "", toolCalls: [] };
  const toolCalls: ScriptedMessage["toolCalls"] = [];
  const rawCalls = raw["tool_calls"];
  if (Array.isArray(rawCalls)) {
    for (const call of rawCalls) {
      if (!isRecord(call)) continue;
      const fn = isRecord(call["function"]) ? call["function"] : {};
      toolCalls.push({
        id: stringField(call, "id") ?? "",
        name: stringField(fn, "name") ?? "",
        arguments: stringField(fn, "arguments") ?? "",
      });
    }
  }
  const message: ScriptedMessage = {
    role: stringField(raw, "role") ?? "unknown",
    content: flattenContent(raw["content"]),
    toolCalls,
  };
  const toolCallId = stringField(raw, "tool_call_id");
  if (toolCallId !== undefined) message.toolCallId = toolCallId;
  const name = stringField(raw, "name");
  if (name !== undefined) message.name = name;
  return message;
}

function offeredToolNames(body: Record<string, unknown>): string[] {
  const names: string[] = [];
  const tools = body["tools"];
  if (Array.isArray(tools)) {
    for (const t of tools) {
      if (!isRecord(t)) continue;
      const fn = t["function"];
      const name = isRecord(fn) ? stringField(fn, "name") : stringField(t, "name");
      if (name !== undefined) names.push(name);
    }
  }
  const functions = body["functions"];
  if (Array.isArray(functions)) {
    for (const f of functions) {
      if (isRecord(f)) {
        const name = stringField(f, "name");
        if (name !== undefined) names.push(name);
      }
    }
  }
  return names;
}

// ---------------------------------------------------------------------------------------------------------------
// Responses.

interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

interface Completion {
  content: string | null;
  toolCalls: WireToolCall[];
  finishReason: "stop" | "tool_calls";
  usage: WireUsage;
}

function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

function promptChars(req: ScriptedRequest): number {
  let chars = 0;
  for (const m of req.messages) {
    chars += m.content.length;
    for (const c of m.toolCalls) chars += c.name.length + c.arguments.length;
  }
  return chars;
}

function buildCompletion(req: ScriptedRequest, reply: { content?: string; toolCalls?: ScriptedToolCall[]; usage?: ScriptedUsage }): Completion {
  const toolCalls: WireToolCall[] = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${req.index}_${i}`,
    type: "function",
    function: {
      name: call.name,
      arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args),
    },
  }));
  // Like OpenAI: content is null on a pure tool-call turn.
  const content = reply.content ?? (toolCalls.length > 0 ? null : "");
  let completionChars = content?.length ?? 0;
  for (const c of toolCalls) completionChars += c.function.name.length + c.function.arguments.length;
  const promptTokens = reply.usage?.promptTokens ?? estimateTokens(promptChars(req));
  const completionTokens = reply.usage?.completionTokens ?? estimateTokens(completionChars);
  return {
    content,
    toolCalls,
    finishReason: toolCalls.length > 0 ? "tool_calls" : "stop",
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      ...(reply.usage?.cachedTokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: reply.usage.cachedTokens } }),
    },
  };
}

function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

function sendJson(res: http.ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(payload);
  res.writeHead(status, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { message, type: errorType(status), param: null, code: null } }, headers);
}

function sendRaw(res: http.ServerResponse, req: ScriptedRequest, body: unknown): void {
  if (!req.stream) {
    sendJson(res, 200, body);
    return;
  }
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.write(`data: ${JSON.stringify(body)}\n\n`);
  res.write("data: [DONE]\n\n");
  res.end();
}

function sendCompletion(res: http.ServerResponse, req: ScriptedRequest, completion: Completion): void {
  const message: Record<string, unknown> = { role: "assistant", content: completion.content, refusal: null };
  if (completion.toolCalls.length > 0) message["tool_calls"] = completion.toolCalls;
  sendJson(res, 200, {
    id: `chatcmpl-scripted-${req.index}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: req.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: completion.finishReason }],
    usage: completion.usage,
  });
}

/** Splits text into word-sized pieces (each keeps its trailing whitespace), so streams have several chunks. */
function splitWords(text: string): string[] {
  return text.match(/\s+|\S+\s*/g) ?? [];
}

/** Splits text into at most `parts` pieces by code points (never splits a surrogate pair). */
function splitInto(text: string, parts: number): string[] {
  const chars = Array.from(text);
  if (chars.length === 0) return [];
  const size = Math.ceil(chars.length / parts);
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(""));
  return pieces;
}

function streamCompletion(res: http.ServerResponse, req: ScriptedRequest, completion: Completion): void {
  if (res.destroyed || res.writableEnded) return;
  const includeUsage = isRecord(req.body) && isRecord(req.body["stream_options"]) && req.body["stream_options"]["include_usage"] === true;
  const id = `chatcmpl-scripted-${req.index}`;
  const created = Math.floor(Date.now() / 1000);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const send = (payload: unknown): void => {
    res.write(`data: ${JSON.stringify(payload)}\n\n`);
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null): void => {
    send({
      id,
      object: "chat.completion.chunk",
      created,
      model: req.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
    });
  };
  chunk({ role: "assistant", content: "" }, null);
  for (const piece of splitWords(completion.content ?? "")) chunk({ content: piece }, null);
  completion.toolCalls.forEach((call, index) => {
    chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }, null);
    for (const piece of splitInto(call.function.arguments, 3)) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null);
    }
  });
  chunk({}, completion.finishReason);
  if (includeUsage) {
    send({ id, object: "chat.completion.chunk", created, model: req.model, choices: [], usage: completion.usage });
  }
  res.write("data: [DONE]\n\n");
  res.end();
}

// ---------------------------------------------------------------------------------------------------------------
// Server.

const MAX_BODY_BYTES = 50 * 1024 * 1024;

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("request body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startScriptedOpenAIServer(script: Script, options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const requests: ScriptedRequest[] = [];
  const modelListings: ScriptedServer["modelListings"] = [];
  const authorized = (httpReq: http.IncomingMessage): boolean => options.apiKey === undefined || httpReq.headers.authorization === `Bearer ${options.apiKey}`;
  const scriptErrors: string[] = [];
  const sockets = new Set<Socket>();
  const hangs = new Set<{ timer: NodeJS.Timeout; finish: () => void }>();
  let nextIndex = 0;

  /** Waits `ms` unless the client goes away or the server closes first; resolves true if the wait ran out. */
  const hang = (ms: number, res: http.ServerResponse): Promise<boolean> =>
    new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => done(true), ms),
        finish: () => done(false),
      };
      const onClose = (): void => done(false);
      function done(elapsed: boolean): void {
        clearTimeout(entry.timer);
        hangs.delete(entry);
        res.off("close", onClose);
        resolve(elapsed);
      }
      hangs.add(entry);
      res.on("close", onClose);
    });

  const handleChat = async (httpReq: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const text = await readBody(httpReq);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      sendError(res, 400, "request body is not valid JSON");
      return;
    }
    if (!isRecord(body)) {
      sendError(res, 400, "request body must be a JSON object");
      return;
    }
    const rawMessages = body["messages"];
    const req: ScriptedRequest = {
      index: nextIndex++,
      model: stringField(body, "model") ?? "",
      messages: Array.isArray(rawMessages) ? rawMessages.map(normaliseMessage) : [],
      toolNames: offeredToolNames(body),
      stream: body["stream"] === true,
      toolChoice: body["tool_choice"],
      body,
    };
    requests.push(req);

    let reply: ScriptedReply;
    try {
      reply = await script(req);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      req.scriptError = message;
      scriptErrors.push(message);
      sendError(res, 500, `scripted server: script threw: ${message}`);
      return;
    }

    if ("hangMs" in reply) {
      const elapsed = await hang(reply.hangMs, res);
      if (!elapsed) return;
      reply = { content: "" };
    }
    if ("httpStatus" in reply) {
      sendError(res, reply.httpStatus, reply.error, reply.headers);
      return;
    }
    if ("cutOff" in reply) {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"id": "chatcmpl-cut", "choices": [');
      res.socket?.destroy();
      return;
    }
    if ("rawBody" in reply) {
      sendRaw(res, req, reply.rawBody);
      return;
    }
    const completion = buildCompletion(req, reply);
    if (req.stream) streamCompletion(res, req, completion);
    else sendCompletion(res, req, completion);
  };

  const server = http.createServer((httpReq, res) => {
    const path = (httpReq.url ?? "/").split("?")[0] ?? "/";
    const route = `${httpReq.method ?? "GET"} ${path.replace(/\/+$/, "")}`;
    if (route === "POST /v1/embeddings") {
      readEmbeddingInputs(httpReq).then(
        (inputs) =>
          sendJson(res, 200, {
            object: "list",
            model: "scripted-embed",
            data: inputs.map((text, index) => ({ object: "embedding", index, embedding: scriptedEmbedding(text) })),
          }),
        (err: unknown) => sendError(res, 400, `scripted server: ${err instanceof Error ? err.message : String(err)}`),
      );
      return;
    }
    if (route === "POST /v1/chat/completions") {
      if (!authorized(httpReq)) {
        httpReq.resume();
        sendError(res, 401, "Incorrect API key provided.");
        return;
      }
      handleChat(httpReq, res).catch((err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        if (!res.headersSent) sendError(res, 500, `scripted server: ${message}`);
        else res.destroy();
      });
      return;
    }
    // Drain any body so keep-alive connections stay usable.
    httpReq.resume();
    if (route === "GET /v1/models" && options.models !== null) {
      modelListings.push({ authorization: httpReq.headers.authorization });
      if (!authorized(httpReq)) {
        sendError(res, 401, "Incorrect API key provided.");
        return;
      }
      const ids = options.models ?? [SCRIPTED_MODEL_ID];
      sendJson(res, 200, { object: "list", data: ids.map((id) => ({ id, object: "model", created: 0, owned_by: "scripted" })) });
      return;
    }
    if (route === "GET /api/tags") {
      // Ollama's model list, so the server can also play a local Ollama found by its probe.
      sendJson(res, 200, { models: [{ name: SCRIPTED_MODEL_ID }] });
      return;
    }
    const hint = path.startsWith("/v1/responses")
      ? " (this server only implements chat completions: use ChatOpenAICompletions, or a model name ChatOpenAI does not route to the Responses API)"
      : "";
    sendError(res, 404, `scripted server: no route for ${httpReq.method ?? "?"} ${path}${hint}`);
  });

  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address: string | AddressInfo | null = server.address();
  if (address === null || typeof address === "string") throw new Error("scripted server: no TCP address");
  const { port } = address;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    if (closing) return closing;
    closing = new Promise<void>((resolve) => {
      for (const h of [...hangs]) h.finish();
      server.close(() => resolve());
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    });
    return closing;
  };

  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, scriptErrors, modelListings, close };
}

/** A deterministic 16-dimension embedding (letter counts folded), enough to play an embeddings endpoint. */
export function scriptedEmbedding(text: string): number[] {
  const v = new Array<number>(16).fill(0);
  for (const ch of text.toLowerCase()) v[ch.charCodeAt(0) % 16] = (v[ch.charCodeAt(0) % 16] ?? 0) + 1;
  const norm = Math.sqrt(v.reduce((a, b) => a + b * b, 0)) || 1;
  return v.map((x) => x / norm);
}

async function readEmbeddingInputs(req: IncomingMessage): Promise<string[]> {
  let raw = "";
  for await (const chunk of req) raw += String(chunk);
  const body: unknown = JSON.parse(raw);
  const input = typeof body === "object" && body !== null && "input" in body ? body.input : undefined;
  if (typeof input === "string") return [input];
  if (Array.isArray(input) && input.every((i): i is string => typeof i === "string")) return input;
  throw new Error("input must be a string or an array of strings");
}
