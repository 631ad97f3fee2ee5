import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, toolResults, type ScriptedReply, type ScriptedRequest, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { runCli } from "../faces/cli/cli-process.js";
import { roleOf } from "../faces/cli/task-script.js";

/**
 * The built CLI under `--approval auto`, against a scripted model whose coder tries to write where it must not:
 * mini-cursor's own state (the session database) and git's hooks. Real processes, real files.
 */
let server: ScriptedServer | null = null;
let ws: TempWorkspace | null = null;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
  server = null;
  ws = null;
});

/** The planner plans one coder step; the coder makes `writes` one after another, then reports what came back. */
function writeScript(writes: { path: string; content: string }[]) {
  return (req: ScriptedRequest): ScriptedReply => {
    const role = roleOf(req);
    const text = req.messages
      .filter((m) => m.role === "user")
      .map((m) => m.content)
      .join("\n");
    if (role === "planner") {
      return text.includes("There is no plan yet")
        ? { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal: "Write the files" }], finished: false } }] }
        : { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Done." } }] };
    }
    if (role === "coder") {
      const done = toolResults(req);
      const next = writes[done.length];
      if (next) return { toolCalls: [{ name: "write_file", args: next }] };
      return { toolCalls: [{ name: "submit_work", args: { status: "done", summary: done.map((d) => d.content.split("\n")[0]).join(" / ") } }] };
    }
    return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "ok" } }] };
  };
}

async function setup(writes: { path: string; content: string }[], files: Record<string, string> = {}) {
  server = await startScriptedOpenAIServer(writeScript(writes));
  ws = await makeTempWorkspace({ "package.json": "{}\n", ...files });
  return { server, root: ws.root, env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" } };
}

describe("the agent's own state and git's internals (built CLI, --approval auto)", () => {
  it("refuses a write over the session database; the session finishes and the database still works", async () => {
    const { server, root, env } = await setup([
      { path: ".mini-cursor/sessions.sqlite", content: "garbage" },
      { path: ".mini-cursor/locks/planted.lock", content: "{}" },
      { path: "notes.txt", content: "fine\n" },
    ]);
    const run = await runCli(["run", "--approval", "auto", "Write the files"], { cwd: root, env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const coder = server.requests.filter((r) => roleOf(r) === "coder").at(-1);
    const results = coder ? toolResults(coder).map((r) => r.content) : [];
    expect(results[0]).toMatch(/is inside \.mini-cursor\/, mini-cursor's own state/);
    expect(results[1]).toMatch(/is inside \.mini-cursor\/, mini-cursor's own state/);
    expect(await fs.readFile(path.join(root, "notes.txt"), "utf8")).toBe("fine\n");
    await expect(fs.access(path.join(root, ".mini-cursor/locks/planted.lock"))).rejects.toThrow();
    const sessions = await runCli(["sessions", "--json"], { cwd: root, env });
    expect(sessions.code).toBe(0);
    expect(JSON.parse(sessions.stdout)).toEqual([expect.objectContaining({ status: "done" })]);
    const diff = await runCli(["diff"], { cwd: root, env });
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain("notes.txt");
  });

  it("asks before writing a git hook even under auto; with nobody to answer, nothing is written and the session waits", async () => {
    const { root, env } = await setup([{ path: ".git/hooks/pre-commit", content: "#!/bin/sh\necho pwned\n" }], { ".git/hooks/README": "hooks\n" });
    const run = await runCli(["run", "--json", "--approval", "auto", "Write the files"], { cwd: root, env });
    expect(run.code).toBe(130);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; kind?: string; subject?: string; status?: string });
    expect(events.filter((e) => e.type === "approval_requested")).toEqual([expect.objectContaining({ kind: "file_change", subject: ".git/hooks/pre-commit" })]);
    expect(events.at(-1)).toMatchObject({ type: "session_finished", status: "awaiting_approval" });
    await expect(fs.access(path.join(root, ".git/hooks/pre-commit"))).rejects.toThrow();
  });
});
