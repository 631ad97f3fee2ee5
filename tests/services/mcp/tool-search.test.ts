import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import {
  MAX_REQUEST_TOOLS,
  MCP_DIRECT_LIMIT,
  mcpToolsForRequest,
  rankTools,
  searchResultText,
  SEARCH_MCP_TOOLS,
} from "../../../src/services/mcp/tool-search.js";
import type { ExtensionTool } from "../../../src/services/mcp/index.js";

const mcp = (original: string, description: string, properties: Record<string, unknown> = {}): ExtensionTool => ({
  name: `mcp__big__${original.replace(/[^A-Za-z0-9_-]/g, "_")}`,
  original,
  description,
  inputSchema: { type: "object", properties },
  readOnly: true,
  server: "big",
});
const many = [
  ...Array.from({ length: 199 }, (_, n) => mcp(`record.${n}`, `Keeps record number ${n}.`)),
  mcp("weather_forecast", "Tells the weather forecast for a city.", { city: { type: "string" } }),
  mcp("createIssue", "Opens an issue in a GitHub repository."),
];

describe("searching a large server's MCP tools", () => {
  it("finds tools by the words of their names (split at _ . and camelCase), prefixes and descriptions", () => {
    expect(rankTools(many, "weather").map((t) => t.original)).toEqual(["weather_forecast"]);
    expect(rankTools(many, "create an issue")[0]?.original).toBe("createIssue");
    expect(rankTools(many, "forecast city", 1).map((t) => t.original)).toEqual(["weather_forecast"]);
    // An exact name loads that tool first.
    expect(rankTools(many, "mcp__big__record_7 weather", 2).map((t) => t.original)).toEqual(["record.7", "weather_forecast"]);
    expect(rankTools(many, "zebra")).toEqual([]);
  });

  it("says what each tool found takes and does", () => {
    expect(searchResultText(rankTools(many, "weather"), "weather", 201)).toBe(
      "Loaded 1 of 201 MCP tools; call them from your next step:\n- mcp__big__weather_forecast(city): Tells the weather forecast for a city.",
    );
    expect(searchResultText([], "zebra", 201)).toBe('No MCP tool matches "zebra" (of 201). Try other words, e.g. what the tool acts on.');
  });

  it(`offers up to ${MCP_DIRECT_LIMIT} MCP tools as they are; past that the search tool and what was loaded or called, within the request's limit`, () => {
    expect(mcpToolsForRequest(many.slice(0, 40), [], 100)).toEqual({ tools: many.slice(0, 40), search: false });
    expect(mcpToolsForRequest(many, [], 100)).toEqual({ tools: [], search: true });
    const transcript = [
      new AIMessage({ content: "", tool_calls: [{ id: "a", name: SEARCH_MCP_TOOLS, args: { query: "weather" } }] }),
      new ToolMessage({
        tool_call_id: "a",
        name: SEARCH_MCP_TOOLS,
        content: searchResultText(rankTools(many, "weather forecast record 3", 2), "weather", 201),
      }),
      new AIMessage({ content: "", tool_calls: [{ id: "b", name: "mcp__big__createIssue", args: {} }] }),
    ];
    const chosen = mcpToolsForRequest(many, transcript, 100);
    expect(chosen.search).toBe(true);
    // In the server's order, so the request's list is stable from call to call.
    expect(chosen.tools.map((t) => t.original)).toEqual(["record.3", "weather_forecast", "createIssue"]);
    // No more than the room left (one place is the search tool's): the newest loads stay.
    expect(mcpToolsForRequest(many, transcript, 2).tools.map((t) => t.original)).toEqual(["createIssue"]);
    expect(MAX_REQUEST_TOOLS).toBe(128);
  });
});
