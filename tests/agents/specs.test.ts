import fs from "node:fs/promises";
import { ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../src/agents/index.js";
import { PROCESS_TOOLS } from "../../src/tools/index.js";
import type { AgentSpec } from "../../src/agents/types.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../graph/scripted-models.js";
import { runToEnd } from "./agent-harness.js";

const ws = useTempWorkspace({ "a.txt": "original\n" });

describe("per-agent tool restriction", () => {
  it("gives each agent exactly its tools", () => {
    expect(AGENT_SPECS.researcher.tools).toEqual([
      "read_file",
      "list_directory",
      "search_code",
      "codebase_search",
      "memory_search",
      "load_skill",
      "fetch_url",
      "web_search",
    ]);
    expect(AGENT_SPECS.coder.tools).toEqual([
      "read_file",
      "list_directory",
      "search_code",
      "codebase_search",
      "write_file",
      "edit_file",
      "execute_command",
      ...PROCESS_TOOLS,
      "load_skill",
      "fetch_url",
      "web_search",
    ]);
    expect(AGENT_SPECS.reviewer.tools).toEqual([
      "read_file",
      "list_directory",
      "search_code",
      "execute_command",
      "project_diagnostics",
      ...PROCESS_TOOLS,
      "load_skill",
    ]);
  });

  it.each([
    ["researcher", "execute_command", { command: "touch pwned" }],
    ["researcher", "edit_file", { path: "a.txt", oldText: "original", newText: "changed" }],
    ["reviewer", "write_file", { path: "a.txt", content: "changed" }],
    ["reviewer", "edit_file", { path: "a.txt", oldText: "original", newText: "changed" }],
  ] as const)("refuses %s a call to %s in code, whatever the model asks", async (agent, tool, args) => {
    const spec: AgentSpec = AGENT_SPECS[agent];
    const models = scriptedModels({ [agent]: [calls({ name: tool, args }), calls({ name: spec.finishTool.name, args: finishArgs(agent) })] });
    const { outcome } = await runToEnd(spec, models, { workspace: ws.root });
    expect(outcome.stopReason).toBe("finished");
    expect(await fs.readFile(`${ws.root}/a.txt`, "utf8")).toBe("original\n");
    await expect(fs.access(`${ws.root}/pwned`)).rejects.toThrow();
    const reply = (models.seen[agent]?.[1] ?? []).find((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(String(reply?.content)).toContain(`tool "${tool}" is not available to the ${agent}`);
    expect(reply?.status).toBe("error");
  });

  it("states the workspace, the role and the tools in every system prompt", () => {
    for (const spec of Object.values(AGENT_SPECS)) {
      const prompt = spec.systemPrompt("/some/workspace", [...spec.tools, spec.finishTool.name]);
      expect(prompt).toContain("/some/workspace");
      expect(prompt).toContain(`You are the ${spec.name}`);
      for (const tool of spec.tools) expect(prompt).toContain(tool);
      expect(prompt).toContain(spec.finishTool.name);
    }
  });
});

function finishArgs(agent: "researcher" | "reviewer"): Record<string, unknown> {
  return agent === "researcher" ? { summary: "ok", findings: [] } : { decision: "approve", summary: "ok" };
}
