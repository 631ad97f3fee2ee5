import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCustomAgents } from "../../../src/agents/custom/index.js";
import { makeTempWorkspace, useTempWorkspace } from "../../helpers/temp-workspace.js";

const ws = useTempWorkspace();

async function put(root: string, relative: string, text: string): Promise<void> {
  const file = path.join(root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text, "utf8");
}

/** An environment whose user folders (config and ~/.claude) are empty temporary ones, never the real home. */
async function isolatedEnv(): Promise<{ env: NodeJS.ProcessEnv; home: string; cleanup: () => Promise<void> }> {
  const home = await makeTempWorkspace();
  return { env: { HOME: home.root, XDG_CONFIG_HOME: path.join(home.root, ".config") }, home: home.root, cleanup: home.cleanup };
}

const DOCS_WRITER = `---
name: docs-writer
description: Writes and updates the project's Markdown documentation.
tools: [read_file, list_directory, write_file, edit_file]
model: docs-model-1
---
You write documentation. Keep it short.
`;

describe("loadCustomAgents", () => {
  it("reads the workspace's .mini-cursor/agents files: name, description, tools, model and the body as the prompt", async () => {
    const { env, cleanup } = await isolatedEnv();
    try {
      await put(ws.root, ".mini-cursor/agents/docs-writer.md", DOCS_WRITER);
      const { agents, problems } = loadCustomAgents(ws.root, env);
      expect(problems).toEqual([]);
      expect(agents).toHaveLength(1);
      expect(agents[0]).toMatchObject({
        name: "docs-writer",
        description: "Writes and updates the project's Markdown documentation.",
        tools: ["read_file", "list_directory", "write_file", "edit_file"],
        extraTools: [],
        model: "docs-model-1",
        prompt: "You write documentation. Keep it short.",
        displayPath: path.join(".mini-cursor", "agents", "docs-writer.md"),
        source: "workspace",
      });
    } finally {
      await cleanup();
    }
  });

  it("takes tools as a comma-separated string, without tools gives the read-only tools, and sends mcp__ names to extraTools", async () => {
    const { env, cleanup } = await isolatedEnv();
    try {
      await put(
        ws.root,
        ".mini-cursor/agents/a.md",
        "---\nname: lister\ndescription: Lists.\ntools: read_file, search_code, mcp__github__search_issues, mcp__docs__*\n---\nList.",
      );
      await put(ws.root, ".mini-cursor/agents/b.md", "---\nname: reader_only\ndescription: Reads.\n---\nRead.");
      const { agents, problems } = loadCustomAgents(ws.root, env);
      expect(problems).toEqual([]);
      expect(agents.map((a) => [a.name, a.tools, a.extraTools])).toEqual([
        ["lister", ["read_file", "search_code"], ["mcp__github__search_issues", "mcp__docs__*"]],
        ["reader_only", ["read_file", "list_directory", "search_code"], []],
      ]);
    } finally {
      await cleanup();
    }
  });

  it("maps Claude Code's tool names in .claude/agents and ignores Claude model aliases", async () => {
    const { env, cleanup } = await isolatedEnv();
    try {
      await put(
        ws.root,
        ".claude/agents/test-runner.md",
        "---\nname: test-runner\ndescription: Runs the tests and fixes failures.\ntools: Read, Grep, Glob, LS, Edit, MultiEdit, Write, Bash(npm test:*), TodoWrite\nmodel: sonnet\ncolor: blue\n---\nRun the tests.",
      );
      const { agents, problems } = loadCustomAgents(ws.root, env);
      expect(problems).toEqual([]);
      expect(agents[0]?.source).toBe("workspace-claude");
      expect(new Set(agents[0]?.tools)).toEqual(new Set(["read_file", "search_code", "list_directory", "edit_file", "write_file", "execute_command"]));
      expect(agents[0]?.model).toBeUndefined();
    } finally {
      await cleanup();
    }
  });

  it("reads the user's agents ($XDG_CONFIG_HOME/mini-cursor/agents, ~/.claude/agents); the workspace's win on a shared name", async () => {
    const { env, home, cleanup } = await isolatedEnv();
    try {
      await put(home, ".config/mini-cursor/agents/mine.md", "---\nname: mine\ndescription: The user's own.\n---\nHi.");
      await put(home, ".config/mini-cursor/agents/shared.md", "---\nname: shared\ndescription: user version\n---\nUser.");
      await put(home, ".claude/agents/claude-user.md", "---\nname: claude-user\ndescription: From ~/.claude.\ntools: Read\n---\nHi.");
      await put(ws.root, ".mini-cursor/agents/shared.md", "---\nname: shared\ndescription: workspace version\n---\nWorkspace.");
      const { agents, problems } = loadCustomAgents(ws.root, env);
      expect(problems).toEqual([]);
      expect(agents.map((a) => [a.name, a.source, a.description])).toEqual([
        ["shared", "workspace", "workspace version"],
        ["mine", "user", "The user's own."],
        ["claude-user", "user-claude", "From ~/.claude."],
      ]);
      expect(agents[1]?.displayPath).toBe(path.join(home, ".config", "mini-cursor", "agents", "mine.md"));
    } finally {
      await cleanup();
    }
  });

  it("skips each bad file with one line naming the file and the problem, and keeps the good ones", async () => {
    const { env, cleanup } = await isolatedEnv();
    try {
      const dir = ".mini-cursor/agents";
      await put(ws.root, `${dir}/good.md`, "---\nname: good\ndescription: Fine.\n---\nOk.");
      await put(ws.root, `${dir}/no-frontmatter.md`, "Just text.");
      await put(ws.root, `${dir}/unclosed.md`, "---\nname: x\ndescription: y\n");
      await put(ws.root, `${dir}/bad-yaml.md`, "---\nname: [oops\ndescription: y\n---\n");
      await put(ws.root, `${dir}/no-name.md`, "---\ndescription: y\n---\n");
      await put(ws.root, `${dir}/no-description.md`, "---\nname: nodesc\n---\n");
      await put(ws.root, `${dir}/upper.md`, "---\nname: DocsWriter\ndescription: y\n---\n");
      await put(ws.root, `${dir}/builtin.md`, "---\nname: coder\ndescription: y\n---\n");
      await put(ws.root, `${dir}/reserved.md`, "---\nname: planner\ndescription: y\n---\n");
      await put(ws.root, `${dir}/unknown-tool.md`, "---\nname: typo\ndescription: y\ntools: read_file, raed_file\n---\n");
      await put(ws.root, `${dir}/tools-number.md`, "---\nname: numbers\ndescription: y\ntools: 3\n---\n");
      await put(ws.root, `${dir}/z-duplicate.md`, "---\nname: good\ndescription: again\n---\n");
      const { agents, problems } = loadCustomAgents(ws.root, env);
      expect(agents.map((a) => a.name)).toEqual(["good"]);
      const byFile = Object.fromEntries(problems.map((p) => [/Agent file \S+\/(\S+\.md) skipped/.exec(p)?.[1] ?? p, p]));
      expect(Object.keys(byFile).sort()).toEqual(
        [
          "bad-yaml.md",
          "builtin.md",
          "no-description.md",
          "no-frontmatter.md",
          "no-name.md",
          "reserved.md",
          "tools-number.md",
          "unclosed.md",
          "unknown-tool.md",
          "upper.md",
          "z-duplicate.md",
        ].sort(),
      );
      for (const line of problems) {
        expect(line).not.toContain("\n");
        expect(line).toMatch(/^Agent file \.mini-cursor\/agents\/\S+\.md skipped: .+\.$/);
      }
      expect(byFile["no-frontmatter.md"]).toContain("does not start with a --- frontmatter block");
      expect(byFile["unclosed.md"]).toContain("no closing --- line");
      expect(byFile["bad-yaml.md"]).toContain("not valid YAML");
      expect(byFile["no-name.md"]).toContain("name is missing");
      expect(byFile["no-description.md"]).toContain("description is missing");
      expect(byFile["upper.md"]).toContain('name "DocsWriter" must be lowercase');
      expect(byFile["builtin.md"]).toContain('name "coder" is a built-in agent\'s');
      expect(byFile["reserved.md"]).toContain('name "planner" is reserved');
      expect(byFile["unknown-tool.md"]).toContain('unknown tool "raed_file"');
      expect(byFile["tools-number.md"]).toContain("tools must be a list");
      expect(byFile["z-duplicate.md"]).toContain('agent "good" is already defined in .mini-cursor/agents/good.md');
    } finally {
      await cleanup();
    }
  });

  it("finds nothing (and says nothing) when there are no agent folders", async () => {
    const { env, cleanup } = await isolatedEnv();
    try {
      expect(loadCustomAgents(ws.root, env)).toEqual({ agents: [], problems: [] });
    } finally {
      await cleanup();
    }
  });
});
