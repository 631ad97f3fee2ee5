import { describe, expect, it } from "vitest";
import { capText, matchesToolPattern, mcpToolName, resultText } from "../../../src/services/mcp/index.js";

describe("MCP tool names and results", () => {
  it("names tools mcp__<server>__<tool> in [A-Za-z0-9_-], at most 64 characters", () => {
    expect(mcpToolName("github", "search_issues")).toBe("mcp__github__search_issues");
    expect(mcpToolName("my.server", "get file/info")).toBe("mcp__my_server__get_file_info");
    const long = mcpToolName("s", "x".repeat(100));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(matchesToolPattern("mcp__github__create_issue", "mcp__github__*")).toBe(true);
    expect(matchesToolPattern("mcp__github__create_issue", "mcp__gitlab__*")).toBe(false);
    expect(matchesToolPattern("mcp__a_b__x", "mcp__a.b__x")).toBe(false);
  });

  it("turns content parts into text: links, embedded resources, images as a note, structured content", () => {
    const text = resultText(
      {
        content: [
          { type: "text", text: "found 2" },
          { type: "resource_link", uri: "file:///a.txt", name: "a.txt" },
          { type: "resource", resource: { uri: "mem://note", text: "remember this" } },
          { type: "resource", resource: { uri: "mem://bin", blob: "AAAA", mimeType: "application/zip" } },
          { type: "image", data: "A".repeat(16_384), mimeType: "image/png" },
        ],
      },
      10_000,
    );
    expect(text).toBe(
      "found 2\nresource: file:///a.txt (a.txt)\nresource mem://note:\nremember this\n[resource mem://bin: application/zip, 3 B]\n[image: image/png, 12 KB]",
    );
    expect(resultText({ content: [], structuredContent: { sum: 3 } }, 1000)).toBe('{\n  "sum": 3\n}');
    expect(resultText({ content: [] }, 1000)).toBe("(no output)");
    expect(capText("a".repeat(100), 20)).toMatch(/^a{14}\n… \(80 characters left out\) …\na{6}$/);
  });
});
