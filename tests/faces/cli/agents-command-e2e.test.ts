import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";

/** `mini-cursor agents` through the built CLI: built-in and custom agents, their files and tools; bad files fail it. */
let ws: TempWorkspace | null = null;
let home: TempWorkspace | null = null;
beforeEach(async () => {
  ws = await makeTempWorkspace({
    ".mini-cursor/agents/docs-writer.md":
      "---\nname: docs-writer\ndescription: Writes the docs.\ntools: [read_file, write_file, mcp__docs__*]\nmodel: docs-model\n---\nWrite.\n",
    ".claude/agents/test-runner.md": "---\nname: test-runner\ndescription: Runs the tests.\ntools: Read, Bash\n---\nRun.\n",
  });
  home = await makeTempWorkspace({ ".claude/agents/mine.md": "---\nname: mine\ndescription: The user's.\n---\nHi.\n" });
});
afterEach(async () => {
  await ws?.cleanup();
  await home?.cleanup();
});

const run = (args: string[]) => {
  const root = ws?.root ?? "";
  const homeDir = home?.root ?? "";
  return runCli(["agents", ...args], { cwd: root, env: { HOME: homeDir, XDG_CONFIG_HOME: path.join(homeDir, ".config") } });
};

describe("mini-cursor agents (built CLI)", () => {
  it("lists the built-in agents and the custom ones with their source file, tools and model", async () => {
    const result = await run([]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("researcher  (built-in)\n");
    expect(result.stdout).toContain(
      "docs-writer  (.mini-cursor/agents/docs-writer.md)\n  Writes the docs.\n  tools: read_file, write_file, mcp__docs__*; model: docs-model\n",
    );
    expect(result.stdout).toContain("test-runner  (.claude/agents/test-runner.md)\n  Runs the tests.\n  tools: read_file, execute_command\n");
    expect(result.stdout).toContain(`mine  (${path.join(home?.root ?? "", ".claude", "agents", "mine.md")})\n`);

    const json = JSON.parse((await run(["--json"])).stdout) as { agents: { name: string; source: string; tools: string[] }[]; problems: string[] };
    expect(json.agents.map((a) => [a.name, a.source])).toEqual([
      ["researcher", "built-in"],
      ["coder", "built-in"],
      ["reviewer", "built-in"],
      ["docs-writer", "workspace"],
      ["test-runner", "workspace-claude"],
      ["mine", "user-claude"],
    ]);
    expect(json.problems).toEqual([]);
  });

  it("names a bad file and its problem in one line, and exits 1", async () => {
    const { writeFile } = await import("node:fs/promises");
    await writeFile(path.join(ws?.root ?? "", ".mini-cursor/agents/broken.md"), "---\nname: broken\ndescription: x\ntools: Reed\n---\n");
    const result = await run([]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^Agent file \.mini-cursor\/agents\/broken\.md skipped: unknown tool "Reed" \(known: .*\)\.$/m);
    expect(result.stdout).toContain("docs-writer  (.mini-cursor/agents/docs-writer.md)");
  });
});
