import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import type { JsonSchema7ObjectType } from "@langchain/core/utils/json_schema";
import { isBuiltinAgentName, type SafetyPolicy } from "../core/index.js";
// Not ../mcp/index.js: that loads the MCP SDK, which only a session with servers needs (src/mcp/lazy-hub.ts).
import { matchesToolPattern } from "../mcp/names.js";
import type { ExtensionTool, ExtensionTools } from "../mcp/types.js";
import type { AgentSpec } from "./types.js";

/**
 * Which MCP tools an agent has: a custom agent exactly those its spec lists (names or `mcp__server__*` globs); a
 * server with an `agents` list only those agents; else read-only tools every agent, the others the coder alone.
 */
export function agentHasTool(spec: Pick<AgentSpec, "name" | "extraTools">, t: ExtensionTool): boolean {
  // The built-in agents get the default split; a custom agent exactly the MCP tools it lists.
  if (!isBuiltinAgentName(spec.name)) return (spec.extraTools ?? []).some((p) => matchesToolPattern(t.name, p));
  if (t.agents) return t.agents.includes(spec.name);
  return t.readOnly || spec.name === "coder";
}

/** The MCP tools a run in `workspace` offers: read-only mode offers only those annotated read-only. */
export function offeredExtensionTools(
  spec: Pick<AgentSpec, "name" | "extraTools">,
  safety: Pick<SafetyPolicy, "approval">,
  extensions: ExtensionTools | undefined,
  workspace: string,
): ExtensionTool[] {
  if (!extensions) return [];
  return extensions.list(workspace).filter((t) => agentHasTool(spec, t) && (safety.approval !== "read-only" || t.readOnly));
}

const EXTENSION_WAIT_MS = 10_000;

/** The workspace's servers have started, or 10 s went by (a slower server's tools come later): whichever is first. */
export async function extensionsReady(extensions: ExtensionTools | undefined, workspace: string): Promise<void> {
  if (!extensions) return;
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, EXTENSION_WAIT_MS)));
  await Promise.race([extensions.ready(workspace), waited]);
  clearTimeout(timer);
}

const definitions = new Map<string, StructuredToolInterface>();

/**
 * The definition the model sees (its JSON Schema as the server gave it). Calls never reach this function:
 * toolCallsMiddleware runs them through the extension tools.
 */
export function extensionToolDefinition(t: ExtensionTool): StructuredToolInterface {
  const key = `${t.name}\0${t.description}\0${JSON.stringify(t.inputSchema)}`;
  let made = definitions.get(key);
  if (!made) {
    // The server's schema as it is; only `type: "object"` is made sure of (some servers leave it out).
    const schema = { properties: {}, ...t.inputSchema, type: "object" } as JsonSchema7ObjectType;
    made = tool(() => Promise.reject(new Error(`${t.name} runs through the session's MCP servers`)), { name: t.name, description: t.description, schema });
    if (definitions.size > 512) definitions.clear();
    definitions.set(key, made);
  }
  return made;
}
