import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { getConfig, getWriter } from "@langchain/langgraph";
import { createOpenAICompatibleProvider, type ModelProvider } from "../models/chat-model.js";
import { DEFAULT_OPENAI_MODEL, MODEL_ROLES, type ModelRole, type ModelSettings } from "../models/config.js";
import { memoryOff } from "../memory/types.js";

import { selectSandbox } from "../sandbox/select.js";
import type { EventSink } from "../runtime/events.js";
import { compileGraph } from "./build-graph.js";

/**
 * The graph as LangGraph Studio / `langgraph dev` loads it (see langgraph.json). The server brings its own
 * checkpointer. The workspace and the model come from the run's configurable settings
 * (`workspace`, `model`, `baseUrl`, `apiKey`), falling back to the environment.
 */
function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function settingsFromRun(): ModelSettings {
  const configurable = getConfig()?.configurable ?? {};
  const env = process.env;
  const roleModels: Partial<Record<ModelRole, string>> = {};
  for (const role of MODEL_ROLES) {
    const m = str(configurable[`${role}Model`]) ?? str(env[`MINI_CURSOR_${role.toUpperCase()}_MODEL`]);
    if (m) roleModels[role] = m;
  }
  const baseUrl = str(configurable.baseUrl) ?? str(env.OPENAI_BASE_URL);
  return {
    baseUrl,
    apiKey: str(configurable.apiKey) ?? str(env.OPENAI_API_KEY) ?? "not-needed",
    model: str(configurable.model) ?? str(env.MINI_CURSOR_MODEL) ?? DEFAULT_OPENAI_MODEL,
    roleModels,
    timeoutMs: 120_000,
    maxRetries: 2,
    source: baseUrl ?? "OpenAI",
  };
}

const runScopedModels: ModelProvider = {
  forRole(role): BaseChatModel {
    return createOpenAICompatibleProvider(settingsFromRun()).forRole(role);
  },
  describe(role) {
    return createOpenAICompatibleProvider(settingsFromRun()).describe(role);
  },
};

/** Progress events go to the run's custom stream (`streamMode: "custom"`). */
const customStream: EventSink = {
  emit(event) {
    try {
      getWriter()?.(event);
    } catch {
      // Outside a run context there is nobody to tell.
    }
  },
};

// Studio runs get the same command sandbox as the CLI; without one, every command needs approval.
const sandbox = await selectSandbox(process.env);
const sandboxed = sandbox.kind === "bubblewrap";

export const graph = compileGraph({
  models: runScopedModels,
  events: customStream,
  memory: memoryOff,
  tools: { sandbox: sandboxed ? { kind: "bubblewrap", allowNetwork: false } : { kind: "none" } },
  forceAsk: !sandboxed,
});
