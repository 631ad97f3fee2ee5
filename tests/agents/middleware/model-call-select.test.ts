import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { WEB_DEFAULTS } from "../../../src/platform/config/index.js";
import { DEFAULT_SAFETY } from "../../../src/core/index.js";
import type { ExtensionTool, ExtensionTools } from "../../../src/services/mcp/types.js";
import { memoryOff, type MemoryStore } from "../../../src/memory/types.js";
import { createSkillLibrary } from "../../../src/services/skills/index.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { makeSkillPlaces, skillMarkdown, writeSkill } from "../../services/skills/skill-fixtures.js";
import { agentHarness, runToEnd } from "../agent-harness.js";

/**
 * The model-select wrap picks, for every model call, the agent's own model and the tools this run offers. What the
 * model was offered is read from the scripted model itself (the tools bound for each call).
 */
const ws = useTempWorkspace({ "a.txt": "a\n" });
const { coder, researcher, reviewer } = AGENT_SPECS;
const read = () => calls({ name: "read_file", args: { path: "a.txt" } });
const submitWork = () => calls({ name: "submit_work", args: { status: "done", summary: "ok" } });
const submitFindings = () => calls({ name: "submit_findings", args: { summary: "ok", findings: [] } });
const submitReview = () => calls({ name: "submit_review", args: { decision: "approve", summary: "ok" } });

const CODER_TOOLS = ["read_file", "list_directory", "search_code", "write_file", "edit_file", "execute_command", "submit_work", "ask_user"];
const CODER_READ_ONLY = ["read_file", "list_directory", "search_code", "submit_work", "ask_user"];

const memoryOn: MemoryStore = { ...memoryOff, enabled: true };

const mcpTool = (name: string, readOnly: boolean): ExtensionTool => ({
  name,
  description: name,
  inputSchema: { type: "object" },
  readOnly,
  server: "srv",
  original: name,
});

/** The session's MCP tools for `workspace`: none for `startMs` (a server still starting), then `tools`. */
function extensionsStarting(workspace: string, tools: ExtensionTool[], startMs: number): ExtensionTools {
  let up = false;
  const started = new Promise<void>((resolve) =>
    setTimeout(() => {
      up = true;
      resolve();
    }, startMs),
  );
  const list = (ws: string) => (up && ws === workspace ? tools : []);
  return {
    ready: () => started,
    list,
    find: (ws, name) => list(ws).find((t) => t.name === name),
    call: () => Promise.resolve({ ok: true, text: "" }),
  };
}

describe("model-select middleware", () => {
  it("calls the agent's own model, offering its tools, its finish tool and ask_user at every call", async () => {
    const models = scriptedModels({ coder: [read(), submitWork()], reviewer: [submitReview()] });
    const { outcome } = await runToEnd(coder, models, { workspace: ws.root });
    expect(outcome.stopReason).toBe("finished");
    expect(models.offered.coder).toEqual([CODER_TOOLS, CODER_TOOLS]);
    expect(models.seen.reviewer).toBeUndefined();

    const review = await runToEnd(reviewer, models, { workspace: ws.root });
    expect(review.outcome.stopReason).toBe("finished");
    expect(models.offered.reviewer).toEqual([["read_file", "list_directory", "search_code", "execute_command", "submit_review", "ask_user"]]);
  });

  it("offers nothing that changes files or runs commands in read-only mode, but still ask_user", async () => {
    const models = scriptedModels({ coder: [submitWork()], reviewer: [submitReview()] });
    await runToEnd(coder, models, { workspace: ws.root, safety: { approval: "read-only" } });
    expect(models.offered.coder).toEqual([CODER_READ_ONLY]);
    await runToEnd(reviewer, models, { workspace: ws.root, safety: { approval: "read-only" } });
    expect(models.offered.reviewer).toEqual([["read_file", "list_directory", "search_code", "submit_review", "ask_user"]]);
  });

  it("takes the mode from the run's context as given now (a resumed or Studio run)", async () => {
    const models = scriptedModels({ coder: [submitWork()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "auto" } });
    h.config.context = { ...h.context, safety: { ...DEFAULT_SAFETY, approval: "read-only" } };
    await h.start();
    expect(models.offered.coder).toEqual([CODER_READ_ONLY]);
  });

  it("offers memory_search only while memory is on, the web tools only while the web is on", async () => {
    const models = scriptedModels({ researcher: [submitFindings(), submitFindings(), submitFindings()] });
    await runToEnd(researcher, models, { workspace: ws.root });
    await runToEnd(researcher, models, { workspace: ws.root, deps: { memory: memoryOn, tools: { web: WEB_DEFAULTS } } });
    const searxng = { provider: "searxng" as const, url: "http://127.0.0.1:8888", maxResults: 8 };
    await runToEnd(researcher, models, { workspace: ws.root, deps: { tools: { web: { ...WEB_DEFAULTS, search: searxng } } } });
    expect(models.offered.researcher).toEqual([
      ["read_file", "list_directory", "search_code", "submit_findings", "ask_user"],
      ["read_file", "list_directory", "search_code", "memory_search", "fetch_url", "submit_findings", "ask_user"],
      ["read_file", "list_directory", "search_code", "fetch_url", "web_search", "submit_findings", "ask_user"],
    ]);
  });

  it("offers load_skill only in a workspace that has skills", async () => {
    const places = await makeSkillPlaces();
    try {
      await writeSkill(path.join(places.workspace, ".mini-cursor", "skills"), "release", skillMarkdown("release", "Write release notes."));
      const skills = createSkillLibrary(places.env, () => undefined);
      const models = scriptedModels({ coder: [submitWork(), submitWork()] });
      await runToEnd(coder, models, { workspace: places.workspace, deps: { tools: { skills } } });
      await runToEnd(coder, models, { workspace: ws.root, deps: { tools: { skills } } });
      expect(models.offered.coder?.[0]).toContain("load_skill");
      expect(models.offered.coder?.[1]).toEqual(CODER_TOOLS);
    } finally {
      await places.cleanup();
    }
  });

  it("waits for the workspace's MCP servers, then offers the coder every MCP tool and the others only read-only ones", async () => {
    const tools = [mcpTool("mcp__srv__lookup", true), mcpTool("mcp__srv__deploy", false)];
    const models = scriptedModels({ coder: [submitWork(), submitWork()], reviewer: [submitReview()] });
    const extensions = extensionsStarting(ws.root, tools, 100);
    // The first call already has them: the server was waited for.
    await runToEnd(coder, models, { workspace: ws.root, deps: { extensions } });
    await runToEnd(reviewer, models, { workspace: ws.root, deps: { extensions } });
    await runToEnd(coder, models, { workspace: ws.root, deps: { extensions }, safety: { approval: "read-only" } });
    expect(models.offered.coder).toEqual([
      [...CODER_TOOLS.slice(0, -1), "mcp__srv__lookup", "mcp__srv__deploy", "ask_user"],
      [...CODER_READ_ONLY.slice(0, -1), "mcp__srv__lookup", "ask_user"],
    ]);
    expect(models.offered.reviewer).toEqual([
      ["read_file", "list_directory", "search_code", "execute_command", "submit_review", "mcp__srv__lookup", "ask_user"],
    ]);
  });
});
