import type { CreateElicitationRequest } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-process.js";
import { CODER_QUESTION, coderAsksScript } from "../cli/ask-user-script.js";
import { sessionRows } from "../cli/follow-up-script.js";
import { toolResults } from "../../helpers/scripted-openai-server.js";
import { agentText, startAcp, useAcpFixture } from "./acp-process.js";

/** A clarifying question (the coder's ask_user) asked of an editor: as a form when it has forms, else as the turn's end. */
const fx = useAcpFixture(coderAsksScript);

const env = () => ({ OPENAI_BASE_URL: fx.server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto" });
const rows = () => sessionRows((args) => runCli(args, { cwd: fx.ws.root, env: env() }));
/** What the coder was told the person answered. */
const coderAnswer = () => fx.server.requests.flatMap((r) => toolResults(r)).find((t) => t.name === "ask_user")?.content;

describe("questions over ACP", () => {
  it("without elicitation the turn ends with the question; the next prompt is the answer (a choice's number)", async () => {
    fx.acp = startAcp({ cwd: fx.ws.root, env: env() });
    await fx.acp.agent.request("initialize", { protocolVersion: 1 });
    const { sessionId } = await fx.acp.agent.request("session/new", { cwd: fx.ws.root, mcpServers: [] });
    const asked = await fx.acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Pick the banner greeting" }] });
    expect(asked.stopReason).toBe("end_turn");
    expect(agentText(fx.acp)).toContain(`${CODER_QUESTION}\n1. Hello\n2. Good morning\n\nYour next prompt is the answer`);
    expect((await rows())[0]).toMatchObject({ status: "awaiting_input" });

    const answered = await fx.acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "2" }] });
    expect(answered.stopReason).toBe("end_turn");
    expect(coderAnswer()).toBe("The person answered: Good morning");
    // The answer finished the same turn; it was not a follow-up instruction.
    expect((await rows())[0]).toMatchObject({ status: "done", turns: 1 });
  });

  it("with elicitation the question is a form, answered within the turn", async () => {
    const forms: CreateElicitationRequest[] = [];
    fx.acp = startAcp({
      cwd: fx.ws.root,
      env: env(),
      onElicitation: (request) => {
        forms.push(request);
        return { action: "accept", content: { answer: "Hi there" } };
      },
    });
    await fx.acp.agent.request("initialize", { protocolVersion: 1, clientCapabilities: { elicitation: { form: {} } } });
    const { sessionId } = await fx.acp.agent.request("session/new", { cwd: fx.ws.root, mcpServers: [] });
    const done = await fx.acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Pick the banner greeting" }] });
    expect(done.stopReason).toBe("end_turn");
    expect(forms).toHaveLength(1);
    expect(forms[0]).toMatchObject({ mode: "form", sessionId, message: CODER_QUESTION });
    expect(coderAnswer()).toBe("The person answered: Hi there");
    expect((await rows())[0]).toMatchObject({ status: "done", turns: 1 });
  });
});
