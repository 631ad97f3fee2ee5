import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { Command, getCurrentTaskInput } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import {
  type AgentRun,
  type AgentRunUpdate,
  type AgentRunValue,
  contextOf,
  ESTIMATED_USAGE,
  isModelReply,
  RUN_STOP,
  runOf,
  type RunStop,
  runUsage,
  type RunUsage,
  textOf,
} from "../run.js";
import { judgeReply } from "./approval.js";
import { createHash } from "node:crypto";
import { fitContext, toolsOverhead } from "./context-budget.js";
import type { AgentDeps, ModelCallDeps, ModelCallHandler, ModelCallWrap } from "./deps.js";
import { askUserTool } from "../../tools/ask-user.js";
import { extensionsReady, extensionToolDefinition, offeredExtensionTools, offeredTools, toolAvailability } from "../agent-tools.js";
import { MAX_REQUEST_TOOLS, mcpToolsForRequest, searchToolDefinition } from "../../services/mcp/tool-search.js";
import { type Budget, budgetExceededBy } from "../../models/cost/budget.js";
import type { UsageTotals } from "../../core/index.js";
import { type CallUsage, measureCall } from "../../models/cost/estimate.js";
import { costUsd, findPrice } from "../../models/cost/prices.js";

type ModelCallRequest = Parameters<ModelCallHandler>[0];

/** The agent's model node (LangChain's createAgent): a reminder goes straight back to it. */
const MODEL_NODE = "model_request";

/**
 * A wrap of ours as a LangChain middleware. No state schema: LangChain would build a zod schema from it and parse the
 * run state with it on every model call; the run state is the model node's own input, read from LangGraph
 * (getCurrentTaskInput), the transcript the request's.
 */
function asMiddleware(name: string, wrap: ModelCallWrap) {
  return createMiddleware({
    name,
    wrapModelCall: (request, handler) => {
      const state = { ...getCurrentTaskInput<AgentRunValue>(), messages: request.state.messages };
      return wrap({ ...request, state } as ModelCallRequest, handler as unknown as ModelCallHandler);
    },
  });
}

/**
 * Everything around a model call, outermost first, through LangChain's own middleware mechanism: the reply's tool
 * calls are judged for approval once (approval.ts judgeReply) and the reply gets the one finish reminder when it owes
 * structured output (finishReminder below); inside that, the model and tools are chosen (`select`: selectModel below
 * for a sub-agent, the planner's own), the prompt is fitted to the budget (context-budget.ts), and the call is
 * metered or not made (meterUsage below). The reminder is here rather than in an after-model hook because each hook
 * is a graph step with a checkpoint of its own. (These were once one middleware running its own chain of wraps: it
 * saved nothing measurable, docs/benchmarks.md.)
 */
export function modelCallMiddleware(deps: ModelCallDeps, select: ModelCallWrap) {
  return [
    createMiddleware({
      name: "ModelReply",
      wrapModelCall: async (request, handler) => {
        const reply = await handler(request);
        // A structured answer (the planner's plan) ends the run: nothing to judge or remind.
        if (!AIMessage.isInstance(reply)) return reply;
        const run = getCurrentTaskInput<AgentRunValue>();
        const state = runOf({ ...run, messages: [...request.state.messages, reply] }, request.runtime.context);
        // Each call of the reply is judged once, now, and the verdicts are checkpointed with the reply (approval.ts).
        const decisions = judgeReply(reply, state, deps);
        const reminder = finishReminder(state, deps, state.budget);
        if (!reminder) return decisions ? new Command({ update: { decisions } }) : reply;
        // LangChain writes the reply first, then this update: the transcript reads reply, reminder.
        const { jumpTo, ...update } = reminder;
        return new Command({ update: { ...update, ...(decisions ? { decisions } : {}) }, ...(jumpTo ? { goto: MODEL_NODE } : {}) });
      },
    }),
    asMiddleware("ModelSelect", select),
    asMiddleware("ContextBudget", fitContext(deps)),
    asMiddleware("Usage", meterUsage(deps)),
  ] as const;
}

/**
 * The model and the tools of each call are chosen per run: the model from the provider (Studio resolves it from the
 * run's settings), the tools from what this run offers (read-only mode and memory change the set). The agent itself
 * is compiled once with a placeholder model (src/agents/per-run-model.ts). The session's MCP tools are added to the
 * request as they are now (LangChain runs tools added here through toolCallsMiddleware): servers still starting are
 * waited for a while (extensionsReady), so the first sub-agent call usually sees every server; a slower one's tools
 * are offered from the next call on.
 */
export function selectModel(deps: Pick<AgentDeps, "spec" | "models" | "memory" | "extensions" | "tools">): ModelCallWrap {
  return async (request, handler) => {
    const { safety, workspace, questions } = contextOf(request.runtime.context);
    const offered = new Set([...offeredTools(deps.spec, safety, toolAvailability(deps.tools, deps.memory.enabled, workspace)), deps.spec.finishTool.name]);
    await extensionsReady(deps.extensions, workspace);
    const own = request.tools.filter((t) => typeof t.name === "string" && offered.has(t.name));
    // ask_user in every mode (asking changes nothing; the reply gate asks: reply-gate.ts), unless the session may
    // ask nothing at all (--max-questions 0).
    const ask = questions.max > 0 ? [askUserTool] : [];
    // Past MCP_DIRECT_LIMIT MCP tools, the search tool and the ones it loaded (src/services/mcp/tool-search.ts).
    const mcp = offeredExtensionTools(deps.spec, safety, deps.extensions, workspace);
    const chosen = mcpToolsForRequest(mcp, request.messages, MAX_REQUEST_TOOLS - own.length - ask.length);
    const extensions = [...(chosen.search ? [searchToolDefinition(mcp.length)] : []), ...chosen.tools.map(extensionToolDefinition)];
    return handler({
      ...request,
      ...withPromptCacheKey(request, deps.spec.name),
      model: deps.models.forRole(deps.spec.name),
      // A fixed order (the agent's own, its MCP tools, ask_user) keeps the prompt's head cacheable (issue 46).
      tools: [...own, ...extensions, ...ask],
    });
  };
}

