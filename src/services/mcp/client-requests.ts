import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema, ErrorCode, ListRootsRequestSchema, McpError, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { elicitFields, withDefaults } from "./elicitation.js";
import type { Elicit } from "./types.js";

/** What a client of ours offers servers: declared when it is made, served by serveClientRequests. */
export const CLIENT_CAPABILITIES = { roots: { listChanged: false }, elicitation: { form: {} } };

/** What mini-cursor answers a server's request it does not serve (sampling among them: docs/extensions.md says why). */
function unsupported(method: string): McpError {
  const why =
    method === "sampling/createMessage"
      ? "mini-cursor does not let MCP servers use the session's model (sampling is not offered)"
      : `mini-cursor does not serve ${method}`;
  return new McpError(ErrorCode.MethodNotFound, why);
}

/**
 * Answers what a server asks of the client: `roots/list` with the session's folders; an elicitation (form mode)
 * through the person of the call running now (`ask`: the newest call's, or none: declined, also in URL mode, with no
 * browser here), its fields left out filled with the schema's defaults; anything else refused with -32601.
 */
export function serveClientRequests(client: Client, server: string, roots: readonly string[], ask: () => Elicit | undefined): void {
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: roots.map((root) => ({ uri: pathToFileURL(root).href, name: path.basename(root) })),
  }));
  client.setRequestHandler(ElicitRequestSchema, async ({ params }, extra): Promise<ElicitResult> => {
    const elicit = ask();
    if (!elicit || (params.mode !== undefined && params.mode !== "form")) return { action: "decline" };
    const requested: unknown = "requestedSchema" in params ? params.requestedSchema : undefined;
    const fields = elicitFields(requested);
    const schema = (requested ?? {}) as Record<string, unknown>;
    const answer = await elicit({ server, message: params.message, fields, schema }, extra.signal);
    return answer.action === "accept" ? { action: "accept", content: withDefaults(fields, answer.content) } : answer;
  });
  client.fallbackRequestHandler = (request) => Promise.reject(unsupported(request.method));
}
