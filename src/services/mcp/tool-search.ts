import { isAIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { z } from "zod";
// types.js, not index.js: that loads the MCP SDK, which only a session with servers needs.
import { isExtensionToolName, type ExtensionTool } from "./types.js";

/**
 * Large MCP servers (issue 43): past MCP_DIRECT_LIMIT tools an agent is not offered every MCP tool on every call
 * (each costs context, and OpenAI refuses more than 128 tools in a request) but search_mcp_tools, which finds the few
 * it needs; those, and every MCP tool it has called, are offered from then on in the run, within the request's limit.
 * Which tools are loaded is read back from the run's transcript: nothing is added to the checkpointed state.
 */
export const SEARCH_MCP_TOOLS = "search_mcp_tools";
/** Up to this many MCP tools an agent is offered them all. */
export const MCP_DIRECT_LIMIT = 40;
/** The most tools one request carries (OpenAI's limit; other endpoints have none as low). */
export const MAX_REQUEST_TOOLS = 128;
const DEFAULT_RESULTS = 5;
const MAX_RESULTS = 10;

const schema = z.object({
  query: z.string().describe('What the tool should do, in a few words (e.g. "create a github issue"), or exact tool names separated by spaces.'),
  limit: z.number().int().min(1).max(MAX_RESULTS).optional().describe(`How many tools to load (default ${DEFAULT_RESULTS}, at most ${MAX_RESULTS}).`),
});
export type SearchArgs = z.infer<typeof schema>;

const definitions = new Map<number, StructuredToolInterface>();

/** The definition the model sees (the same object for the same count); calls run in toolCallsMiddleware. */
export function searchToolDefinition(total: number): StructuredToolInterface {
  const known = definitions.get(total);
  if (known) return known;
  const made = tool(() => Promise.reject(new Error(`${SEARCH_MCP_TOOLS} runs in the agent's tool middleware`)), {
    name: SEARCH_MCP_TOOLS,
    description:
      `Find MCP tools by what they do and load them: ${total} MCP tools are available but not listed. ` +
      "The tools found can be called from your next step on (their names start with mcp__).",
    schema,
  });
  definitions.set(total, made);
  return made;
}

export function parseSearchArgs(args: unknown): SearchArgs | null {
  const parsed = schema.safeParse(args);
  return parsed.success ? parsed.data : null;
}

/** Lowercase words of names and text: identifiers split at `_`, `-`, `.`, `__` and camelCase. */
function words(text: string): string[] {
  return (
    text
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      // Single letters say little; a single digit may be the point ("record 3").
      .filter((w) => w.length > 1 || /\d/.test(w))
  );
}

/**
 * The tools that best match the query: an exact name first, then by how many query words the tool's own name has (a
 * word of it starting with the query word counts too) and, less, its description. Ties keep the server's order.
 */
export function rankTools(tools: readonly ExtensionTool[], query: string, limit = DEFAULT_RESULTS): ExtensionTool[] {
  const given = query.split(/\s+/).filter(Boolean);
  const names = new Set(tools.flatMap((t) => [t.name, t.original]));
  const asked = new Set(given.filter((w) => names.has(w)));
  // The words of the query, but not of the exact names it gives.
  const terms = words(given.filter((w) => !asked.has(w)).join(" "));
  const scored = tools.map((t, i) => {
    const name = words(t.original ?? t.name);
    const about = new Set(words(t.description));
    let score = asked.has(t.name) || asked.has(t.original) ? 1000 : 0;
    for (const term of terms) {
      if (name.includes(term)) score += 3;
      else if (term.length >= 3 && name.some((w) => w.length >= 3 && (w.startsWith(term) || term.startsWith(w)))) score += 2;
      if (about.has(term)) score += 1;
    }
    return { t, i, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, limit)
    .map((s) => s.t);
}

/** What search_mcp_tools answers: each tool found with what it does and its arguments. */
export function searchResultText(found: readonly ExtensionTool[], query: string, total: number): string {
  if (found.length === 0) return `No MCP tool matches "${query}" (of ${total}). Try other words, e.g. what the tool acts on.`;
  const lines = found.map((t) => {
    const properties = (t.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
    const args = Object.keys(properties);
    return `- ${t.name}${args.length > 0 ? `(${args.join(", ")})` : "()"}: ${(t.description.split("\n", 1)[0] ?? "").slice(0, 200)}`;
  });
  return [`Loaded ${found.length} of ${total} MCP tools; call them from your next step:`, ...lines].join("\n");
}

/** The MCP tools loaded in this run, newest first: named in a search result, or already called. */
function loadedNames(messages: readonly BaseMessage[]): string[] {
  const seen: string[] = [];
  const add = (name: string) => {
    const at = seen.indexOf(name);
    if (at >= 0) seen.splice(at, 1);
    seen.unshift(name);
  };
  for (const m of messages) {
    if (ToolMessage.isInstance(m) && m.name === SEARCH_MCP_TOOLS && typeof m.content === "string") {
      for (const match of m.content.matchAll(/^- (mcp__[A-Za-z0-9_-]+)/gm)) add(match[1] ?? "");
    } else if (isAIMessage(m)) {
      for (const call of m.tool_calls ?? []) if (isExtensionToolName(call.name)) add(call.name);
    }
  }
  return seen;
}

/**
 * The MCP tools one request offers and whether search_mcp_tools is among them: every offered tool up to
 * MCP_DIRECT_LIMIT; past it the search tool and the loaded tools, newest first, in `room` places (the request's limit
 * less the other tools), then in the server's order so the list is stable between calls.
 */
export function mcpToolsForRequest(
  offered: readonly ExtensionTool[],
  messages: readonly BaseMessage[],
  room: number,
): { tools: ExtensionTool[]; search: boolean } {
  if (offered.length <= MCP_DIRECT_LIMIT && offered.length <= room) return { tools: [...offered], search: false };
  const byName = new Map(offered.map((t) => [t.name, t]));
  const loaded = new Set(
    loadedNames(messages)
      .filter((n) => byName.has(n))
      .slice(0, Math.max(0, room - 1)), // one place is the search tool's
  );
  return { tools: offered.filter((t) => loaded.has(t.name)), search: true };
}