/**
 * OpenAI's `prompt_cache_key` for one agent of one session: requests with the same key and the same beginning are
 * routed to the same cache, so a session's coder runs share their system prompt and tools, and each run its growing
 * transcript (issue 46). A hash of the thread, so the key is short and says nothing. None outside a thread.
 */
export function promptCacheKey(threadId: unknown, agent: string): string | undefined {
  if (typeof threadId !== "string" || threadId === "") return undefined;
  return `mini-cursor-${agent}-${createHash("sha256").update(threadId).digest("hex").slice(0, 16)}`;
}

/** The request's model settings with the session's cache key for `agent` (passed to the model as a call option). */
export function withPromptCacheKey(request: ModelCallRequest, agent: string): Pick<ModelCallRequest, "modelSettings"> {
  const key = promptCacheKey(request.runtime.configurable?.thread_id, agent);
  return key ? { modelSettings: { ...request.modelSettings, promptCacheKey: key } } : {};
}

/**
 * Agents that must return structured output (the reviewer's verdict) get one reminder when they answer in prose:
 * weaker models often do (run by middleware/model-call.ts after the reply). LangChain's structured-output strategies
 * force a tool call on every turn instead, which would also take away plain-text endings from the agents that may
 * use them.
 */
export function finishReminder(
  state: AgentRun,
  deps: Pick<ModelCallDeps, "spec" | "models" | "prices">,
  budget: Budget,
): (AgentRunUpdate & { jumpTo?: "model" }) | undefined {
  const { spec } = deps;
  const last = state.messages.at(-1);
  // Only a real prose reply: not tool calls, not the note of a run that was ended without a model call.
  if (!spec.requireFinishTool || state.nudged || !last || !AIMessage.isInstance(last) || !isModelReply(last) || (last.tool_calls ?? []).length > 0)
    return undefined;
  // The jump goes straight to the model, past the checks of the usage middleware's next call: make them here.
  if (runUsage(state.messages).modelCalls >= state.maxModelCalls) return undefined;
  const spent = sessionBudgetSpent(deps, state, budget);
  if (spent) return { stop: { kind: "budget", detail: spent } };
  return {
    messages: [new HumanMessage(`You must end by calling the ${spec.finishTool.name} tool with your structured result. Call it now.`)],
    nudged: true,
    jumpTo: "model",
  };
}

/**
 * Meters every model call (provider usage, or a chars/4 estimate stamped on the reply so the transcript is the
 * record), tells the watchers with the session's running totals, and ends the run instead of calling the model once
 * the session's budget or the run's model-call limit is reached. The per-call deadline also lives here.
 */
type UsageDeps = Pick<ModelCallDeps, "spec" | "models" | "prices">;

/** The session's totals: what it had used before this run plus this run's calls so far (from the transcript). */
function sessionTotals(deps: UsageDeps, state: AgentRun, run: RunUsage, extra?: CallUsage): UsageTotals & { knownCostUsd: number } {
  const inputTokens = run.inputTokens + (extra?.inputTokens ?? 0);
  const cachedInputTokens = run.cachedInputTokens + (extra?.cachedInputTokens ?? 0);
  const outputTokens = run.outputTokens + (extra?.outputTokens ?? 0);
  const price = findPrice(deps.models.describe(deps.spec.name), deps.prices);
  const base = state.usageBase;
  const knownCostUsd = base.knownCostUsd + (price ? costUsd({ inputTokens, cachedInputTokens, outputTokens }, price.price) : 0);
  const unpriced = base.unpriced || (!price && inputTokens + outputTokens > 0);
  const cached = base.cachedInputTokens + cachedInputTokens;
  return {
    inputTokens: base.inputTokens + inputTokens,
    // Only when the endpoint reported any: the totals of a session without a prompt cache keep their shape.
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
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
    const measured = measureCall(request.messages, reply, toolsOverhead(request.tools));
    const { inputTokens, outputTokens, estimated } = measured;
    if (estimated) {
      reply.usage_metadata = { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
      reply.response_metadata = { ...reply.response_metadata, [ESTIMATED_USAGE]: true };
    } else if (!reply.usage_metadata) {
      reply.usage_metadata = { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
    }
    const model = deps.models.describe(deps.spec.name);
    const { knownCostUsd: _known, ...total } = sessionTotals(deps, state, run, measured);
    deps.emit({
      type: "model_call",
      agent: deps.spec.name,
      model,
      inputTokens,
      ...(measured.cachedInputTokens > 0 ? { cachedInputTokens: measured.cachedInputTokens } : {}),
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
  return Array.isArray(messages) && AIMessage.isInstance(messages[0])
    ? (value as { structuredResponse: unknown; messages: [AIMessage, ...BaseMessage[]] })
    : undefined;
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

/** Ends the run without a model call: a reply with no tool calls, marked with why (read back by src/agents/run.ts). */
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
    tool_calls: [
      ...(reply.tool_calls ?? []),
      ...invalid.map((c, i) => ({ id: c.id ?? `invalid_${i}`, name: c.name ?? "unknown", args: {}, type: "tool_call" as const })),
    ],
    invalid_tool_calls: invalid.map((c, i) => ({ ...c, id: c.id ?? `invalid_${i}` })),
    usage_metadata: reply.usage_metadata,
    response_metadata: reply.response_metadata,
  });
}
