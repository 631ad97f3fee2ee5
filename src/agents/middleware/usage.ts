import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { UsageTotals } from "../../core/index.js";
import { budgetExceededBy, type Budget } from "../../cost/budget.js";
import { measureCall, type CallUsage } from "../../cost/estimate.js";
import { costUsd, findPrice } from "../../cost/prices.js";
import { toolsOverhead } from "../context-budget.js";
import { runOf, type AgentRun } from "../run-context.js";
import type { AgentRunValue, RunStop } from "../run-state.js";
import { ESTIMATED_USAGE, RUN_STOP, runUsage, textOf, type RunUsage } from "../transcript.js";
import type { ModelCallDeps, ModelCallWrap } from "./deps.js";

/**
 * Meters every model call (provider usage, or a chars/4 estimate stamped on the reply so the transcript is the
 * record), tells the watchers with the session's running totals, and ends the run instead of calling the model once
 * the session's budget or the run's model-call limit is reached. The per-call deadline also lives here.
 */
type UsageDeps = Pick<ModelCallDeps, "spec" | "models" | "prices">;

/** The session's totals: what it had used before this run plus this run's calls so far (from the transcript). */
function sessionTotals(deps: UsageDeps, state: AgentRun, run: RunUsage, extra?: CallUsage): UsageTotals & { knownCostUsd: number } {
  const inputTokens = run.inputTokens + (extra?.inputTokens ?? 0);
  const outputTokens = run.outputTokens + (extra?.outputTokens ?? 0);
  const price = findPrice(deps.models.describe(deps.spec.name), deps.prices);
  const base = state.usageBase;
  const knownCostUsd = base.knownCostUsd + (price ? costUsd({ inputTokens, outputTokens }, price.price) : 0);
  const unpriced = base.unpriced || (!price && inputTokens + outputTokens > 0);
  return {
    inputTokens: base.inputTokens + inputTokens,
    outputTokens: base.outputTokens + outputTokens,
    calls: base.calls + run.modelCalls + (extra ? 1 : 0),
    costUsd: unpriced ? null : Math.round(knownCostUsd * 1_000_000) / 1_000_000,
    estimated: base.estimatedCalls + run.estimatedCalls + (extra?.estimated ? 1 : 0) > 0,
    knownCostUsd,
  };
}

/** Why the session's budget is used up, or null while there is room (checked before every model call). */
export function sessionBudgetSpent(deps: UsageDeps, state: AgentRun, budget: Budget, run: RunUsage = runUsage(state.messages)): string | null {
  if (budget.tokens === undefined && budget.usd === undefined) return null;
  const totals = sessionTotals(deps, state, run);
  return budgetExceededBy({ tokens: totals.inputTokens + totals.outputTokens, knownCostUsd: totals.knownCostUsd }, budget)?.detail ?? null;
}

/** Whether the newest tool results include a successful finish call: the run is over even if other calls followed it. */
export function finishedNow(state: AgentRunValue, finishTool: string): boolean {
  for (let i = state.messages.length - 1; i >= 0; i -= 1) {
    const m = state.messages[i];
    if (!m || !ToolMessage.isInstance(m)) return false;
    if (m.name === finishTool && m.status !== "error") return true;
  }
  return false;
}

