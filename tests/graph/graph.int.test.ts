import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root, runGraph, useGraphWorkspace } from "./graph-workspace.js";
import { calls, finishPlan, plan } from "./scripted-models.js";

useGraphWorkspace();

describe("planner → sub-agents graph", () => {
  it("plans, researches, codes, fixes what review found, re-reviews and finishes", async () => {
    const { state, events, seen } = await runGraph({
      planner: [
        plan([
          { agent: "researcher", goal: "Look at the project layout" },
          { agent: "coder", goal: "Write sum.js and check it", acceptanceCriteria: ["node check passes"] },
          { agent: "reviewer", goal: "Review sum.js" },
        ]),
        plan([
          { agent: "coder", goal: "Write sum.js and check it" },
          { agent: "reviewer", goal: "Review sum.js" },
        ]),
        plan([{ agent: "reviewer", goal: "Review sum.js" }]),
        plan([{ agent: "reviewer", goal: "Review the fix" }]),
        finishPlan("sum.js written and reviewed"),
      ],
      researcher: [
        calls({ name: "list_directory", args: { path: "." } }),
        calls({ name: "submit_findings", args: { summary: "An empty ESM package.", findings: [{ source: "package.json:1", note: "type is module" }] } }),
      ],
      coder: [
        calls({ name: "write_file", args: { path: "src/sum.js", content: "export const sum = (a, b) => a - b;\n" } }),
        calls({ name: "execute_command", args: { command: "node -e \"import('./src/sum.js').then(m => process.exit(m.sum(2, 2) === 4 ? 0 : 3))\"" } }),
        calls({ name: "submit_work", args: { status: "done", summary: "wrote src/sum.js" } }),
        // The fix run, briefed with the reviewer's problem:
        calls({ name: "edit_file", args: { path: "src/sum.js", oldText: "a - b", newText: "a + b" } }),
        calls({ name: "submit_work", args: { status: "done", summary: "fixed the operator" } }),
      ],
      reviewer: [
        calls({ name: "execute_command", args: { command: "node -e \"import('./src/sum.js').then(m => process.exit(m.sum(2, 2) === 4 ? 0 : 3))\"" } }),
        calls({
          name: "submit_review",
          args: { decision: "changes_requested", summary: "sum subtracts", problems: [{ file: "src/sum.js", problem: "uses - instead of +", fix: "use +" }] },
        }),
        calls({ name: "execute_command", args: { command: "node -e \"import('./src/sum.js').then(m => process.exit(m.sum(2, 2) === 4 ? 0 : 3))\"" } }),
        calls({ name: "submit_review", args: { decision: "approve", summary: "sum works" } }),
      ],
    });

    expect(state.status).toBe("done");
    expect(await fs.readFile(path.join(root, "src/sum.js"), "utf8")).toBe("export const sum = (a, b) => a + b;\n");
    expect(state.filesChanged).toEqual(["src/sum.js"]);
    expect(state.commands.map((c) => [c.agent, c.exitCode])).toEqual([
      ["coder", 3],
      ["reviewer", 3],
      ["reviewer", 0],
    ]);
    expect(state.reviews.map((r) => r.decision)).toEqual(["changes_requested", "approve"]);
    expect(state.findings).toEqual([{ stepId: "s1", source: "package.json:1", note: "type is module" }]);
    expect(state.plan.every((s) => s.status === "done")).toBe(true);
    expect(state.usage["coder:fake-coder"]?.calls).toBe(5);
    expect(state.usage["planner:fake-planner"]?.calls).toBe(5);
    expect(state.counters).toMatchObject({ agentRuns: 5, reviewRounds: 1 });
    expect(state.finalReport).toContain("Review: approve");

    // The fix run's brief carries the reviewer's concrete problem.
    const fixBrief = seen.coder?.[3]?.[1]?.content;
    expect(String(fixBrief)).toContain("uses - instead of +");
    // The planner sees compact reports, never a sub-agent transcript.
    const plannerPrompt = String(seen.planner?.[1]?.[1]?.content);
    expect(plannerPrompt).toContain("Latest report (s1, researcher, done)");
    expect(plannerPrompt).not.toContain("list_directory");
    expect(events.events.filter((e) => e.type === "step_started").map((e) => (e.type === "step_started" ? e.agent : ""))).toEqual([
      "researcher",
      "coder",
      "reviewer",
      "coder",
      "reviewer",
    ]);
  });
});
