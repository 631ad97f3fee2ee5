import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { COMPACTED, runOf, wasCompacted } from "../run.js";
import type { ModelCallDeps, ModelCallWrap } from "./deps.js";
import { compactPrompt } from "./context-compaction.js";
import { elideLarge, elisionLimit } from "./context-elision.js";
import { countTokens, toolsOverhead } from "./context-tokens.js";

/**
 * Keeps every prompt under the run's token budget (fitToBudget below). Only the request's messages change: the stored
 * transcript keeps everything. Hand-written rather than LangChain's contextEditingMiddleware: its trigger is fixed
 * when the agent is built (our budget is per session, in the run's context), it edits the state's own message list
 * in place, and its clearing moves at every call, which defeats prompt caching (context-compaction.ts); its
 * summarization middleware spends a model call and loses exit codes.
 */
export function fitContext(deps: Pick<ModelCallDeps, "spec" | "emit">): ModelCallWrap {
  return async (request, handler) => {
    const { maxPromptTokens: budget, stepId } = runOf(request.state, request.runtime.context);
    const view = fitToBudget(request.messages, budget, toolsOverhead(request.tools));
    const reply = await handler({ ...request, messages: view.messages });
    if (!view.cleared || !AIMessage.isInstance(reply)) return reply;
    if (!wasCompacted(request.state.messages)) {
      deps.emit({
        type: "notice",
        level: "info",
        message: `${deps.spec.name} ${stepId}: older context ${view.summarized > 0 ? `summarized (${view.summarized} turns)` : "cleared"} to keep prompts under ${budget} tokens`,
      });
    }
    reply.response_metadata = { ...reply.response_metadata, [COMPACTED]: true };
    return reply;
  };
}

/** The prompt a model call is sent: within the budget, tool definitions (`overhead`) included. */
export interface BudgetView {
  messages: BaseMessage[];
  tokens: number;
  /** Some older context is cleared or folded in this prompt. */
  cleared: boolean;
  /** Turns folded into the summary. */
  summarized: number;
}

const LAST_RESORT_ELISION = 500;

/**
 * The prompt for the next model call of a run, without touching the stored transcript: large arguments and replies
 * of earlier turns elided (context-elision.ts); then, once the run outgrows the budget, older tool results cleared,
 * then their calls' arguments, then the oldest turns folded into a summary that keeps what later steps need (files
 * touched, commands with exit codes, errors), in batches a prompt cache can follow (context-compaction.ts). Only
 * when the newest turn alone is too big are its results cut, for this request.
 */
export function fitToBudget(stored: readonly BaseMessage[], budget: number, overhead: number, elideOver = elisionLimit(budget)): BudgetView {
  const limit = budget - overhead;
  const messages = elideLarge(stored, elideOver);
  let tokens = countTokens(messages);
  // Every earlier request was a prefix of this one: if this one fits, none was compacted.
  if (tokens <= limit) return { messages, tokens: tokens + overhead, cleared: false, summarized: 0 };
  const { messages: compacted, compaction } = compactPrompt(messages, limit);
  let view = compacted;
  tokens = countTokens(view);
  // The newest turn is never folded; when its results alone are too big (several large reads in one reply), cut them.
  if (tokens > limit) view = cutNewestResults(view, tokens - limit);
  tokens = countTokens(view);
  // Several calls of the newest reply with arguments each just under the elision limit: elide those too.
  if (tokens > limit) view = elideLarge(view, LAST_RESORT_ELISION);
  tokens = countTokens(view);
  return { messages: view, tokens: tokens + overhead, cleared: true, summarized: compaction.folded };
}

const CUT_NOTE = "\n[… cut to keep the prompt within budget; read a smaller range or one file at a time]";

/** Shortens the tool results after the last model reply, largest first, by about `excessTokens` in all. */
function cutNewestResults(view: BaseMessage[], excessTokens: number): BaseMessage[] {
  const lastAi = view.findLastIndex((m) => AIMessage.isInstance(m));
  const out = [...view];
  // 4 characters per token, plus room for the notes and a margin.
  let excess = excessTokens * 4 + 400;
  const results = out
    .map((m, i) => ({ m, i }))
    .filter(({ m, i }) => i > lastAi && ToolMessage.isInstance(m))
    .sort((a, b) => textLength(b.m) - textLength(a.m));
  for (const { m, i } of results) {
    if (excess <= 0) break;
    const text = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
    const keep = Math.max(200, text.length - excess);
    if (keep >= text.length) continue;
    excess -= text.length - keep;
    const tool = m as ToolMessage;
    out[i] = new ToolMessage({ tool_call_id: tool.tool_call_id, name: tool.name, content: `${text.slice(0, keep)}${CUT_NOTE}`, status: tool.status });
  }
  return out;
}

function textLength(m: BaseMessage): number {
  return typeof m.content === "string" ? m.content.length : JSON.stringify(m.content).length;
}
