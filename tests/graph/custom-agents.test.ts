import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { customAgentSpec, loadCustomAgents } from "../../src/agents/index.js";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, EventRecorder } from "../../src/core/index.js";
import { DEFAULT_PRICE_TABLE } from "../../src/models/cost/prices.js";
import { compileGraph } from "../../src/graph/build-graph.js";
import type { WorkspaceStateValue } from "../../src/graph/state.js";
import { memoryOff } from "../../src/memory/types.js";
import { wireGraphDeps } from "../../src/host/graph-deps.js";
import { calls, finishPlan, plan, scriptedModels } from "./scripted-models.js";

let root = "";
let home = "";
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mc-custom-")));
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mc-custom-home-")));
  await fs.mkdir(path.join(root, ".mini-cursor", "agents"), { recursive: true });
  await fs.writeFile(
    path.join(root, ".mini-cursor", "agents", "docs-writer.md"),
    "---\nname: docs-writer\ndescription: Writes the project's Markdown docs.\ntools: read_file, write_file\n---\nWrite short docs in docs/.\n",
  );
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
  await fs.rm(home, { recursive: true, force: true });
});

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

describe("custom agents in the session graph", () => {
  it("the planner is offered a custom agent, routes a step to it, and it runs as its own subgraph with only its tools", async () => {
    const loaded = loadCustomAgents(root, { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") });
    expect(loaded.problems).toEqual([]);
    const models = scriptedModels({
      planner: [
        plan([{ agent: "ghost-writer", goal: "Write the docs" }]),
        plan([{ agent: "docs-writer", goal: "Write docs/usage.md" }]),
        finishPlan("docs written"),
        finishPlan("docs written and reviewed"),
      ],
      "docs-writer": [
        calls({ name: "execute_command", args: { command: "echo hi > pwned.txt" } }),
        calls({ name: "write_file", args: { path: "docs/usage.md", content: "# Usage\n" } }),
        calls({ name: "submit_result", args: { summary: "Wrote docs/usage.md.", findings: [{ source: "docs/usage.md:1", note: "a heading" }] } }),
      ],
      reviewer: [calls({ name: "submit_review", args: { decision: "approve", summary: "docs fine" } })],
    });
    const events = new EventRecorder();
    const graph = compileGraph(
      wireGraphDeps({ models, events, memory: memoryOff, sandbox: { kind: "bubblewrap", reason: "tests" }, prices: DEFAULT_PRICE_TABLE }),
      new MemorySaver(),
      loaded.agents.map(customAgentSpec),
    );
    // Studio's xray view shows the custom agent's inner nodes like the built-in agents'.
    const drawn = Object.keys((await graph.getGraphAsync({ xray: true })).nodes);
    expect(drawn.some((id) => id.startsWith("docs-writer:"))).toBe(true);

    const config = { configurable: { thread_id: "t1" }, recursionLimit: 100 };
    const namespaces = new Set<string>();
    const input = { task: "document the project", workspace: root, limits: DEFAULT_LIMITS, safety: { ...DEFAULT_SAFETY, approval: "auto" as const } };
    for await (const [ns] of await graph.stream(input, { ...config, streamMode: "updates", subgraphs: true })) {
      if (ns.length > 0) namespaces.add(ns[0]?.split(":")[0] ?? "");
    }
    const state = (await graph.getState(config)).values as WorkspaceStateValue;

    // The planner's prompt lists the custom agent beside the built-in ones; an unknown agent went back as a tool error.
    const plannerCalls = models.seen.planner ?? [];
    expect(plannerCalls[0]?.[0]?.text).toContain("- docs-writer: Writes the project's Markdown docs.");
    const refusal = toolMessages(plannerCalls[1] ?? []).map((m) => String(m.content));
    expect(refusal.join("\n")).toContain('does not match any of ["researcher","coder","reviewer","docs-writer"]');

    // It ran under its own namespace, with exactly its tools: execute_command was not available to it.
    expect(namespaces).toContain("docs-writer");
    const runs = models.seen["docs-writer"] ?? [];
    expect(String(runs[0]?.[0]?.content)).toContain("Your tools: read_file, write_file, submit_result.");
    expect(String(runs[0]?.[0]?.content)).toContain("Write short docs in docs/.");
    const results = toolMessages(runs.at(-1) ?? []).map((m) => String(m.content));
    expect(results[0]).toContain('tool "execute_command" is not available to the docs-writer');
    await expect(fs.access(path.join(root, "pwned.txt"))).rejects.toThrow();
    expect(await fs.readFile(path.join(root, "docs/usage.md"), "utf8")).toBe("# Usage\n");

    // Its report reached the planner; its file change was reviewed before the session finished.
    expect(state.status).toBe("done");
    expect(state.plan.map((s) => [s.agent, s.status])).toEqual([
      ["docs-writer", "done"],
      ["reviewer", "done"],
    ]);
    expect(state.findings).toEqual([{ stepId: "s1", source: "docs/usage.md:1", note: "a heading" }]);
    expect(events.events.some((e) => e.type === "step_started" && e.agent === "docs-writer")).toBe(true);
  });
});
