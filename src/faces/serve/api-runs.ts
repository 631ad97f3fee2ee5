import type { Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { approvalAnswerSchema, type ApprovalAnswer, type ProgressEvent } from "../../core/index.js";
import type { MiniCursorGraph } from "../../graph/build-graph.js";
import { runConversationTurn, TurnRefused, type ConversationSettings } from "../../host/conversation-turn.js";
import type { ApprovalPrompter } from "../../host/prompter.js";
import { resolveSessionConfig } from "../../host/config-setup.js";
import { readStoredOptions } from "../../host/stored-options.js";
import type { Clock } from "../../platform/clock.js";
import { errorMessage } from "../../platform/error-info.js";
import { BusyError } from "../../sessions/busy-error.js";
import type { SessionRow } from "../../sessions/session-store.js";
import type { SessionThreads } from "./session-threads.js";

export interface RunRoutesOptions {
  graph: MiniCursorGraph;
  threads: SessionThreads;
  workspace: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
}

/** What a run asks of the session: a message (a new turn), or the answer to the approval or question it waits on. */
type RunAsk = { text: string; decision?: ApprovalAnswer; answer?: string };

class RunRefused extends Error {
  constructor(
    readonly status: 400 | 409,
    message: string,
  ) {
    super(message);
  }
}

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** The message of a run's input: `{ message }`, `{ task }`, or the last of `{ messages }` (LangChain's agent chat UI). */
function messageOf(input: unknown): string | undefined {
  const o = record(input);
  if (!o) return undefined;
  for (const key of ["message", "task"]) if (typeof o[key] === "string" && o[key].trim()) return o[key].trim();
  const last: unknown = Array.isArray(o.messages) ? o.messages.at(-1) : undefined;
  const content = typeof last === "string" ? last : record(last)?.content;
  return typeof content === "string" && content.trim() ? content.trim() : undefined;
}

/** Reads a run's body as what it asks of this session (its row says what it waits on). */
export function runAsk(body: unknown, row: SessionRow): RunAsk {
  const b = record(body) ?? {};
  const resume = record(b.command)?.resume;
  if (resume !== undefined) {
    if (row.status === "awaiting_approval") {
      const given = typeof resume === "string" ? { decision: resume } : resume;
      const parsed = approvalAnswerSchema.safeParse(given);
      if (!parsed.success)
        throw new RunRefused(
          400,
          'the session waits for an approval: resume with { "decision": "approve" }, { "decision": "reject", "reason": "..." } or { "decision": "always", "pattern": "..." }',
        );
      return { text: "", decision: parsed.data };
    }
    if (row.status === "awaiting_input") {
      const answer = typeof resume === "string" ? resume : record(resume)?.answer;
      if (typeof answer !== "string" || !answer.trim())
        throw new RunRefused(400, 'the session waits for an answer: resume with the answer\'s text, or { "answer": "..." }');
      return { text: answer.trim(), answer: answer.trim() };
    }
    throw new RunRefused(409, `session ${row.id} waits for no answer (it is ${row.status}): send a message instead, as { "input": { "message": "..." } }`);
  }
  const text = messageOf(b.input);
  if (text === undefined)
    throw new RunRefused(400, 'a run needs a message, as { "input": { "message": "..." } }, or a command answering what the session waits on');
  return { text };
}

/** No person here: the run's own answer for the approval or question the session waits on, then every later one waits. */
function apiPrompter(ask: RunAsk, answer: string | undefined): ApprovalPrompter {
  let decision = ask.decision;
  let text = answer;
  return {
    ask: () => {
      const given = decision ?? null;
      decision = undefined;
      return Promise.resolve(given);
    },
    askQuestion: () => {
      const given = text ?? null;
      text = undefined;
      return Promise.resolve(given);
    },
    close: () => undefined,
  };
}

/** The session's own settings (as its last run left them), so an API run changes none of them. */
async function settingsOf(row: SessionRow, workspace: string, env: NodeJS.ProcessEnv): Promise<ConversationSettings> {
  const stored = readStoredOptions(row.options);
  const safety = stored.safety ?? (await resolveSessionConfig({}, workspace, env)).safety;
  return {
    approval: safety.approval,
    allowNetwork: safety.allowNetwork,
    approveFileChanges: safety.approveFileChanges,
    ...(stored.model ? { model: stored.model } : {}),
  };
}

