import { describe, expect, it } from "vitest";
import { reviewerSpec } from "../../src/agents/reviewer/index.js";
import { offeredTools } from "../../src/agents/agent-tools.js";

describe("offered project_diagnostics", () => {
  it("offers the reviewer project_diagnostics only when the session has diagnostics, also in read-only mode", () => {
    expect(offeredTools(reviewerSpec, { approval: "ask" }, { memory: false, diagnostics: true })).toEqual([
      "read_file",
      "list_directory",
      "search_code",
      "execute_command",
      "project_diagnostics",
    ]);
    expect(offeredTools(reviewerSpec, { approval: "ask" }, { memory: false, diagnostics: false })).not.toContain("project_diagnostics");
    expect(offeredTools(reviewerSpec, { approval: "read-only" }, { memory: false, diagnostics: true })).toEqual([
      "read_file",
      "list_directory",
      "search_code",
      "project_diagnostics",
    ]);
  });
});
