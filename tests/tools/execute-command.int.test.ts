import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProgressEvent } from "../../src/core/index.js";
import { createExecuteCommandTool } from "../../src/tools/execute-command.js";
import { activeCommandCount, killActiveCommands } from "../../src/services/commands/active-commands.js";
import { isProcessAlive } from "../../src/platform/process-tree.js";
import { callTool, makeWorkspace, type TempWorkspace } from "./helpers.js";

let ws: TempWorkspace;
const pidsToReap: number[] = [];
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  // Should a kill assertion fail, do not leave sleepers behind.
  for (const pid of pidsToReap.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone, as expected.
    }
  }
  await ws.cleanup();
});

async function readPid(file: string): Promise<number> {
  const pid = Number((await fs.readFile(path.join(ws.root, file), "utf8")).trim());
  expect(pid).toBeGreaterThan(1);
  pidsToReap.push(pid);
  return pid;
}

describe("execute_command", () => {
  it("reports exit code 0, duration, output and the artifact", async () => {
    const { content, artifact } = await callTool(createExecuteCommandTool({ root: ws.root }), { command: "echo hello; echo oops >&2" });
    expect(content).toMatch(
      /^\$ echo hello; echo oops >&2\ncwd: \.\nExit code: 0 \(success\)\nDuration: \d+ ms\nOutput \(stdout and stderr together\):\nhello\noops$/,
    );
    expect(artifact.ok).toBe(true);
    expect(artifact.command).toMatchObject({ command: "echo hello; echo oops >&2", cwd: ".", exitCode: 0, timedOut: false });
    expect(artifact.command?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("says plainly when the exit code is nonzero", async () => {
    const { content, artifact } = await callTool(createExecuteCommandTool({ root: ws.root }), { command: "echo failing; exit 3" });
    expect(content).toContain("Exit code: 3. The command FAILED");
    expect(artifact.ok).toBe(false);
    expect(artifact.command?.exitCode).toBe(3);
  });

  it("reports a process killed by a signal", async () => {
    const { content, artifact } = await callTool(createExecuteCommandTool({ root: ws.root }), { command: "kill -9 $$" });
    expect(content).toContain("Killed by signal SIGKILL");
    expect(artifact.command?.exitCode).toBeNull();
  });

  it("runs in a confined cwd and strips a doubled leading cd", async () => {
    await fs.mkdir(path.join(ws.root, "app"));
    const tool = createExecuteCommandTool({ root: ws.root });
    const plain = await callTool(tool, { command: "pwd", cwd: "app" });
    expect(plain.content).toContain(`\n${path.join(ws.root, "app")}`);
    expect(plain.artifact.command?.cwd).toBe("app");
    const doubled = await callTool(tool, { command: "cd app && pwd", cwd: "app" });
    expect(doubled.content).toContain('Note: removed the leading "cd app &&" because cwd is already "app".');
    expect(doubled.content).toContain("$ pwd\n");
    expect(doubled.content).toMatch(new RegExp(`\\n${path.join(ws.root, "app")}$`));
    expect(doubled.artifact.command?.exitCode).toBe(0);
    const semicolon = await callTool(tool, { command: "cd ./app; pwd", cwd: "app" });
    expect(semicolon.content).toContain('removed the leading "cd ./app;"');
    // When app/app exists the cd may be meant, so it is kept.
    await fs.mkdir(path.join(ws.root, "app", "app"));
    const nested = await callTool(tool, { command: "cd app && pwd", cwd: "app" });
    expect(nested.content).not.toContain("removed the leading");
    expect(nested.content).toMatch(new RegExp(`\\n${path.join(ws.root, "app", "app")}$`));
  });

  it("refuses a cwd outside the workspace or missing", async () => {
    await fs.symlink(ws.outside, path.join(ws.root, "link-dir"));
    const tool = createExecuteCommandTool({ root: ws.root });
    for (const cwd of ["..", "link-dir", ws.outside]) {
      const { content, artifact } = await callTool(tool, { command: "pwd", cwd });
      expect(content).toMatch(/^Error: cwd: path .* outside the workspace/);
      expect(artifact.ok).toBe(false);
    }
    expect((await callTool(tool, { command: "pwd", cwd: "nope" })).content).toMatch(/^Error: cwd "nope" is not an existing folder/);
  });

  it("keeps the head and tail of long output", async () => {
    const tool = createExecuteCommandTool({ root: ws.root, outputLimitChars: 1000 });
    const { content } = await callTool(tool, { command: "seq 1 20000" });
    expect(content).toContain("Output (stdout and stderr together):\n1\n2\n3\n");
    expect(content).toMatch(/\n\[\.\.\. \d+ characters omitted \.\.\.\]\n/);
    expect(content).toMatch(/\n19999\n20000$/);
    expect(content).toContain("only its beginning and end are shown");
    expect(content.length).toBeLessThan(1600);
  });

  it("streams output as command_output events", async () => {
    const events: ProgressEvent[] = [];
    const tool = createExecuteCommandTool({ root: ws.root, emit: (e) => events.push(e) });
    await callTool(tool, { command: "echo one; sleep 0.1; echo two >&2" });
    expect(events).toEqual([
      { type: "command_output", stream: "stdout", chunk: "one\n" },
      { type: "command_output", stream: "stderr", chunk: "two\n" },
    ]);
  });

  it("removes secrets from the environment and sets CI and NO_COLOR", async () => {
    const tool = createExecuteCommandTool(
      { root: ws.root },
      {
        parentEnv: {
          PATH: process.env.PATH,
          OPENAI_API_KEY: "sk-fake-123",
          CHROMA_TOKEN: "chroma-tok-456",
          CHROMA_URL: "http://chroma:8000",
          SAFE_VAR: "visible",
        },
      },
    );
    const { content } = await callTool(tool, { command: "env" });
    expect(content).not.toContain("sk-fake-123");
    expect(content).not.toContain("OPENAI_API_KEY");
    expect(content).not.toContain("chroma-tok-456");
    expect(content).not.toContain("CHROMA_");
    expect(content).toContain("SAFE_VAR=visible");
    expect(content).toContain("CI=1");
    expect(content).toContain("NO_COLOR=1");
  });

  it("times out and kills the whole process tree, including setsid escapees", async () => {
    const tool = createExecuteCommandTool({ root: ws.root });
    const { content, artifact } = await callTool(tool, {
      command: "sleep 300 & echo $! > bg.pid; (setsid sleep 300 & echo $! > sid.pid); echo started; sleep 300",
      timeoutSeconds: 1,
    });
    expect(content).toContain("Timed out after 1.0 s: the command and all processes it started were killed.");
    expect(content).toContain("started");
    expect(artifact.ok).toBe(false);
    expect(artifact.command).toMatchObject({ timedOut: true, exitCode: null });
    expect(isProcessAlive(await readPid("bg.pid"))).toBe(false);
    expect(isProcessAlive(await readPid("sid.pid"))).toBe(false);
  });

  it("escalates to SIGKILL when SIGTERM is ignored", async () => {
    const tool = createExecuteCommandTool({ root: ws.root });
    const { artifact } = await callTool(tool, { command: "trap '' TERM; echo $$ > main.pid; while true; do sleep 0.05; done", timeoutSeconds: 0.5 });
    expect(artifact.command?.timedOut).toBe(true);
    expect(isProcessAlive(await readPid("main.pid"))).toBe(false);
  });

  it("does not wait for background children after a normal exit, and kills them", async () => {
    const tool = createExecuteCommandTool({ root: ws.root });
    const { content, artifact } = await callTool(tool, {
      command: "sleep 300 & echo $! > bg.pid; (setsid sleep 300 & echo $! > sid.pid); echo done",
    });
    expect(artifact.command).toMatchObject({ exitCode: 0, timedOut: false });
    expect(content).toMatch(/Note: [23] background process\(es\) the command left running were killed/);
    expect(isProcessAlive(await readPid("bg.pid"))).toBe(false);
    expect(isProcessAlive(await readPid("sid.pid"))).toBe(false);
  });

  it("stops running commands when the session is interrupted (killActiveCommands)", async () => {
    const tool = createExecuteCommandTool({ root: ws.root });
    const pending = callTool(tool, { command: "sleep 300 & echo $! > bg.pid; sleep 300" });
    const pidWritten = () =>
      fs.readFile(path.join(ws.root, "bg.pid"), "utf8").then(
        (t) => t.endsWith("\n"),
        () => false,
      );
    while (activeCommandCount() === 0 || !(await pidWritten())) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(killActiveCommands()).toBe(1);
    const { content, artifact } = await pending;
    expect(content).toContain("Killed by signal SIGTERM");
    expect(artifact.ok).toBe(false);
    expect(isProcessAlive(await readPid("bg.pid"))).toBe(false);
    expect(activeCommandCount()).toBe(0);
  });

  it("caps timeoutSeconds at the maximum", async () => {
    const tool = createExecuteCommandTool({ root: ws.root, maxCommandTimeoutMs: 2000 });
    const { content } = await callTool(tool, { command: "true", timeoutSeconds: 999 });
    expect(content).toContain("Note: timeoutSeconds 999 is above the maximum; used 2.");
  });
});
