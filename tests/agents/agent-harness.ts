import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { buildAgent } from "../../src/agents/build-agent.js";
import type { AgentDeps } from "../../src/agents/middleware/deps.js";
import { readOutcome } from "../../src/agents/run.js";
import type { AgentRunValue } from "../../src/agents/run.js";
import type { AgentRunContext } from "../../src/agents/run.js";
import type { AgentSpec } from "../../src/agents/types.js";
import type { Budget } from "../../src/models/cost/budget.js";
import { DEFAULT_PRICE_TABLE } from "../../src/models/cost/prices.js";
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  DEFAULT_SAFETY,
  EventRecorder,
  isApprovalRequest,
  type ProgressEvent,
  type SafetyPolicy,
  type UsageByKey,
} from "../../src/core/index.js";
import { memoryOff } from "../../src/memory/types.js";
import { offeredTools } from "../../src/agents/agent-tools.js";
import { usageBaseOf } from "../../src/models/cost/usage.js";
import type { ModelProvider } from "../../src/models/chat-model.js";

export interface HarnessOptions {
  workspace: string;
  safety?: Partial<SafetyPolicy>;
  maxModelCalls?: number;
  maxPromptTokens?: number;
  deps?: Partial<AgentDeps>;
  brief?: string;
  /** The session's usage before the run, per agent and model (summed into the run's usage base like the graph does). */
  usageBase?: UsageByKey;
  /** The session's budget, passed as the graph does: in the run's configurable settings. */
  budget?: Budget;
  allowPatterns?: string[];
}

/**
 * Runs one compiled agent as the session graph mounts it (a thread of its own, in memory), keeping the agent, its
 * checkpointer and its thread, so a test can start a run, look at an approval interrupt and resume it.
 */
export function agentHarness(spec: AgentSpec, models: ModelProvider, o: HarnessOptions) {
  const events = new EventRecorder();
  const agent = buildAgent({
    spec,
    models,
    emit: (e) => events.emit(e),
    memory: memoryOff,
    forceAsk: false,
    prices: DEFAULT_PRICE_TABLE,
    callTimeoutMs: 10_000,
    ...o.deps,
  });
  agent.checkpointer = new MemorySaver();
  const maxModelCalls = o.maxModelCalls ?? 5;
  const safety = { ...DEFAULT_SAFETY, approval: "auto" as const, ...o.safety };
  const tools = offeredTools(spec, safety, { memory: false });
  // The run's context, as src/graph/nodes/sub-agent.ts gives it; a test may change it between invocations (a resume
  // with new settings), as the adapter does.
  const context: AgentRunContext = {
    workspace: o.workspace,
    stepId: "s1",
    safety,
    maxModelCalls,
    maxPromptTokens: o.maxPromptTokens ?? 32_000,
    questions: { asked: 0, max: 3 },
    usageBase: usageBaseOf(o.usageBase ?? {}, o.deps?.prices ?? DEFAULT_PRICE_TABLE),
    budget: o.budget ?? {},
  };
  const config = { configurable: { thread_id: "agent" }, recursionLimit: 200, context };
  const input = {
    messages: [
      new SystemMessage(spec.systemPrompt(o.workspace, [...tools, spec.finishTool.name])),
      new HumanMessage({ id: "brief-s1", content: o.brief ?? "Your step (s1): the goal" }),
    ],
    allowPatterns: o.allowPatterns ?? [],
  };
  const outcome = (final: Pick<AgentRunValue, "messages" | "stop">) => readOutcome(final.messages, spec.finishTool.name, final.stop);
  return {
    agent,
    events,
    config,
    context,
    start: () => agent.invoke(input, config),
    /** Another run of the same compiled agent on a thread of its own, with its own model-call limit. */
    startOn: (threadId: string, runMaxModelCalls: number) =>
      agent.invoke(input, {
        ...config,
        context: { ...context, maxModelCalls: runMaxModelCalls },
        configurable: { ...config.configurable, thread_id: threadId },
      }),
    resume: (answer: ApprovalAnswer | Record<string, unknown>) => agent.invoke(new Command({ resume: answer }), config),
    /** The approval requests the thread is paused on (empty when it is not paused). */
    pending: async (): Promise<ApprovalRequest[]> => {
      const snapshot = await agent.getState(config);
      return snapshot.tasks.flatMap((t) => t.interrupts.map((i): unknown => i.value)).filter(isApprovalRequest);
    },
    outcome,
  };
}

/** Runs to the end (or to the first approval pause). */
export async function runToEnd(spec: AgentSpec, models: ModelProvider, o: HarnessOptions) {
  const h = agentHarness(spec, models, o);
  const final = await h.start();
  return { final, outcome: h.outcome(final), events: h.events, harness: h };
}

export function ofType<T extends ProgressEvent["type"]>(events: EventRecorder, type: T): Extract<ProgressEvent, { type: T }>[] {
  return events.events.filter((e): e is Extract<ProgressEvent, { type: T }> => e.type === type);
}

export function toolMessages(messages: readonly BaseMessage[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

export function humanMessages(messages: readonly BaseMessage[]): HumanMessage[] {
  return messages.filter((m): m is HumanMessage => HumanMessage.isInstance(m));
}

export function aiMessages(messages: readonly BaseMessage[]): AIMessage[] {
  return messages.filter((m): m is AIMessage => AIMessage.isInstance(m));
}

export function text(m: BaseMessage | undefined): string {
  if (!m) return "";
  return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
}
