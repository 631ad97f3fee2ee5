import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { buildAgent } from "../../src/agents/build-agent.js";
import type { AgentDeps } from "../../src/agents/middleware/deps.js";
import { offeredTools } from "../../src/agents/offered-tools.js";
import { readOutcome } from "../../src/agents/transcript.js";
import type { AgentSpec } from "../../src/agents/types.js";
import { DEFAULT_PRICE_TABLE } from "../../src/cost/prices.js";
import { memoryOff } from "../../src/memory/types.js";
import type { ModelProvider } from "../../src/models/chat-model.js";
import { DEFAULT_SAFETY, EventRecorder, type SafetyPolicy } from "../../src/core/index.js";

export interface AgentRunOptions {
  workspace: string;
  safety?: Partial<SafetyPolicy>;
  maxModelCalls?: number;
  maxPromptTokens?: number;
  deps?: Partial<AgentDeps>;
  brief?: string;
}

/** Runs one compiled agent on its own (a thread of its own, in memory), as the session graph would mount it. */
export async function runAgent(spec: AgentSpec, models: ModelProvider, o: AgentRunOptions) {
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
  const tools = offeredTools(spec, safety, false);
  const final = await agent.invoke(
    {
      messages: [new SystemMessage(spec.systemPrompt(o.workspace, [...tools, spec.finishTool.name])), new HumanMessage({ id: "brief-s1", content: o.brief ?? "Your step (s1): the goal" })],
      workspace: o.workspace,
      stepId: "s1",
      safety,
      maxModelCalls,
      maxPromptTokens: o.maxPromptTokens ?? 32_000,
    },
    { configurable: { thread_id: "agent" }, recursionLimit: 200 },
  );
  return { final, outcome: readOutcome(final.messages, spec.finishTool.name, final.stop), events };
}
