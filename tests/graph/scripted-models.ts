import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import type { ModelProvider } from "../../src/models/chat-model.js";
import type { ModelRole } from "../../src/models/config.js";

export type Reply = AIMessage | Error | ((messages: BaseMessage[]) => AIMessage | Error);

let ids = 0;
/** An AIMessage that calls tools, with ids and usage like a real provider's. */
export function calls(...toolCalls: { name: string; args: Record<string, unknown> }[]): AIMessage {
  return new AIMessage({
    content: "",
    tool_calls: toolCalls.map((c) => ({ ...c, id: `call_${++ids}`, type: "tool_call" as const })),
    usage_metadata: { input_tokens: 100, output_tokens: 10, total_tokens: 110 },
  });
}

export function say(text: string): AIMessage {
  return new AIMessage({ content: text, usage_metadata: { input_tokens: 50, output_tokens: 5, total_tokens: 55 } });
}

export function plan(
  steps: { agent: string; goal: string; acceptanceCriteria?: string[] }[],
  finished = false,
  extra: Record<string, unknown> = {},
): AIMessage {
  return calls({ name: "update_plan", args: { remainingSteps: steps, finished, ...extra } });
}

export function finishPlan(summary: string, outcome: "done" | "failed" = "done"): AIMessage {
  return calls({ name: "update_plan", args: { remainingSteps: [], finished: true, outcome, summary } });
}

/**
 * One scripted fake chat model per role; records what each role was sent (`seen`) and the names of the tools bound
 * for each of its calls (`offered`: an agent binds the tools of the call just before it).
 */
export function scriptedModels(
  script: Partial<Record<ModelRole, Reply[]>>,
): ModelProvider & { seen: Record<string, BaseMessage[][]>; offered: Record<string, string[][]> } {
  const seen: Record<string, BaseMessage[][]> = {};
  const offered: Record<string, string[][]> = {};
  const models = new Map<ModelRole, ReturnType<typeof fakeModel>>();
  for (const [role, replies] of Object.entries(script) as [ModelRole, Reply[]][]) {
    let model = fakeModel();
    for (const reply of replies) {
      model = model.respond((messages: BaseMessage[]) => {
        (seen[role] ??= []).push(messages);
        return typeof reply === "function" ? reply(messages) : reply;
      });
    }
    const bind = model.bindTools.bind(model);
    model.bindTools = (tools) => {
      (offered[role] ??= []).push(tools.map((t) => t.name));
      return bind(tools);
    };
    models.set(role, model);
  }
  return {
    seen,
    offered,
    forRole(role) {
      const model = models.get(role);
      if (!model) throw new Error(`no script for ${role}`);
      return model;
    },
    describe: (role) => `fake-${role}`,
  };
}
