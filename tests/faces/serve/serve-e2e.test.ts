import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, startCli, type CliRun } from "../cli/cli-process.js";
import { useHangingCoderSession } from "../cli/hanging-session.js";
import { startAcp, updatesOf } from "../acp/acp-process.js";

/**
 * `mini-cursor serve`: a workspace's sessions over the LangGraph Agent Server API, read by the real
 * @langchain/langgraph-sdk client from the built CLI's server; sessions made by the CLI against a scripted model.
 */
const { session, cli, rows, startStuckRun } = useHangingCoderSession();
const servers: CliRun[] = [];

afterEach(async () => {
  for (const run of servers.splice(0)) {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGTERM");
    await run.done;
  }
});

/** Starts `serve --json` and reads its first line (where it listens). */
async function startServe(args: string[], env: Record<string, string> = {}): Promise<{ url: string; run: CliRun }> {
  const run = startCli(["serve", "--port", "0", "--json", ...args], { cwd: session.root, env: { ...session.env, ...env } });
  servers.push(run);
  for (let waited = 0; !run.stdout().includes("\n"); waited += 50) {
    if (run.child.exitCode !== null || waited > 30_000) throw new Error(`serve did not start: ${run.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const line = JSON.parse(run.stdout().split("\n")[0] ?? "") as { type: string; url: string };
  expect(line.type).toBe("serving");
  return { url: line.url, run };
}

describe("mini-cursor serve", () => {
  it("shows a CLI session waiting for an approval as a thread: its row, state, plan, pending approval and history", async () => {
    const waiting = await cli(["run", "--approval", "ask", "Add greet with a test"]);
    expect(waiting.code).toBe(130);
    const [row] = await rows();
    expect(row?.status).toBe("awaiting_approval");
    const { url } = await startServe([]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new Client({ apiUrl: url });

    const [assistant, ...others] = await client.assistants.search();
    expect(others).toEqual([]);
    expect(assistant?.graph_id).toBe("mini-cursor");
    const drawn = await client.assistants.getGraph(assistant?.assistant_id ?? "");
    expect(drawn.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(["planner", "coder", "researcher", "reviewer"]));

    const threads = await client.threads.search({ metadata: { session_id: row?.id } });
    expect(threads).toHaveLength(1);
    const thread = threads[0];
    expect(thread).toMatchObject({
      status: "interrupted",
      metadata: { graph_id: "mini-cursor", session_id: row?.id, title: "Add greet with a test", session_status: "awaiting_approval", turns: 1 },
    });
    const threadId = thread?.thread_id ?? "";
    expect(await client.threads.get(threadId)).toMatchObject({ thread_id: threadId, status: "interrupted" });

    // The state the CLI left: the task, the plan, and the approval it waits for (the coder's test command).
    const state = await client.threads.getState<{ task: string; plan: { agent: string; status: string }[] }>(threadId, undefined, { subgraphs: true });
    expect(state.values.task).toBe("Add greet with a test");
    expect(state.values.plan.map((s) => s.agent)).toContain("coder");
    expect(JSON.stringify(state.tasks)).toContain("node --test test/");
    // Step by step: the planner's turn and the coder's step before it, its tool calls among them.
    const history = await client.threads.getHistory(threadId, { limit: 50 });
    expect(history.length).toBeGreaterThan(2);
    expect(history.flatMap((h) => h.next)).toEqual(expect.arrayContaining(["planner", "coder"]));
    const coder = await client.threads.getState(threadId, undefined, { subgraphs: true });
    expect(JSON.stringify(coder.tasks)).toMatch(/write_file|run_command/);

    // Reading changed nothing; an answer that is not one is refused in one line, the session left as it was.
    expect((await rows())[0]).toMatchObject({ id: row?.id, status: "awaiting_approval" });
    await expect(client.runs.wait(threadId, "mini-cursor", { command: { resume: { decision: "maybe" } } })).rejects.toThrow(
      /waits for an approval: resume with/,
    );
    expect((await rows())[0]).toMatchObject({ id: row?.id, status: "awaiting_approval" });
    await expect(client.threads.get("00000000-0000-4000-8000-000000000000")).rejects.toThrow(/no session has thread id/);
  });

  it("answers the approval with a Command resume, streams the rest with subgraph namespaces, and takes a follow-up as the next turn", async () => {
    expect((await cli(["run", "--approval", "ask", "Add greet with a test"])).code).toBe(130);
    const [row] = await rows();
    const { url } = await startServe([]);
    const client = new Client({ apiUrl: url });
    const threadId = (await client.threads.search({ metadata: { session_id: row?.id } }))[0]?.thread_id ?? "";

    /** Approves every approval the session stops at, one run each, as Studio's resume button would. */
    const approveAll = async () => {
      const events: { event: string; data: unknown }[] = [];
      for (let runs = 0; (await client.threads.get(threadId)).status === "interrupted"; runs++) {
        if (runs > 5) throw new Error("still waiting after six approvals");
        const stream = client.runs.stream(threadId, "mini-cursor", {
          command: { resume: { decision: "approve" } },
          streamMode: ["values", "updates", "custom"],
          streamSubgraphs: true,
        });
        for await (const chunk of stream) events.push(chunk);
      }
      return events;
    };
    const events = await approveAll();
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("metadata");
    expect(names).not.toContain("error");
    // The agents' own steps, under their namespaces, and the session's progress events.
    expect(names.some((n) => /^updates\|coder:/.test(n))).toBe(true);
    expect(names.some((n) => /^updates\|reviewer:/.test(n))).toBe(true);
    const custom = events.filter((e) => e.event === "custom").map((e) => e.data as { type: string; decision?: string });
    expect(custom).toContainEqual(expect.objectContaining({ type: "approval_answered", decision: "approve" }));
    expect(custom.at(-1)).toMatchObject({ type: "session_finished", status: "done" });
    // The CLI sees the session done, with the work in the workspace.
    expect((await rows())[0]).toMatchObject({ id: row?.id, status: "done", turns: 1 });
    expect((await client.threads.get(threadId)).status).toBe("idle");

    // A follow-up from the SDK is the session's next turn, as `resume --message` would make it.
    const followed = await client.runs.wait(threadId, "mini-cursor", { input: { message: "Add shout(name) in src/shout.js" } });
    expect(followed).toMatchObject({ task: "Add greet with a test" });
    await approveAll();
    expect((await rows())[0]).toMatchObject({ id: row?.id, status: "done", turns: 2, latestInstruction: "Add shout(name) in src/shout.js" });
    // An editor loading the session replays both turns, the SDK's follow-up among them.
    const editor = startAcp({ cwd: session.root, env: session.env });
    try {
      await editor.agent.request("initialize", { protocolVersion: 1 });
      await editor.agent.request("session/load", { sessionId: row?.id ?? "", cwd: session.root, mcpServers: [] });
      const said = updatesOf(editor, "user_message_chunk").map((u) => (u.content.type === "text" ? u.content.text : ""));
      expect(said).toEqual(expect.arrayContaining(["Add greet with a test", "Add shout(name) in src/shout.js"]));
    } finally {
      await editor.close();
    }
    // A command answering nothing is turned away: the session waits for no answer.
    await expect(client.runs.wait(threadId, "mini-cursor", { command: { resume: { decision: "approve" } } })).rejects.toThrow(
      /waits for no answer \(it is done\)/,
    );
  });

  it("a thread made over the API is a new session: its first run's message is the task, and mini-cursor sessions lists it", async () => {
    expect((await cli(["run", "Add greet with a test"])).code).toBe(0);
    const { url } = await startServe([]);
    const client = new Client({ apiUrl: url });
    const thread = await client.threads.create();
    expect(thread.metadata).toMatchObject({ graph_id: "mini-cursor", session_status: "new", title: "" });
    const sessionId = String(thread.metadata?.session_id);
    expect((await rows()).map((r) => r.id)).toContain(sessionId);
    const done = await client.runs.wait(thread.thread_id, "mini-cursor", { input: { messages: [{ role: "user", content: "Add greet with a test" }] } });
    expect(done).toMatchObject({ task: "Add greet with a test" });
    expect((await rows()).find((r) => r.id === sessionId)).toMatchObject({ status: "done", task: "Add greet with a test", turns: 1 });
    expect((await cli(["sessions"])).stdout).toContain(sessionId);
    // A run without a message, or a state change by hand, is refused in one line.
    await expect(client.runs.wait(thread.thread_id, "mini-cursor", { input: {} })).rejects.toThrow(/a run needs a message/);
    await expect(client.threads.updateState(thread.thread_id, { values: { task: "other" } })).rejects.toThrow(/its state changes by running it/);
  });

  it("one session runs at a time in a workspace, whichever face started it: an API run waits for none, it is refused", async () => {
    const { run, id } = await startStuckRun();
    try {
      const { url } = await startServe([]);
      const client = new Client({ apiUrl: url });
      const [thread] = await client.threads.search({ metadata: { session_id: id } });
      expect(thread?.status).toBe("busy");
      await expect(client.runs.wait(thread?.thread_id ?? "", "mini-cursor", { input: { message: "Add shout(name) in src/shout.js" } })).rejects.toThrow(
        /running in this workspace/,
      );
      const streamed: { event: string; data: unknown }[] = [];
      for await (const chunk of client.runs.stream(thread?.thread_id ?? "", "mini-cursor", { input: { message: "Add shout" } })) streamed.push(chunk);
      expect(streamed.map((e) => e.event)).toEqual(["metadata", "error"]);
      expect(streamed[1]?.data).toMatchObject({ error: "Busy", message: expect.stringMatching(/running in this workspace/) });
      expect((await rows())[0]).toMatchObject({ id, status: "running", turns: 1 });
    } finally {
      run.child.kill("SIGTERM");
      await run.done;
    }
  });

  it("a client that goes away mid-run stops it at its next safe point: the session is left interrupted, resumable", async () => {
    expect((await cli(["run", "Add greet with a test"])).code).toBe(0);
    // The hang-coder model: the coder's first call is never answered.
    const { url } = await startServe([], { MINI_CURSOR_MODEL: "hang-coder" });
    const client = new Client({ apiUrl: url });
    const thread = await client.threads.create();
    const gone = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const chunk of client.runs.stream(thread.thread_id, "mini-cursor", {
        input: { message: "Add greet with a test" },
        streamMode: ["custom"],
        signal: gone.signal,
      })) {
        const type = (chunk.data as { type?: string } | undefined)?.type;
        if (type) seen.push(type);
        if (type === "step_started") gone.abort();
      }
    })();
    await reading.catch(() => undefined);
    expect(seen).toContain("step_started");
    const sessionId = String(thread.metadata?.session_id);
    for (let waited = 0; (await rows()).find((r) => r.id === sessionId)?.status === "running"; waited += 100) {
      if (waited > 30_000) throw new Error("the run went on after its client left");
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await rows()).find((r) => r.id === sessionId)?.status).toBe("interrupted");
  });

  it("listens off loopback only with a token, and then turns away a request without it", async () => {
    expect((await cli(["run", "Add greet with a test"])).code).toBe(0);
    const refused = await runCli(["serve", "--host", "0.0.0.0", "--port", "0"], { cwd: session.root, env: session.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe("mini-cursor: --host 0.0.0.0 is reachable from other machines: set MINI_CURSOR_SERVE_TOKEN first\n");

    const { url } = await startServe(["--host", "0.0.0.0"], { MINI_CURSOR_SERVE_TOKEN: "serve-test-token" });
    const local = `http://127.0.0.1:${new URL(url).port}`;
    const bare = await fetch(`${local}/threads/search`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(bare.status).toBe(401);
    const wrong = await fetch(`${local}/threads/search`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer nope" },
      body: "{}",
    });
    expect(wrong.status).toBe(401);
    const withKey = new Client({ apiUrl: local, apiKey: "serve-test-token" });
    expect(await withKey.threads.search()).toMatchObject([{ status: "idle", metadata: { session_status: "done", title: "Add greet with a test" } }]);
    const bearer = await fetch(`${local}/threads/search`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer serve-test-token" },
      body: "{}",
    });
    expect(bearer.status).toBe(200);
  });

  it("a workspace without sessions, or a port in use, is one line and exit 1", async () => {
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), "mc-serve-empty-"));
    try {
      const empty = await runCli(["serve", "--port", "0", "--workspace", elsewhere], { cwd: session.root, env: session.env });
      expect(empty.stderr).toBe(`mini-cursor: ${elsewhere} has no sessions yet (start one with mini-cursor run)\n`);
      expect(empty.code).toBe(1);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
    expect((await cli(["run", "Add greet with a test"])).code).toBe(0);
    const { url } = await startServe([]);
    const port = new URL(url).port;
    const taken = await runCli(["serve", "--port", port], { cwd: session.root, env: session.env });
    expect(taken.stderr).toBe(`mini-cursor: port ${port} on 127.0.0.1 is in use\n`);
    expect(taken.code).toBe(1);
  });
});
