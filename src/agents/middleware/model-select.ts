import { askUserTool } from "../../tools/ask-user.js";
import { extensionsReady, extensionToolDefinition, offeredExtensionTools } from "../extension-tools.js";
import { offeredTools, toolAvailability } from "../offered-tools.js";
import { contextOf } from "../run-context.js";
import type { AgentDeps, ModelCallWrap } from "./deps.js";

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
    const { safety, workspace } = contextOf(request.runtime.context);
    const offered = new Set([...offeredTools(deps.spec, safety, toolAvailability(deps.tools, deps.memory.enabled, workspace)), deps.spec.finishTool.name]);
    await extensionsReady(deps.extensions, workspace);
    const extensions = offeredExtensionTools(deps.spec, safety, deps.extensions, workspace).map(extensionToolDefinition);
    return handler({
      ...request,
      model: deps.models.forRole(deps.spec.name),
      // ask_user in every mode: asking changes nothing (the reply gate asks: ask-user.ts).
      tools: [...request.tools.filter((t) => typeof t.name === "string" && offered.has(t.name)), ...extensions, askUserTool],
    });
  };
}
