import { describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-process.js";
import { followUpScript, sessionRows } from "../cli/follow-up-script.js";
import { agentText, startAcp, useAcpFixture } from "./acp-process.js";

/**
 * A session started in the terminal with `--max-steps 1` keeps that limit when an editor loads it; a turn that needs
 * more sub-agent runs ends with `max_turn_requests`.
 */
const fx = useAcpFixture(followUpScript);

describe("limits over ACP", () => {
  it("a turn stopped by a limit returns max_turn_requests and says which limit", async () => {
    const env = { OPENAI_BASE_URL: fx.server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto" };
    const started = await runCli(["run", "--max-steps", "1", "Add greet with a test"], { cwd: fx.ws.root, env });
    expect(started.code).toBe(1);
    const [row] = await sessionRows((args) => runCli(args, { cwd: fx.ws.root, env }));
    expect(row?.status).toBe("limit_reached");

    fx.acp = startAcp({ cwd: fx.ws.root, env });
    await fx.acp.agent.request("initialize", { protocolVersion: 1 });
    await fx.acp.agent.request("session/load", { sessionId: row?.id ?? "", cwd: fx.ws.root, mcpServers: [] });
    // This instruction names no file of the script: the planner keeps routing coder steps, past the one allowed.
    const { stopReason } = await fx.acp.agent.request("session/prompt", { sessionId: row?.id ?? "", prompt: [{ type: "text", text: "Keep going" }] });
    expect(stopReason).toBe("max_turn_requests");
    expect(agentText(fx.acp)).toContain("Limit reached (sub-agent runs)");
  });
});
