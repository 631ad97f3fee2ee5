import { describe, expect, it } from "vitest";
import { agentHasTool } from "../../src/agents/agent-tools.js";
import type { ExtensionTool } from "../../src/services/mcp/index.js";

const tool = (name: string, readOnly: boolean, agents?: string[]): ExtensionTool => ({
  name,
  description: "",
  inputSchema: { type: "object" },
  readOnly,
  server: name.split("__")[1] ?? "",
  original: name.split("__")[2] ?? "",
  ...(agents ? { agents } : {}),
});

describe("which agent gets which MCP tool", () => {
  const search = tool("mcp__github__search_issues", true);
  const create = tool("mcp__github__create_issue", false);
  it("gives read-only tools to every built-in agent and the others to the coder alone", () => {
    for (const name of ["researcher", "coder", "reviewer"]) expect(agentHasTool({ name }, search)).toBe(true);
    expect(agentHasTool({ name: "coder" }, create)).toBe(true);
    expect(agentHasTool({ name: "researcher" }, create)).toBe(false);
    expect(agentHasTool({ name: "reviewer" }, create)).toBe(false);
  });

  it("follows a server's agents list", () => {
    const limited = tool("mcp__db__query", true, ["researcher"]);
    expect(agentHasTool({ name: "researcher" }, limited)).toBe(true);
    expect(agentHasTool({ name: "coder" }, limited)).toBe(false);
    expect(agentHasTool({ name: "reviewer" }, tool("mcp__db__migrate", false, ["reviewer"]))).toBe(true);
  });

  it("gives a custom agent exactly the tools it lists, by name or glob, and nothing by default", () => {
    expect(agentHasTool({ name: "triager" }, search)).toBe(false);
    expect(agentHasTool({ name: "triager", extraTools: ["mcp__github__create_issue"] }, create)).toBe(true);
    expect(agentHasTool({ name: "triager", extraTools: ["mcp__github__create_issue"] }, search)).toBe(false);
    expect(agentHasTool({ name: "triager", extraTools: ["mcp__github__*"] }, search)).toBe(true);
    expect(agentHasTool({ name: "triager", extraTools: ["mcp__gitlab__*"] }, search)).toBe(false);
  });
});
