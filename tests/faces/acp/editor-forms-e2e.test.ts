import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { CreateElicitationRequest } from "@agentclientprotocol/sdk";
import { mcpScript } from "../cli/mcp-script.js";
import { toolResults } from "../../helpers/scripted-openai-server.js";
import { updatesOf, useAcpAgents } from "./acp-process.js";

/**
 * An MCP server's form (elicitation) during an editor's turn goes to the editor as its own elicitation form, naming
 * the server; an editor without forms declines it. A tool's progress reports show in its tool call. The server is
 * tests/services/mcp/fixtures/client-features-server.mjs, passed by the editor in session/new.
 */
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../services/mcp/fixtures/client-features-server.mjs");
const fx = useAcpAgents(
  mcpScript([
    { name: "mcp__cf__ask", args: {} },
    { name: "mcp__cf__slow", args: { steps: 3, stepMs: 300 } },
  ]),
);

async function turn(withForms: boolean, forms: CreateElicitationRequest[]) {
  const acp = fx.start({
    env: { MINI_CURSOR_APPROVAL: "auto" },
    onElicitation: (request) => {
      forms.push(request);
      return { action: "accept", content: { name: "Zed", colour: "red" } };
    },
  });
  await acp.agent.request("initialize", { protocolVersion: 1, clientCapabilities: withForms ? { elicitation: { form: {} } } : {} });
  const { sessionId } = await acp.agent.request("session/new", {
    cwd: fx.ws.root,
    mcpServers: [{ name: "cf", command: process.execPath, args: [SERVER], env: [] }],
  });
  const done = await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Ask me" }] });
  expect(done.stopReason).toBe("end_turn");
  const asked = fx.server.requests.flatMap((r) => toolResults(r)).find((t) => t.name === "mcp__cf__ask")?.content ?? "";
  return { acp, sessionId, answer: JSON.parse(asked) as unknown };
}

describe("an MCP server's requests in an editor", () => {
  it("the form goes to the editor with the server's fields; its answer gets the defaults; progress shows in the call", async () => {
    const forms: CreateElicitationRequest[] = [];
    const { acp, sessionId, answer } = await turn(true, forms);
    expect(forms).toHaveLength(1);
    expect(forms[0]).toMatchObject({ mode: "form", sessionId, message: 'The MCP server "cf" asks: Who are you?' });
    expect(forms[0]?.mode === "form" ? forms[0].requestedSchema : null).toMatchObject({
      required: ["name"],
      properties: {
        name: { type: "string", title: "Your name", default: "Ada" },
        colour: { type: "string", oneOf: [{ const: "red" }, { const: "green" }], default: "green" },
      },
    });
    expect(answer).toEqual({ action: "accept", content: { name: "Zed", colour: "red", count: 3, subscribe: false } });
    const progress = updatesOf(acp, "tool_call_update")
      .flatMap((u) => u.content ?? [])
      .filter((c) => c.type === "content" && c.content.type === "text" && c.content.text.startsWith("step "));
    expect(progress.length).toBeGreaterThanOrEqual(2);
  });

  it("an editor without forms: the server is declined", async () => {
    const forms: CreateElicitationRequest[] = [];
    const { answer } = await turn(false, forms);
    expect(forms).toEqual([]);
    expect(answer).toEqual({ action: "decline" });
  });
});
