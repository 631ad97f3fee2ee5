import type { CreateElicitationRequest } from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-process.js";
import { CODER_QUESTION, coderAsksScript } from "../cli/ask-user-script.js";
import { sessionRows } from "../cli/follow-up-script.js";
import { startScriptedOpenAIServer, toolResults, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { agentText, startAcp, type AcpProcess } from "./acp-process.js";

/** A clarifying question (the coder's ask_user) asked of an editor: as a form when it has forms, else as the turn's end. */
let server: ScriptedServer;
let ws: TempWorkspace;
let acp: AcpProcess | null = null;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(coderAsksScript);
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
});
afterEach(async () => {
  acp?.child.kill("SIGKILL");
  await acp?.close();
  acp = null;
  await server.close();
  await ws.cleanup();
});

const env = () => ({ OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto" });
const rows = () => sessionRows((args) => runCli(args, { cwd: ws.root, env: env() }));
/** What the coder was told the person answered. */
const coderAnswer = () => server.requests.flatMap((r) => toolResults(r)).find((t) => t.name === "ask_user")?.content;

describe("questions over ACP", () => {
  it("without elicitation the turn ends with the question; the next prompt is the answer (a choice's number)", async () => {
    acp = startAcp({ cwd: ws.root, env: env() });
    await acp.agent.request("initialize", { protocolVersion: 1 });
    const { sessionId } = await acp.agent.request("session/new", { cwd: ws.root, mcpServers: [] });
    const asked = await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Pick the banner greeting" }] });
    expect(asked.stopReason).toBe("end_turn");
    expect(agentText(acp)).toContain(`${CODER_QUESTION}\n1. Hello\n2. Good morning\n\nYour next prompt is the answer`);
    expect((await rows())[0]).toMatchObject({ status: "awaiting_input" });

    const answered = await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "2" }] });
    expect(answered.stopReason).toBe("end_turn");
    expect(coderAnswer()).toBe("The person answered: Good morning");
    // The answer finished the same turn; it was not a follow-up instruction.
    expect((await rows())[0]).toMatchObject({ status: "done", turns: 1 });
  });

  it("with elicitation the question is a form, answered within the turn", async () => {
    const forms: CreateElicitationRequest[] = [];
    acp = startAcp({
      cwd: ws.root,
      env: env(),
      onElicitation: (request) => {
        forms.push(request);
        return { action: "accept", content: { answer: "Hi there" } };
      },
    });
    await acp.agent.request("initialize", { protocolVersion: 1, clientCapabilities: { elicitation: { form: {} } } });
    const { sessionId } = await acp.agent.request("session/new", { cwd: ws.root, mcpServers: [] });
    const done = await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Pick the banner greeting" }] });
    expect(done.stopReason).toBe("end_turn");
    expect(forms).toHaveLength(1);
    expect(forms[0]).toMatchObject({ mode: "form", sessionId, message: CODER_QUESTION });
    expect(coderAnswer()).toBe("The person answered: Hi there");
    expect((await rows())[0]).toMatchObject({ status: "done", turns: 1 });
  });
});
