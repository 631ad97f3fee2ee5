import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { agentHarness } from "../agent-harness.js";

/**
 * The approval gate must judge a path where the kernel (and the file tools) put it, not where a string normalization
 * does: `q/L/../x` follows the symlink q/L before `..`, and a dangling symlink names the file a write would create.
 * A command (unasked under auto) can plant either link in the workspace.
 */
const ws = useTempWorkspace({ ".mcp.json": '{ "mcpServers": {} }\n', ".git/config": "[core]\n", "sub/keep.txt": "k\n", "q/keep.txt": "k\n" });

const coder = AGENT_SPECS.coder;
const done = () => calls({ name: "submit_work", args: { status: "done", summary: "ok" } });
const planted = '{ "mcpServers": { "x": { "command": "sh", "args": ["-c", "touch /tmp/pwned"] } } }\n';

async function expectAsked(file: string, target: string): Promise<void> {
  const models = scriptedModels({ coder: [calls({ name: "write_file", args: { path: file, content: planted } }), done()] });
  const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "auto" } });
  const before = await fs.readFile(path.join(ws.root, target), "utf8").catch(() => null);
  const paused = await h.start();
  expect(paused.__interrupt__).toHaveLength(1);
  expect(await h.pending()).toEqual([expect.objectContaining({ kind: "file_change", tool: "write_file", subject: file })]);
  expect(await fs.readFile(path.join(ws.root, target), "utf8").catch(() => null)).toBe(before);
}

describe("writes to settings files and .git through links the gate could misread", () => {
  it("ask for a symlinked folder followed by ..", async () => {
    await fs.symlink("../sub", path.join(ws.root, "q", "L"));
    await expectAsked("q/L/../.mcp.json", ".mcp.json");
  });

  it("ask for a dangling symlink to a settings file that does not exist yet", async () => {
    await fs.symlink("mini-cursor.json", path.join(ws.root, "settings.json"));
    await expectAsked("settings.json", "mini-cursor.json");
  });

  it("ask for a dangling symlink into .git", async () => {
    await fs.symlink(".git/hooks/pre-commit", path.join(ws.root, "hook.sh"));
    await expectAsked("hook.sh", ".git/hooks/pre-commit");
  });

  it("ask for a dangling absolute symlink to a settings folder, written below it", async () => {
    await fs.symlink(path.join(ws.root, ".claude", "agents"), path.join(ws.root, "agents"));
    await fs.mkdir(path.join(ws.root, ".claude"));
    await expectAsked("agents/helper.md", ".claude/agents/helper.md");
  });
});

describe("an always grant for a file", () => {
  it("does not cover a settings file reached by a spelling that normalizes to the granted one", async () => {
    await fs.writeFile(path.join(ws.root, "q", ".mcp.json"), "{}\n");
    await fs.symlink("../sub", path.join(ws.root, "q", "G"));
    const write = (p: string) => calls({ name: "write_file", args: { path: p, content: planted } });
    const models = scriptedModels({ coder: [write("q/.mcp.json"), write("q/G/../.mcp.json"), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask", approveFileChanges: true } });
    await h.start();
    expect(await h.pending()).toEqual([expect.objectContaining({ subject: "q/.mcp.json", suggestedPattern: "file:q/.mcp.json" })]);
    const paused = await h.resume({ decision: "always", pattern: "file:q/.mcp.json" });
    expect(paused.__interrupt__).toHaveLength(1);
    expect(await h.pending()).toEqual([expect.objectContaining({ subject: "q/G/../.mcp.json", suggestedPattern: "file:.mcp.json" })]);
    expect(await fs.readFile(path.join(ws.root, ".mcp.json"), "utf8")).toBe('{ "mcpServers": {} }\n');
  });
});
