import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { greetScript, roleOf } from "./task-script.js";

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(greetScript);
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" };
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

const promptChars = (req: ScriptedRequest) => req.messages.reduce((n, m) => n + m.content.length, 0);

describe("long tasks", () => {
  it("refuses a task above 8,000 characters on the command line, pointing to --task-file", async () => {
    const result = await runCli(["run", `Add greet. ${"x".repeat(8_000)}`], { cwd: ws.root, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("mini-cursor: the task is 8,011 characters; above 8,000 put it in a file and use --task-file FILE\n");
  });

  it("takes a 100 KB task from a file: within the prompt budget for the planner, capped for sub-agents, shortened where shown", async () => {
    const task = `Add greet with a test.\n${"Background paragraph about the project. ".repeat(2_600)}END-OF-TASK`;
    expect(task.length).toBeGreaterThan(100_000);
    fs.writeFileSync(path.join(ws.root, "task.md"), task);
    const result = await runCli(["run", "--task-file", "task.md"], { cwd: ws.root, env });
    expect(result.code).toBe(0);
    // Shown shortened: the session header and the final report each carry the start of the task, not 100 KB.
    expect(result.stdout.length).toBeLessThan(8_000);
    expect(result.stdout).not.toContain("END-OF-TASK");
    expect(result.stdout).toMatch(/characters in all\)/);
    const planner = server.requests.filter((r) => roleOf(r) === "planner");
    const agents = server.requests.filter((r) => roleOf(r) !== "planner");
    // The planner's prompt keeps within the default 32k-token budget: the task's start, and read_task for the rest.
    for (const r of planner) {
      expect(promptChars(r)).toBeLessThan(32_000 * 4);
      expect(r.messages.some((m) => m.content.includes("Task (its first"))).toBe(true);
      expect(r.toolNames).toContain("read_task");
    }
    expect(agents.some((r) => r.messages.some((m) => m.content.includes("END-OF-TASK")))).toBe(false);
    expect(Math.max(...agents.map(promptChars))).toBeLessThan(20_000);
    const total = server.requests.reduce((n, r) => n + promptChars(r), 0);
    console.log(`100 KB task: ${server.requests.length} requests, ${Math.round(total / 4)} prompt tokens (chars/4)`);
    const listed = await runCli(["sessions"], { cwd: ws.root, env });
    expect(listed.stdout.split("\n").filter(Boolean)).toHaveLength(2);
    expect(listed.stdout.length).toBeLessThan(400);
  });

  it("gives --json the whole task as given, line breaks included, while the views shorten it", async () => {
    const task = `Add greet with a test.\n\n${"Background paragraph about the project.  ".repeat(50)}END-OF-TASK`;
    fs.writeFileSync(path.join(ws.root, "task.md"), task);
    const result = await runCli(["run", "--task-file", "task.md", "--json"], { cwd: ws.root, env });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; task?: string });
    expect(events.find((e) => e.type === "session_started")?.task).toBe(task);
    const shown = await runCli(["run", "--task-file", "task.md"], { cwd: ws.root, env });
    expect(shown.stdout).toMatch(/^ {2}task: Add greet with a test\. Background .*…$/m);
    expect(shown.stdout).not.toContain("END-OF-TASK");
  });
});
