import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../src/agents/index.js";
import { offeredTools } from "../../src/agents/agent-tools.js";
import { BUILTIN_AGENT_NAMES, DEFAULT_SAFETY } from "../../src/core/index.js";
import { plannerSystemPrompt } from "../../src/graph/nodes/planner/prompt.js";
import { createPlanTool } from "../../src/graph/nodes/planner/plan-ops.js";

/**
 * What each agent is told and offered, as snapshots (issue 39): a change to a system prompt or a tool list shows up in
 * review as a diff of tests/agents/__snapshots__, never silently. Update them with `npx vitest run -u` on purpose.
 */
const everything = { memory: true, skills: true, diagnostics: true, processes: true, codeIndex: true, web: { enabled: true, search: undefined } };

describe("agent prompts and tools", () => {
  it.each(BUILTIN_AGENT_NAMES)("%s: its tools in each mode, and its system prompt", (name) => {
    const spec = AGENT_SPECS[name];
    const tools = {
      ask: offeredTools(spec, { ...DEFAULT_SAFETY, approval: "ask" }, everything),
      auto: offeredTools(spec, { ...DEFAULT_SAFETY, approval: "auto" }, everything),
      readOnly: offeredTools(spec, { ...DEFAULT_SAFETY, approval: "read-only" }, everything),
      bare: offeredTools(spec, { ...DEFAULT_SAFETY, approval: "ask" }, { memory: false }),
    };
    expect(tools).toMatchSnapshot();
    expect(spec.systemPrompt("/work/project", [...tools.ask, spec.finishTool.name])).toMatchSnapshot();
  });

  it("planner: its system prompt (with a custom agent) and the plan schema the model reads", () => {
    expect(plannerSystemPrompt([])).toMatchSnapshot();
    expect(plannerSystemPrompt([{ name: "docs-writer", description: "Writes the project's Markdown docs." }])).toMatchSnapshot();
    expect(createPlanTool([...BUILTIN_AGENT_NAMES]).strategy).toMatchSnapshot();
  });
});