/** Stream modes a run asked for (the Agent Server's default: values). */
function modesOf(body: unknown): Set<string> {
  const m = record(body)?.stream_mode;
  const list = Array.isArray(m) ? m : typeof m === "string" ? [m] : ["values"];
  return new Set(list.filter((x): x is string => typeof x === "string"));
}

/**
 * Runs over the API as turns of the session host (src/host/conversation-turn.ts), the same as an editor's prompt or
 * a line typed in `mini-cursor chat`: under the workspace's and the session's locks, with the session's settings.
 * An approval or question met on the way is not asked of anyone: the run ends there, the thread interrupted, and the
 * next run answers it with a `Command` resume.
 */
export function runRoutes(app: Hono, o: RunRoutesOptions): void {
  const start = async (c: Context) => {
    const threadId = c.req.param("id") ?? "";
    const row = await o.threads.rowOf(threadId);
    const body: unknown = await c.req.json().catch(() => ({}));
    return { threadId, row, body, ask: runAsk(body, row) };
  };
  const turn = async (
    threadId: string,
    row: SessionRow,
    ask: RunAsk,
    signal: AbortSignal,
    emit: (event: ProgressEvent) => void,
    streamTo?: Parameters<typeof runConversationTurn>[0]["streamTo"],
  ) => {
    const result = await runConversationTurn({
      sessionId: row.id,
      workspace: o.workspace,
      text: ask.text,
      settings: await settingsOf(row, o.workspace, o.env),
      printer: { emit },
      prompter: (answer) => apiPrompter(ask, answer),
      cancel: signal,
      env: o.env,
      clock: o.clock,
      ...(streamTo ? { streamTo } : {}),
    });
    const state = await o.graph.getState({ configurable: { thread_id: threadId } });
    return { result, values: state.values as unknown };
  };
  const refusal = (c: Context, error: unknown) => {
    if (error instanceof RunRefused) return c.json({ error: error.message }, error.status);
    if (error instanceof BusyError || error instanceof TurnRefused) return c.json({ error: error.message }, 409);
    throw error;
  };

  app.post("/threads/:id/runs/wait", async (c) => {
    try {
      const { threadId, row, ask } = await start(c);
      const { values, result } = await turn(threadId, row, ask, c.req.raw.signal, () => undefined);
      if (result.errorLine) return c.json({ error: result.errorLine }, 500);
      return c.json(values);
    } catch (error) {
      return refusal(c, error);
    }
  });

  app.post("/threads/:id/runs/stream", async (c) => {
    let started;
    try {
      started = await start(c);
    } catch (error) {
      return refusal(c, error);
    }
    const { threadId, row, ask, body } = started;
    const modes = modesOf(body);
    const subgraphs = record(body)?.stream_subgraphs === true;
    return streamSSE(c, async (sse) => {
      let chain = Promise.resolve();
      const send = (event: string, data: unknown) => {
        chain = chain.then(() => sse.writeSSE({ event, data: JSON.stringify(data) }));
      };
      send("metadata", { run_id: crypto.randomUUID(), thread_id: threadId });
      const sink = (namespace: readonly string[], mode: string, data: unknown) => {
        if (!modes.has(mode) || (namespace.length > 0 && !subgraphs)) return;
        send(namespace.length > 0 ? `${mode}|${namespace.join("|")}` : mode, data);
      };
      try {
        const { result } = await turn(threadId, row, ask, c.req.raw.signal, (event) => modes.has("custom") && send("custom", event), sink);
        if (result.errorLine) send("error", { error: "RunError", message: result.errorLine });
      } catch (error) {
        const message = error instanceof BusyError || error instanceof TurnRefused ? error.message : errorMessage(error);
        send("error", { error: error instanceof BusyError ? "Busy" : "RunError", message });
      }
      await chain;
    });
  });
}
