import type { AgentContext, CreateElicitationRequest, ElicitationPropertySchema } from "@agentclientprotocol/sdk";
import type { ElicitAnswer, ElicitField, ElicitRequest } from "../../services/mcp/types.js";

function property(field: ElicitField): ElicitationPropertySchema {
  const shared = {
    title: field.title,
    ...(field.description ? { description: field.description } : {}),
    ...(field.minimum !== undefined ? { minimum: field.minimum } : {}),
    ...(field.maximum !== undefined ? { maximum: field.maximum } : {}),
  };
  if (field.type === "boolean") return { type: "boolean", ...shared, ...(typeof field.default === "boolean" ? { default: field.default } : {}) };
  if (field.type === "number" || field.type === "integer") {
    return { type: field.type, ...shared, ...(typeof field.default === "number" ? { default: field.default } : {}) };
  }
  return {
    type: "string",
    ...shared,
    ...(typeof field.default === "string" ? { default: field.default } : {}),
    ...(field.choices ? { oneOf: field.choices.map((c) => ({ const: c.value, title: c.label })) } : {}),
  };
}

/** An MCP server's form as the editor's elicitation form (ACP `elicitation/create`), naming the server that asks. */
export function serverForm(sessionId: string, request: ElicitRequest): CreateElicitationRequest {
  return {
    mode: "form",
    sessionId,
    message: `The MCP server "${request.server}" asks: ${request.message}`,
    requestedSchema: {
      type: "object",
      properties: Object.fromEntries(request.fields.map((f) => [f.name, property(f)])),
      required: request.fields.filter((f) => f.required).map((f) => f.name),
    },
  };
}

/** The editor's answer, with only the form's own fields and plain values kept. */
export function formAnswer(request: ElicitRequest, response: { action: string; content?: unknown }): ElicitAnswer {
  if (response.action !== "accept") return { action: response.action === "cancel" ? "cancel" : "decline" };
  const given = typeof response.content === "object" && response.content !== null ? (response.content as Record<string, unknown>) : {};
  const content: Record<string, string | number | boolean> = {};
  for (const field of request.fields) {
    const value = given[field.name];
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") content[field.name] = value;
  }
  return { action: "accept", content };
}

/** Asks the editor a server's form; an editor without forms has nobody to ask: declined. */
export async function askEditorForm(
  o: { client: AgentContext; sessionId: string; elicitation: boolean; cancel: AbortSignal },
  request: ElicitRequest,
  signal?: AbortSignal,
): Promise<ElicitAnswer | null> {
  if (!o.elicitation) return { action: "decline" };
  const response = await o.client.request("elicitation/create", serverForm(o.sessionId, request), {
    cancellationSignal: signal ? AbortSignal.any([o.cancel, signal]) : o.cancel,
    stopWaitingOnCancel: true,
  });
  return formAnswer(request, response);
}
