import { describe, expect, it } from "vitest";
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { roleOf } from "../cli/task-script.js";
import { runCli } from "../cli/cli-process.js";
import type { ScriptedReply, ScriptedRequest } from "../../helpers/scripted-openai-server.js";
import { useAcpAgents, type AcpProcess } from "./acp-process.js";

/**
 * What the editor sets for a thread (the mode, every config option) is kept with the session when it is set, and a
 * thread opened and never prompted is kept too: an agent started again (`mini-cursor acp` from the build, killed and
 * started anew) loads them exactly as they were.
 */
/** Every prompt is done at once: the planner answers with no steps. */
function script(req: ScriptedRequest): ScriptedReply {
  if (roleOf(req) === "planner")
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Nothing to change." } }] };
  return { content: "Nothing to do." };
}

const fx = useAcpAgents(script, { models: ["scripted", "scripted-large"], files: { "package.json": "{}\n" } });

async function started(): Promise<AcpProcess> {
  const acp = fx.start();
  await acp.agent.request("initialize", { protocolVersion: 1 });
  return acp;
}

/** The agent goes away without a word (a crash, the editor killing it): what was set must already be stored. */
async function killed(acp: AcpProcess): Promise<void> {
  acp.child.kill("SIGKILL");
  await acp.close();
}

const values = (options: readonly SessionConfigOption[] | null | undefined) => Object.fromEntries((options ?? []).map((o) => [o.id, o.currentValue]));

function set(acp: AcpProcess, sessionId: string, configId: string, value: string | boolean) {
  return acp.agent.request("session/set_config_option", {
    sessionId,
    configId,
    ...(typeof value === "boolean" ? { type: "boolean" as const, value } : { value }),
  });
}

const prompt = (acp: AcpProcess, sessionId: string, text: string) => acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
const load = (acp: AcpProcess, sessionId: string) => acp.agent.request("session/load", { sessionId, cwd: fx.ws.root, mcpServers: [] });
const cli = (args: string[]) => runCli(args, { cwd: fx.ws.root, env: { OPENAI_BASE_URL: fx.server.baseUrl, MINI_CURSOR_MODEL: "scripted" } });

describe("thread settings survive a restart of the agent", () => {
  it("the mode and every config option, set and never prompted, come back exactly after a kill and session/load", async () => {
    const first = await started();
    const { sessionId } = await first.agent.request("session/new", { cwd: fx.ws.root, mcpServers: [] });
    await first.agent.request("session/set_mode", { sessionId, modeId: "auto" });
    await set(first, sessionId, "allow_network", true);
    await set(first, sessionId, "approve_file_changes", true);
    await set(first, sessionId, "model", "scripted-large");
    const last = await set(first, sessionId, "budget_usd", "5");
    const chosen = { model: "scripted-large", approval: "auto", allow_network: true, approve_file_changes: true, budget_usd: "5" };
    expect(values(last.configOptions)).toEqual(chosen);
    await killed(first);

    const second = await started();
    const loaded = await load(second, sessionId);
    expect(loaded.modes?.currentModeId).toBe("auto");
    expect(values(loaded.configOptions)).toEqual(chosen);
    // Then turned back, and once more after a restart.
    await second.agent.request("session/set_mode", { sessionId, modeId: "ask" });
    await set(second, sessionId, "allow_network", false);
    await set(second, sessionId, "budget_usd", "none");
    await killed(second);
    const third = await started();
    const again = await load(third, sessionId);
    expect(again.modes?.currentModeId).toBe("ask");
    expect(values(again.configOptions)).toEqual({ ...chosen, approval: "ask", allow_network: false, budget_usd: "none" });
  });

  it("read-only set and used for two prompts, or set after two prompts, is read-only after a restart", async () => {
    const first = await started();
    const used = (await first.agent.request("session/new", { cwd: fx.ws.root, mcpServers: [] })).sessionId;
    await first.agent.request("session/set_mode", { sessionId: used, modeId: "read-only" });
    expect((await prompt(first, used, "Look around")).stopReason).toBe("end_turn");
    expect((await prompt(first, used, "Look again")).stopReason).toBe("end_turn");
    const later = (await first.agent.request("session/new", { cwd: fx.ws.root, mcpServers: [] })).sessionId;
    expect((await prompt(first, later, "Look around")).stopReason).toBe("end_turn");
    expect((await prompt(first, later, "Look again")).stopReason).toBe("end_turn");
    await first.agent.request("session/set_mode", { sessionId: later, modeId: "read-only" });
    await killed(first);

    const second = await started();
    for (const sessionId of [used, later]) {
      const loaded = await load(second, sessionId);
      expect(loaded.modes?.currentModeId, sessionId).toBe("read-only");
      expect(values(loaded.configOptions).approval, sessionId).toBe("read-only");
    }
  });

  it("a thread opened and never prompted is still there after a restart: listed as new, loaded, then started by its first prompt", async () => {
    const first = await started();
    const { sessionId } = await first.agent.request("session/new", { cwd: fx.ws.root, mcpServers: [] });
    await killed(first);

    const listed = await cli(["sessions"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${sessionId}\\s+new\\s.*\\(no task yet\\)`));
    const resumed = await cli(["resume", sessionId]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout + resumed.stderr).toContain(`Session ${sessionId} has no task yet: nothing to resume.`);
    // `resume` without an id takes the latest session that has a task: here there is none.
    const latest = await cli(["resume"]);
    expect(latest.code).toBe(2);
    expect(latest.stderr).toMatch(/no sessions in .* yet/);

    const second = await started();
    const loaded = await load(second, sessionId);
    expect(loaded.modes?.currentModeId).toBe("ask");
    expect((await prompt(second, sessionId, "Look around")).stopReason).toBe("end_turn");
    const after = await cli(["sessions", "--json"]);
    expect(JSON.parse(after.stdout)).toEqual([expect.objectContaining({ id: sessionId, status: "done", task: "Look around", turns: 1 })]);
  });
});
