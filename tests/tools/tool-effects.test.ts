import { describe, expect, it } from "vitest";
import { COMMAND_TOOLS, FILE_CHANGE_TOOLS, PROCESS_TOOLS, READ_TOOLS, TOOL_EFFECTS, TOOL_NAMES } from "../../src/tools/index.js";
import { offeredTools } from "../../src/agents/agent-tools.js";
import { AGENT_SPECS } from "../../src/agents/index.js";
import { DEFAULT_SAFETY } from "../../src/core/index.js";

/**
 * The one list of what each tool does (issue 39: six hand-kept lists before). These sets decide which calls get an
 * approval decision and what read-only mode offers: a tool added without its effect fails to compile, and a change
 * of classification fails here.
 */
describe("tool effects", () => {
  it("classify every tool, and the derived sets are the ones the approvals and modes use", () => {
    expect(Object.keys(TOOL_EFFECTS).sort()).toEqual([...TOOL_NAMES].sort());
    expect([...FILE_CHANGE_TOOLS].sort()).toEqual(["edit_file", "write_file"]);
    expect([...COMMAND_TOOLS].sort()).toEqual(["execute_command", "start_process"]);
    for (const name of READ_TOOLS) expect(TOOL_EFFECTS[name]).toBe("reads");
    for (const name of PROCESS_TOOLS) expect(["runs_commands", "manages_processes"]).toContain(TOOL_EFFECTS[name]);
  });

  it("read-only mode offers only tools that read", () => {
    const everything = { memory: true, skills: true, diagnostics: true, processes: true, codeIndex: true, web: { enabled: true, search: undefined } };
    for (const spec of Object.values(AGENT_SPECS)) {
      for (const name of offeredTools(spec, { ...DEFAULT_SAFETY, approval: "read-only" }, everything)) {
        expect(TOOL_EFFECTS[name as keyof typeof TOOL_EFFECTS], `${spec.name}: ${name}`).toBe("reads");
      }
    }
  });
});
