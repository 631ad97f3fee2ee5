import fs from "node:fs/promises";
import path from "node:path";
import { ToolMessage } from "@langchain/core/messages";
import { beforeAll, describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../src/agents/index.js";
import type { SafetyPolicy } from "../../src/core/index.js";
import { requireBubblewrap, useSandboxWorkspace } from "../safety/sandbox/helpers.js";
import { calls, scriptedModels } from "../graph/scripted-models.js";
import { runToEnd } from "./agent-harness.js";

const CHANGE = "echo changed > a.txt; rm -f b.txt; mkdir -p src && echo new > src/new.txt; echo more >> a.txt";

/** The reviewer runs checks through the real bubblewrap sandbox and its commands cannot change the workspace. */
describe("the reviewer's commands see the workspace read-only", () => {
  beforeAll(async () => {
    await requireBubblewrap();
  });
  const workspace = useSandboxWorkspace();

  async function runAs(agent: "reviewer" | "coder", safety: Partial<SafetyPolicy> = {}) {
    const ws = workspace();
    await fs.writeFile(path.join(ws.root, "a.txt"), "original\n");
    await fs.writeFile(path.join(ws.root, "b.txt"), "keep\n");
    await fs.writeFile(path.join(ws.root, "check.test.mjs"), 'import test from "node:test";\ntest("ok", () => {});\n');
    const spec = AGENT_SPECS[agent];
    const finish = agent === "reviewer" ? { decision: "approve", summary: "ok" } : { status: "done", summary: "ok" };
    const models = scriptedModels({
      [agent]: [
        calls({ name: "execute_command", args: { command: CHANGE } }),
        calls({ name: "execute_command", args: { command: "node --test check.test.mjs" } }),
        calls({ name: spec.finishTool.name, args: finish }),
      ],
    });
    const run = await runToEnd(spec, models, {
      workspace: ws.root,
      safety,
      deps: { tools: { sandbox: { kind: "bubblewrap", allowNetwork: false, home: ws.home } } },
    });
    const results = run.final.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
    return { ws, run, results };
  }

  it("refuses every change the reviewer's command tries, while its test runner still passes", async () => {
    const { ws, run, results } = await runAs("reviewer");
    expect(await fs.readFile(path.join(ws.root, "a.txt"), "utf8")).toBe("original\n");
    expect(await fs.readFile(path.join(ws.root, "b.txt"), "utf8")).toBe("keep\n");
    await expect(fs.access(path.join(ws.root, "src"))).rejects.toThrow();
    expect(String(results[0]?.content)).toMatch(/Read-only file system|Device or resource busy/);
    expect(String(results[1]?.content)).toContain("Exit code: 0");
    expect(run.outcome.commands.map((c) => c.exitCode)).toEqual([expect.any(Number), 0]);
    expect(run.outcome.stopReason).toBe("finished");
  });

  it("in ask mode, runs the reviewer's commands without asking: they cannot change anything (issue 38)", async () => {
    const { ws, run } = await runAs("reviewer", { approval: "ask" });
    expect(run.final).not.toHaveProperty("__interrupt__");
    expect(await fs.readFile(path.join(ws.root, "a.txt"), "utf8")).toBe("original\n");
    expect(run.outcome.commands.map((c) => c.exitCode)).toEqual([expect.any(Number), 0]);
  });

  it("in ask mode, asks for the reviewer's commands when the network is on, and always for the coder's", async () => {
    for (const [agent, safety] of [
      ["reviewer", { approval: "ask", allowNetwork: true }],
      ["coder", { approval: "ask" }],
    ] as const) {
      const { run } = await runAs(agent, safety);
      expect((run.final as { __interrupt__?: unknown[] }).__interrupt__, agent).toHaveLength(1);
    }
  });

  it("lets the coder's same command change the workspace", async () => {
    const { ws } = await runAs("coder");
    expect(await fs.readFile(path.join(ws.root, "a.txt"), "utf8")).toBe("changed\nmore\n");
    await expect(fs.access(path.join(ws.root, "b.txt"))).rejects.toThrow();
    expect(await fs.readFile(path.join(ws.root, "src/new.txt"), "utf8")).toBe("new\n");
  });
});
