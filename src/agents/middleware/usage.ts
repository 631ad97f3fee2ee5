import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";
import { budgetExceeded } from "../../cost/budget.js";
import { measureCall } from "../../cost/estimate.js";
import { addUsage, summarizeUsage, usageKey } from "../../cost/usage.js";
import type { UsageByKey } from "../../core/index.js";
import { toolsOverhead } from "../context-budget.js";
import { AgentRunState, type AgentRunValue } from "../run-state.js";
import { ESTIMATED_USAGE, runUsage, textOf } from "../transcript.js";
import type { AgentDeps } from "./deps.js";

/**
 * Meters every model call (provider usage, or a chars/4 estimate stamped on the reply so the transcript is the
 * record), tells the watchers with the session's running totals, and stops the run before a model call once the
 * session's token or cost budget is used up. The per-call deadline also lives here.
 */
type UsageDeps = Pick<AgentDeps, "spec" | "models" | "prices" | "budget">;

/** The session's usage: what it had used before this run plus this run's calls so far (from the transcript). */
function sessionUsage(deps: UsageDeps, state: AgentRunValue, model: string): UsageByKey {
  const run = runUsage(state.messages);
  return addUsage(state.usageBase, {
    [usageKey(deps.spec.name, model)]: { inputTokens: run.inputTokens, outputTokens: run.outputTokens, calls: run.modelCalls, estimatedCalls: run.estimatedCalls },
  });
}

/** Why the session's budget is used up, or null while there is room (checked before every model call). */
export function sessionBudgetSpent(deps: UsageDeps, state: AgentRunValue): string | null {
  return budgetExceeded(sessionUsage(deps, state, deps.models.describe(deps.spec.name)), deps.budget, deps.prices)?.detail ?? null;
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

export function usageMiddleware(deps: UsageDeps & Pick<AgentDeps, "emit" | "callTimeoutMs">) {
  return createMiddleware({
    name: "Usage",
    stateSchema: AgentRunState,
    beforeModel: {
      canJumpTo: ["end"],
      hook: (state) => {
        // A run the loop guard stopped ends here; so does one whose session budget is spent.
        // So does one whose finish call was not the last call of its reply (LangChain ends only on the last).
        if (state.stop || finishedNow(state, deps.spec.finishTool.name)) return { jumpTo: "end" };
        const over = sessionBudgetSpent(deps, state);
        if (over) return { stop: { kind: "budget" as const, detail: over }, jumpTo: "end" };
        return undefined;
      },
    },
    wrapModelCall: async (request, handler) => {
      const raw = await withDeadline(Promise.resolve(handler(request)), deps.callTimeoutMs);
      const reply = normalize(AIMessage.isInstance(raw) ? raw : new AIMessage({ content: textOf(raw) }));
      const { inputTokens, outputTokens, estimated } = measureCall(request.messages, reply, toolsOverhead(request.tools));
      if (estimated) {
        reply.usage_metadata = { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
        reply.response_metadata = { ...reply.response_metadata, [ESTIMATED_USAGE]: true };
      } else if (!reply.usage_metadata) {
        reply.usage_metadata = { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
      }
      const model = deps.models.describe(deps.spec.name);
      const totals = summarizeUsage(
        addUsage(sessionUsage(deps, request.state, model), { [usageKey(deps.spec.name, model)]: { inputTokens, outputTokens, calls: 1, estimatedCalls: estimated ? 1 : 0 } }),
        deps.prices,
      );
      deps.emit({
        type: "model_call",
        agent: deps.spec.name,
        model,
        inputTokens,
        outputTokens,
        estimated,
        total: { inputTokens: totals.inputTokens, outputTokens: totals.outputTokens, calls: totals.calls, costUsd: totals.costUsd, estimated: totals.estimatedCalls > 0 },
      });
      return reply;
    },
  });
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
