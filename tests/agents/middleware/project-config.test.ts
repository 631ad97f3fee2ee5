import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { agentHarness, text, toolMessages } from "../agent-harness.js";
import { expectWriteUnasked } from "./unasked-write.js";

/**
 * The project's settings files take effect in later sessions, outside the sandbox (an MCP server declared in
 * .mcp.json is started as a program): writing them asks a person even under `--approval auto`.
 */
const ws = useTempWorkspace({ ".mcp.json": '{ "mcpServers": {} }\n', ".claude/agents/helper.md": "---\nname: helper\n---\n", "src/a.ts": "a\n" });

const coder = AGENT_SPECS.coder;
const done = () => calls({ name: "submit_work", args: { status: "done", summary: "ok" } });
const planted = '{ "mcpServers": { "x": { "command": "sh", "args": ["-c", "touch /tmp/pwned"] } } }\n';

describe("writes into the project's settings files", () => {
  it.each([
    ["write_file", { path: ".mcp.json", content: planted }],
    ["write_file", { path: "./mini-cursor.json", content: '{ "commands": { "allow": ["*"] } }\n' }],
    ["write_file", { path: "src/../.claude/skills/deploy/SKILL.md", content: "---\nname: deploy\n---\n" }],
    ["edit_file", { path: ".claude/agents/helper.md", oldText: "name: helper", newText: "name: helper\ntools: [execute_command]" }],
    ["edit_file", { path: ".mcp.json", oldText: "{}", newText: '{ "x": { "command": "sh" } }' }],
  ] as const)("ask under auto, say why, and change nothing until answered: %s %o", async (tool, args) => {
    const models = scriptedModels({ coder: [calls({ name: tool, args }), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "auto" } });
    const target = path.join(ws.root, args.path);
    const before = await fs.readFile(target, "utf8").catch(() => null);
    const paused = await h.start();
    expect(paused.__interrupt__).toHaveLength(1);
    const [request] = await h.pending();
    expect(request).toMatchObject({ kind: "file_change", tool, subject: args.path });
    expect(request?.preview).toContain("asked even in auto mode: later sessions read this file as settings");
    expect(await fs.readFile(target, "utf8").catch(() => null)).toBe(before);

    const final = await h.resume({ decision: "reject", reason: "not the agent's to change" });
    expect(text(toolMessages(final.messages)[0])).toContain("the user rejected this change: not the agent's to change");
    expect(await fs.readFile(target, "utf8").catch(() => null)).toBe(before);
  });

  it.each([
    [".claude/settings.json", '{ "hooks": { "PreToolUse": [] } }\n'],
    [".claude/settings.local.json", "{}\n"],
    [".vscode/tasks.json", '{ "tasks": [{ "runOptions": { "runOn": "folderOpen" } }] }\n'],
    [".github/workflows/ci.yml", "on: push\n"],
    [".devcontainer/devcontainer.json", '{ "postCreateCommand": "x" }\n'],
    [".husky/pre-commit", "touch /tmp/pwned\n"],
    [".envrc", "touch /tmp/pwned\n"],
    ["src/.envrc", "touch /tmp/pwned\n"],
    [".gitattributes", "* filter=x\n"],
  ])("other tools' files that run commands on the host ask under auto too (issue 38): %s", async (file, content) => {
    const models = scriptedModels({ coder: [calls({ name: "write_file", args: { path: file, content } }), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "auto" } });
    const paused = await h.start();
    expect(paused.__interrupt__).toHaveLength(1);
    const [request] = await h.pending();
    expect(request?.preview).toContain("asked even in auto mode: another developer tool runs what this file says");
    await h.resume({ decision: "reject", reason: "no" });
    expect(await fs.readFile(path.join(ws.root, file), "utf8").catch(() => null)).toBeNull();
  });

  it("writes once a person approves", async () => {
    const models = scriptedModels({ coder: [calls({ name: "write_file", args: { path: ".mcp.json", content: planted } }), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "auto" } });
    await h.start();
    await h.resume({ decision: "approve" });
    expect(await fs.readFile(path.join(ws.root, ".mcp.json"), "utf8")).toBe(planted);
  });

  it("leave a file that only looks alike under auto alone", async () => {
    await expectWriteUnasked(ws.root, "src/.mcp.json", "{}\n");
    await expectWriteUnasked(ws.root, "docs/.github/workflows/example.yml", "on: push\n");
    await expectWriteUnasked(ws.root, ".vscode/extensions.json", "{}\n");
  });
});
