import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createWorkspaceTools, PROCESS_TOOLS, READ_TOOLS, TOOL_FACTORIES, TOOL_NAMES } from "../../src/tools/index.js";

describe("tool registry", () => {
  it("builds every tool under its snake_case name, with a schema whose fields are described", () => {
    const tools = createWorkspaceTools({ root: "/tmp" });
    expect(tools.map((t) => t.name)).toEqual(Object.keys(TOOL_FACTORIES));
    expect(TOOL_NAMES).toEqual([
      "read_file",
      "list_directory",
      "search_code",
      "codebase_search",
      "write_file",
      "edit_file",
      "execute_command",
      "memory_search",
      "fetch_url",
      "web_search",
      "load_skill",
      "project_diagnostics",
      ...PROCESS_TOOLS,
    ]);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(tool.description.length).toBeGreaterThan(50);
      expect(tool).toHaveProperty("responseFormat", "content_and_artifact");
      expect(tool.schema).toBeInstanceOf(z.ZodObject);
      if (tool.schema instanceof z.ZodObject) {
        for (const [field, schema] of Object.entries(tool.schema.shape)) {
          expect(schema instanceof z.ZodType ? schema.description : undefined, `${tool.name}.${field}`).toBeTruthy();
        }
      }
    }
  });

  it("lists the read-only tools", () => {
    expect(READ_TOOLS).toEqual(["read_file", "list_directory", "search_code"]);
    expect(createWorkspaceTools({ root: "/tmp" }, READ_TOOLS).map((t) => t.name)).toEqual([...READ_TOOLS]);
  });
});