export function meterUsage(deps: UsageDeps & Pick<ModelCallDeps, "emit" | "callTimeoutMs">): ModelCallWrap {
  return async (request, handler) => {
    // Checked here rather than in a before-model hook: every hook is a graph step with a checkpoint of its own.
    // This run's usage so far, read from the transcript once per call.
    const run = runUsage(request.state.messages);
    const state = runOf(request.state, request.runtime.context);
    const stop = stopBeforeCall(deps, state, state.budget, run);
    if (stop) return stopReply(stop);
    const raw: unknown = await withDeadline(Promise.resolve(handler(request)), deps.callTimeoutMs);
    // A structured answer (the planner's responseFormat) arrives as LangChain's { structuredResponse, messages }: the
    // model's reply is its first message, metered in place.
    const structured = structuredAnswer(raw);
    const reply = structured ? structured.messages[0] : normalize(AIMessage.isInstance(raw) ? raw : new AIMessage({ content: textOf(raw as BaseMessage) }));
    const { inputTokens, outputTokens, estimated } = measureCall(request.messages, reply, toolsOverhead(request.tools));
    if (estimated) {
      reply.usage_metadata = { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
      reply.response_metadata = { ...reply.response_metadata, [ESTIMATED_USAGE]: true };
    } else if (!reply.usage_metadata) {
      reply.usage_metadata = { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
    }
    const model = deps.models.describe(deps.spec.name);
    const { knownCostUsd: _known, ...total } = sessionTotals(deps, state, run, { inputTokens, outputTokens, estimated });
    deps.emit({
      type: "model_call",
      agent: deps.spec.name,
      model,
      inputTokens,
      outputTokens,
      estimated,
      total,
    });
    return structured ? (structured as unknown as AIMessage) : reply;
  };
}

/** LangChain's structured answer, as a wrap of a model call with `responseFormat` gets it from its handler. */
function structuredAnswer(value: unknown): { structuredResponse: unknown; messages: [AIMessage, ...BaseMessage[]] } | undefined {
  if (typeof value !== "object" || value === null || !("structuredResponse" in value) || !("messages" in value)) return undefined;
  const { messages } = value as { messages: unknown };
  return Array.isArray(messages) && AIMessage.isInstance(messages[0]) ? (value as { structuredResponse: unknown; messages: [AIMessage, ...BaseMessage[]] }) : undefined;
}

/**
 * Why the run must not call its model again, if it must not: the loop guard stopped it, a finish call ended it, the
 * model-call limit or the session budget is reached. (LangChain's modelCallLimitMiddleware is not used: its
 * before-model hook returns the whole state when under the limit, which writes every channel, the transcript
 * included, at every model call: 334 MiB instead of 11 MiB for a 100-run session in `npm run bench`. Nor is its
 * toolCallLimitMiddleware, so there is no tool-call limit: its limits are fixed when the agent is built (ours are per
 * run), it adds an after-model graph step per call, and its "end" exit throws on a reply that calls two different
 * tools while "continue" leaves stopping to the model. Tool calls are bounded by this model-call limit, the budget and
 * the loop guard.)
 */
function stopBeforeCall(deps: UsageDeps, state: AgentRun, budget: Budget, run: RunUsage): RunStop | { kind: "finished"; detail: string } | null {
  if (state.stop) return state.stop;
  if (finishedNow(state, deps.spec.finishTool.name)) return { kind: "finished", detail: "" };
  const calls = run.modelCalls;
  if (calls >= state.maxModelCalls) return { kind: "call_limit", detail: `${calls} model calls` };
  const spent = sessionBudgetSpent(deps, state, budget, run);
  return spent ? { kind: "budget", detail: spent } : null;
}

/** Ends the run without a model call: a reply with no tool calls, marked with why (read back by transcript.ts). */
function stopReply(stop: RunStop | { kind: "finished"; detail: string }): AIMessage {
  return new AIMessage({ content: "", response_metadata: { [RUN_STOP]: stop } });
}

/** A stalled endpoint cannot hang the run: the call fails after the deadline (the session stays resumable). */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the model did not answer within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Arguments that were not valid JSON arrive in `invalid_tool_calls`, which the OpenAI converter would drop from the
 * next request while our error reply to them stays: fold them into `tool_calls` (empty args) so every tool result
 * keeps its call, and the tool middleware answers them with an error.
 */
function normalize(reply: AIMessage): AIMessage {
  const invalid = reply.invalid_tool_calls ?? [];
  if (invalid.length === 0) return reply;
  return new AIMessage({
    content: reply.content,
    id: reply.id,
    name: reply.name,
    tool_calls: [...(reply.tool_calls ?? []), ...invalid.map((c, i) => ({ id: c.id ?? `invalid_${i}`, name: c.name ?? "unknown", args: {}, type: "tool_call" as const }))],
    invalid_tool_calls: invalid.map((c, i) => ({ ...c, id: c.id ?? `invalid_${i}` })),
    usage_metadata: reply.usage_metadata,
    response_metadata: reply.response_metadata,
  });
}
