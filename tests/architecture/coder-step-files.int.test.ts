import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Session } from "node:inspector/promises";
import { fileURLToPath } from "node:url";
import { Command, MemorySaver } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, EventRecorder } from "../../src/core/index.js";
import { calls, finishPlan, plan, scriptedModels } from "../graph/scripted-models.js";
import { testGraph } from "../graph/wire.js";

/**
 * Issue 37's measure of how the agent runtime is put together: the source files of the agent runtime (`src/agents`
 * and `src/graph`) whose code runs during one coder step, planner → coder → write_file → execute_command with an
 * approval → the report back to the planner, found with V8's precise coverage (functions called during the step, not
 * module loading). On the code issue 37 was filed against (its "about 35"), this count was 29 (32 with the session's
 * final review and report). The services
 * the runtime calls (tools, the command rules, the sandbox, costs) are counted apart, as the whole. docs/architecture.md
 * lists them; this test keeps the counts from growing. Lower the limits when a change brings them down.
 */
const MAX_RUNTIME_FILES = 15;
// 77: the symlink walk that approval and the file tools each had is one module of its own (src/platform/real-path.ts);
// 78: errorCode and errorMessage left the tools' result module for the platform (src/platform/error-info.ts), so that
// the services below the tools can use them; 79: the planner's first turn recalls memories within their wait (issue 40:
// recallInTime in src/memory/types.ts); 80: the file tools' editor layer, which writes through an editor's buffers or
// the disk (src/tools/editor-io.ts, issue 42); 81: which MCP tools each model call offers, for servers too large to
// send whole (src/services/mcp/tool-search.ts, issue 43).
const MAX_FILES = 81;
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");

let root = "";
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mc-step-files-")));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function sourceFile(url: string): string | null {
  const file = url.startsWith("file://") ? fileURLToPath(url) : url;
  return file.startsWith(`${SRC}${path.sep}`) ? path.relative(SRC, file).split(path.sep).join("/") : null;
}

async function oneCoderStep(root: string) {
  const models = scriptedModels({
    // The second answer reads the coder's report; the step ends there (the final review it adds is another step).
    planner: [plan([{ agent: "coder", goal: "add a greeting" }]), finishPlan("done")],
    coder: [
      calls({ name: "write_file", args: { path: "greet.js", content: "export const greet = (n) => `hi ${n}`;\n" } }),
      calls({ name: "execute_command", args: { command: "node -e \"import('./greet.js').then((m) => console.log(m.greet('x')))\"" } }),
      calls({ name: "submit_work", args: { status: "done", summary: "added greet" } }),
    ],
  });
  const graph = testGraph({ models, events: new EventRecorder(), checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "t1" }, recursionLimit: 100, interruptBefore: ["reviewer"] };
  return { graph, config, input: { task: "add a greeting", workspace: root, limits: DEFAULT_LIMITS, safety: { ...DEFAULT_SAFETY, approval: "ask" as const } } };
}

describe("one coder step", () => {
  it(`passes through at most ${MAX_RUNTIME_FILES} files of the agent runtime (${MAX_FILES} of ours in all)`, async () => {
    // A first step loads every module and warms the caches; only the second one is measured.
    const warm = await oneCoderStep(root);
    await warm.graph.invoke(warm.input, warm.config);
    await warm.graph.invoke(new Command({ resume: { decision: "approve" } }), warm.config);

    const session = new Session();
    session.connect();
    try {
      await session.post("Profiler.enable");
      await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
      const { graph, config, input } = await oneCoderStep(root);
      await session.post("Profiler.takePreciseCoverage");
      const paused: unknown = await graph.invoke(input, config);
      expect(paused).toHaveProperty("__interrupt__");
      const final = await graph.invoke(new Command({ resume: { decision: "approve" } }), config);
      // Stopped before the final review the planner added after reading the coder's report.
      expect(final.plan.map((s: { agent: string; status: string }) => `${s.agent}:${s.status}`)).toEqual(["coder:done", "reviewer:in_progress"]);
      const { result } = await session.post("Profiler.takePreciseCoverage");
      const files = new Set<string>();
      for (const script of result) {
        const file = sourceFile(script.url);
        // The first function of a script is its top level (module loading): only the functions it defines count.
        if (file && script.functions.slice(1).some((f) => f.ranges[0] !== undefined && f.ranges[0].count > 0)) files.add(file);
      }
      const sorted = [...files].sort();
      const runtime = sorted.filter((f) => f.startsWith("agents/") || f.startsWith("graph/"));
      // Printed for docs/architecture.md.
      console.log(`coder step: ${runtime.length} runtime files, ${sorted.length} in all\n${sorted.join("\n")}`);
      expect(sorted).toContain("agents/middleware/approval.ts");
      expect(sorted).toContain("tools/write-file.ts");
      expect(runtime.length).toBeLessThanOrEqual(MAX_RUNTIME_FILES);
      expect(sorted.length).toBeLessThanOrEqual(MAX_FILES);
    } finally {
      await session.post("Profiler.stopPreciseCoverage").catch(() => undefined);
      session.disconnect();
    }
  });
});
