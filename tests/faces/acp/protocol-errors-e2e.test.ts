import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import readline from "node:readline";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI } from "../cli/cli-process.js";
import { WorkspaceLock } from "../../../src/sessions/workspace-lock.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";

/**
 * Whatever an editor (or a broken one) sends, `mini-cursor acp` answers with a JSON-RPC error that says what is
 * wrong, writes nothing but protocol messages to stdout, and goes on serving. Raw lines, no SDK on this side.
 */
interface RawAgent {
  child: ChildProcessWithoutNullStreams;
  send(line: string): void;
  /** The next message from stdout (each line must be one JSON-RPC message). */
  next(): Promise<Record<string, unknown>>;
  /** The response to request `id`. */
  response(id: number): Promise<Record<string, unknown>>;
  stderr(): string;
}

let ws: TempWorkspace;
let agent: RawAgent | null = null;

/** An agent process spoken to in raw lines, initialized, with a new session in the test's workspace. */
async function rawSession(): Promise<{ raw: RawAgent; sessionId: string }> {
  const raw = (agent = startRaw(ws.root));
  raw.send(request(1, "initialize", { protocolVersion: 1 }));
  await raw.response(1);
  raw.send(request(2, "session/new", { cwd: ws.root, mcpServers: [] }));
  return { raw, sessionId: ((await raw.response(2)).result as { sessionId: string }).sessionId };
}

function startRaw(cwd: string): RawAgent {
  const child = spawn(process.execPath, [CLI, "acp"], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      MINI_CURSOR_MEMORY: "off",
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      MINI_CURSOR_MODEL: "none",
    },
  });
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const lines = readline.createInterface({ input: child.stdout });
  const queue: Record<string, unknown>[] = [];
  const waiters: ((m: Record<string, unknown>) => void)[] = [];
  lines.on("line", (line) => {
    // JSON.parse throws (and fails the test) on anything that is not a protocol message.
    const message = JSON.parse(line) as Record<string, unknown>;
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  const next = () => {
    const queued = queue.shift();
    return queued ? Promise.resolve(queued) : new Promise<Record<string, unknown>>((resolve) => waiters.push(resolve));
  };
  return {
    child,
    send: (line) => child.stdin.write(`${line}\n`),
    next,
    async response(id) {
      for (;;) {
        const message = await next();
        if (message.id === id) return message;
      }
    },
    stderr: () => err,
  };
}

const request = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method, params });

beforeEach(async () => {
  ws = await makeTempWorkspace();
});
afterEach(async () => {
  if (agent) {
    const exited = new Promise((resolve) => agent?.child.on("close", resolve));
    agent.child.kill("SIGKILL");
    await exited;
  }
  agent = null;
  await ws.cleanup();
});

describe("mini-cursor acp on bad input", () => {
  it("answers each malformed message with a JSON-RPC error and keeps serving", async () => {
    const raw = (agent = startRaw(ws.root));
    raw.send("this is not json");
    expect(await raw.next()).toMatchObject({ id: null, error: { code: -32700 } });
    raw.send("[1, 2]");
    expect(await raw.next()).toMatchObject({ id: null, error: { code: -32600 } });

    raw.send(request(1, "initialize", { protocolVersion: 1 }));
    expect(await raw.response(1)).toMatchObject({ result: { protocolVersion: 1, agentCapabilities: { loadSession: true } } });

    raw.send(request(2, "session/teleport", {}));
    expect(await raw.response(2)).toMatchObject({ error: { code: -32601 } });
    // Params the schema refuses.
    raw.send(request(3, "session/new", { cwd: 42 }));
    expect(await raw.response(3)).toMatchObject({ error: { code: -32602 } });
    // Params that fit the schema but not the agent: each says what is wrong in its message.
    raw.send(request(4, "session/new", { cwd: "relative/folder", mcpServers: [] }));
    expect(await raw.response(4)).toMatchObject({ error: { code: -32602, message: 'cwd must be an absolute path, got "relative/folder"' } });
    raw.send(request(5, "session/new", { cwd: `${ws.root}/missing`, mcpServers: [] }));
    expect(await raw.response(5)).toMatchObject({ error: { code: -32602, message: `cwd ${ws.root}/missing does not exist` } });
    raw.send(request(6, "session/prompt", { sessionId: "nope", prompt: [{ type: "text", text: "hi" }] }));
    expect(await raw.response(6)).toMatchObject({ error: { code: -32602, message: expect.stringContaining('unknown session "nope"') } });
    raw.send(request(7, "session/load", { sessionId: "nope", cwd: ws.root, mcpServers: [] }));
    expect(await raw.response(7)).toMatchObject({ error: { code: -32602, message: expect.stringContaining('no session "nope"') } });

    // Still serving: a session opens, refuses an unknown mode and an empty prompt, and switches to a known mode.
    raw.send(request(8, "session/new", { cwd: ws.root, mcpServers: [] }));
    const created = await raw.response(8);
    const sessionId = (created.result as { sessionId: string }).sessionId;
    expect(sessionId).toMatch(/^\d{8}-\d{6}-[0-9a-f]{4}$/);
    raw.send(request(9, "session/set_mode", { sessionId, modeId: "yolo" }));
    expect(await raw.response(9)).toMatchObject({ error: { code: -32602, message: 'unknown mode "yolo"; modes: ask, auto, read-only' } });
    raw.send(request(10, "session/prompt", { sessionId, prompt: [{ type: "text", text: "   " }] }));
    expect(await raw.response(10)).toMatchObject({ error: { code: -32602, message: "the prompt has no text" } });
    raw.send(request(11, "session/set_mode", { sessionId, modeId: "read-only" }));
    expect(await raw.response(11)).toMatchObject({ result: {} });
    expect(raw.child.exitCode).toBeNull();
    expect(raw.stderr()).not.toMatch(/\n\s+at .*:\d+:\d+/);
  });

  it("a prompt in a workspace where another session runs is refused with one line naming it", async () => {
    // This test process holds the workspace lock, as a `mini-cursor run` there would.
    const held = WorkspaceLock.acquire(ws.root, { force: false, flag: "--force" });
    try {
      const { raw, sessionId } = await rawSession();
      raw.send(request(3, "session/prompt", { sessionId, prompt: [{ type: "text", text: "Add greet" }] }));
      expect(await raw.response(3)).toMatchObject({
        error: {
          code: -32603,
          message: `another session is running in this workspace (process ${process.pid}); wait for it to finish or stop it, then send the prompt again`,
        },
      });
    } finally {
      held.release();
    }
  });

  it("a prompt whose model endpoint does not answer is one JSON-RPC error naming the endpoint; the session stays usable", async () => {
    const { raw, sessionId } = await rawSession();
    raw.send(request(3, "session/prompt", { sessionId, prompt: [{ type: "text", text: "Add greet" }] }));
    const failed = await raw.response(3);
    expect(failed).toMatchObject({ error: { code: -32603, message: expect.stringContaining("http://127.0.0.1:9/v1") } });
    expect(String((failed.error as { message: string }).message)).not.toMatch(/\n\s+at /);
    raw.send(request(4, "session/set_mode", { sessionId, modeId: "auto" }));
    expect(await raw.response(4)).toMatchObject({ result: {} });
  });
});
