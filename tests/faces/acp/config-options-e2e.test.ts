import fs from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { roleOf } from "../cli/task-script.js";
import { toolResults, type ScriptedReply, type ScriptedRequest } from "../../helpers/scripted-openai-server.js";
import { updatesOf, useAcpAgents, type AcpProcess } from "./acp-process.js";

/**
 * The editor sets a session's approval, network, file-change approvals and budget through session/set_config_option
 * (`mini-cursor acp` from the build, the SDK's client); what it sets reaches the commands and tools of the next prompt.
 */
/** A command that says whether the host's loopback (this scripted server) is reachable from the sandbox. */
const probe = () => `node -e "fetch('${fx.server.baseUrl}/models').then(r => console.log('reached ' + r.status), () => console.log('unreachable'))"`;

function script(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  const text = req.messages
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
  if (role === "planner") {
    // A coder step for the task, and one more for a follow-up prompt (its goal and report say "again").
    const goal = text.includes("There is no plan yet")
      ? "Probe the network, then write notes"
      : /Follow-up instruction/.test(text) && !text.includes("Probed again.")
        ? "Probe the network again, then write notes"
        : null;
    return goal
      ? { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal }], finished: false } }] }
      : { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Probed and wrote notes." } }] };
  }
  if (role === "coder") {
    const again = text.includes("again");
    const steps = [
      { name: "execute_command", args: { command: probe() } },
      { name: "write_file", args: { path: again ? "notes-again.txt" : "notes.txt", content: "notes\n" } },
      { name: "submit_work", args: { status: "done", summary: again ? "Probed again." : "Probed." } },
    ];
    return { toolCalls: [steps[Math.min(toolResults(req).length, steps.length - 1)]!] };
  }
  if (role === "reviewer") return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "ok" } }] };
  return { content: "Nothing to do." };
}

// The endpoint lists a second model the editor may pick.
const fx = useAcpAgents(script, { models: ["scripted", "scripted-large"], files: { "package.json": "{}\n" } });

async function started(): Promise<AcpProcess> {
  const acp = fx.start();
  await acp.agent.request("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
  return acp;
}

const values = (options: readonly SessionConfigOption[] | null | undefined) => Object.fromEntries((options ?? []).map((o) => [o.id, o.currentValue]));

/** The coder's tool results of the latest prompt. */
function coderResults(): string[] {
  const last = fx.server.requests.filter((r) => roleOf(r) === "coder").at(-1);
  return last ? toolResults(last).map((r) => r.content) : [];
}

describe("session config options from the editor", () => {
  it("offers model, approval, network, file-change approvals and budget, and each setting reaches the next prompt's tools", async () => {
    const acp = await started();
    const created = await acp.agent.request("session/new", { cwd: fx.ws.root, mcpServers: [] });
    expect(values(created.configOptions)).toEqual({
      model: "scripted",
      approval: "ask",
      allow_network: false,
      approve_file_changes: false,
      budget_usd: "none",
    });
    expect(created.configOptions?.find((o) => o.id === "approval")?.category).toBe("mode");
    const model = created.configOptions?.find((o) => o.id === "model");
    expect(model?.category).toBe("model");
    expect(model?.type === "select" ? model.options : []).toEqual([
      { value: "scripted", name: "scripted (configured)" },
      { value: "scripted-large", name: "scripted-large" },
    ]);
    const set = (configId: string, value: string | boolean) =>
      acp.agent.request("session/set_config_option", {
        sessionId: created.sessionId,
        configId,
        ...(typeof value === "boolean" ? { type: "boolean" as const, value } : { value }),
      });

    // Auto, no network: the command runs without asking and cannot reach the host; the write needs no approval.
    const auto = await set("approval", "auto");
    expect(values(auto.configOptions).approval).toBe("auto");
    await acp.waitForUpdate((u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "auto");
    const first = await acp.agent.request("session/prompt", { sessionId: created.sessionId, prompt: [{ type: "text", text: "Probe and write" }] });
    expect(first.stopReason).toBe("end_turn");
    expect(coderResults()[0]).toContain("unreachable");
    expect(acp.permissions).toHaveLength(0);
    expect(new Set(fx.server.requests.map((r) => r.model))).toEqual(new Set(["scripted"]));

    // Ask, network on, ask before file changes, a budget: the command asks and reaches the host, the write asks.
    await set("approval", "ask");
    expect(values((await set("allow_network", true)).configOptions).allow_network).toBe(true);
    await set("approve_file_changes", true);
    await set("model", "scripted-large");
    expect(values((await set("budget_usd", "1")).configOptions)).toEqual({
      model: "scripted-large",
      approval: "ask",
      allow_network: true,
      approve_file_changes: true,
      budget_usd: "1",
    });
    const before = fx.server.requests.length;
    const second = await acp.agent.request("session/prompt", { sessionId: created.sessionId, prompt: [{ type: "text", text: "Probe and write again" }] });
    expect(second.stopReason).toBe("end_turn");
    expect(coderResults()[0], JSON.stringify(coderResults())).toMatch(/reached \d+/);
    expect(acp.permissions.map((p) => p.toolCall.kind)).toEqual(["execute", "edit"]);
    // Every agent of that prompt asked the model chosen in the editor.
    expect(new Set(fx.server.requests.slice(before).map((r) => r.model))).toEqual(new Set(["scripted-large"]));

    // A mode switch shows in the options too.
    await acp.agent.request("session/set_mode", { sessionId: created.sessionId, modeId: "read-only" });
    const changed = updatesOf(acp, "config_option_update").at(-1);
    expect(values(changed?.configOptions).approval).toBe("read-only");

    // Kept with the session when set: a new agent loading it shows them (the mode switched after the last prompt too).
    const again = await started();
    const loaded = await again.agent.request("session/load", { sessionId: created.sessionId, cwd: fx.ws.root, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe("read-only");
    expect(values(loaded.configOptions)).toEqual({
      model: "scripted-large",
      approval: "read-only",
      allow_network: true,
      approve_file_changes: true,
      budget_usd: "1",
    });
    expect(await fs.readdir(fx.ws.root)).toEqual(expect.arrayContaining(["notes.txt", "notes-again.txt"]));
  });

  it("answers an unknown option or value with one JSON-RPC error line, changing nothing", async () => {
    const acp = await started();
    const { sessionId } = await acp.agent.request("session/new", { cwd: fx.ws.root, mcpServers: [] });
    await expect(acp.agent.request("session/set_config_option", { sessionId, configId: "temperature", value: "x" })).rejects.toThrow(
      /unknown option "temperature"; options: model, approval, allow_network, approve_file_changes, budget_usd/,
    );
    await expect(acp.agent.request("session/set_config_option", { sessionId, configId: "model", value: "gpt-unlisted" })).rejects.toThrow(
      /"gpt-unlisted" is not a value of the option "model"/,
    );
    await expect(acp.agent.request("session/set_config_option", { sessionId, configId: "budget_usd", value: "3.5" })).rejects.toThrow(
      /"3\.5" is not a value of the option "budget_usd"/,
    );
    await expect(acp.agent.request("session/set_config_option", { sessionId, configId: "allow_network", value: "yes" })).rejects.toThrow(
      /"yes" is not a value of the option "allow_network"/,
    );
    const unchanged = await acp.agent.request("session/set_config_option", { sessionId, configId: "approval", value: "ask" });
    expect(values(unchanged.configOptions)).toEqual({
      model: "scripted",
      approval: "ask",
      allow_network: false,
      approve_file_changes: false,
      budget_usd: "none",
    });
  });
});
