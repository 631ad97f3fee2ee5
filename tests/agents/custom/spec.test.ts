import { describe, expect, it } from "vitest";
import { customAgentSpec, type CustomAgentDefinition } from "../../../src/agents/custom/index.js";
import type { LoopOutcome } from "../../../src/agents/types.js";

function definition(tools: CustomAgentDefinition["tools"], extra: Partial<CustomAgentDefinition> = {}): CustomAgentDefinition {
  return {
    name: "docs-writer",
    description: "Writes docs.",
    tools,
    extraTools: [],
    prompt: "Write the docs in plain English.",
    file: "/w/.mini-cursor/agents/docs-writer.md",
    displayPath: ".mini-cursor/agents/docs-writer.md",
    source: "workspace",
    ...extra,
  };
}

const outcome = (o: Partial<LoopOutcome>): LoopOutcome => ({
  finish: null,
  lastText: "",
  stopReason: "finished",
  stopDetail: "",
  modelCalls: 2,
  filesChanged: [],
  commands: [],
  ...o,
});

describe("customAgentSpec", () => {
  it("gives commands write access only to an agent that can also edit files", () => {
    expect(customAgentSpec(definition(["read_file", "execute_command"])).commandAccess).toBe("read-only");
    expect(customAgentSpec(definition(["execute_command", "edit_file"])).commandAccess).toBe("read-write");
    expect(customAgentSpec(definition(["execute_command", "write_file"])).commandAccess).toBe("read-write");
  });

  it("frames the file's body with the workspace, its real tools and the rules, and finishes with submit_result", () => {
    const spec = customAgentSpec(definition(["read_file"], { extraTools: ["mcp__docs__*"] }));
    expect(spec.extraTools).toEqual(["mcp__docs__*"]);
    expect(spec.finishTool.name).toBe("submit_result");
    const prompt = spec.systemPrompt("/w", ["read_file", "submit_result"]);
    expect(prompt).toContain("You are docs-writer, a sub-agent of mini-cursor");
    expect(prompt).toContain("Your role: Writes docs.");
    expect(prompt).toContain("Workspace root: /w\nYour tools: read_file, submit_result.");
    expect(prompt).toContain("Your instructions (from .mini-cursor/agents/docs-writer.md):\nWrite the docs in plain English.");
    expect(prompt).toContain("call submit_result once");
  });

  it("turns submit_result into a report under its own name; failed and unfinished runs say so", () => {
    const spec = customAgentSpec(definition(["read_file", "write_file"]));
    const done = spec.toReport(
      outcome({ finish: { summary: "Wrote docs/api.md.", findings: [{ source: "src/a.ts:1", note: "exports a" }] }, filesChanged: ["docs/api.md"] }),
      "s2",
    );
    expect(done).toMatchObject({ stepId: "s2", agent: "docs-writer", status: "done", summary: "Wrote docs/api.md.", filesChanged: ["docs/api.md"] });
    expect(done.findings).toEqual([{ source: "src/a.ts:1", note: "exports a" }]);
    expect(spec.toReport(outcome({ finish: { status: "failed", summary: "No docs folder." } }), "s2")).toMatchObject({
      status: "failed",
      summary: "No docs folder.",
    });
    expect(spec.toReport(outcome({ lastText: "Plain answer.", stopReason: "text" }), "s2")).toMatchObject({ status: "done", summary: "Plain answer." });
    expect(spec.toReport(outcome({ lastText: "halfway", stopReason: "call_limit" }), "s2")).toMatchObject({ status: "incomplete" });
  });
});
