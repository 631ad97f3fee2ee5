import { describe, expect, it } from "vitest";
import { createExecuteCommandTool } from "../../../src/tools/execute-command.js";
import { callTool } from "../../tools/helpers.js";
import { runSandboxed, useSandboxWorkspace } from "./helpers.js";

const ws = useSandboxWorkspace();

describe("execute_command with the bubblewrap sandbox", () => {
  it("tells the model about the sandbox in its description", () => {
    const offline = createExecuteCommandTool({ root: ws().root, sandbox: { kind: "bubblewrap", allowNetwork: false } });
    expect(offline.description).toContain("Commands run in a sandbox");
    expect(offline.description).toContain("there is no network access");
    const online = createExecuteCommandTool({ root: ws().root, sandbox: { kind: "bubblewrap", allowNetwork: true } });
    expect(online.description).toContain("network access is allowed");
    for (const deps of [{ root: ws().root }, { root: ws().root, sandbox: { kind: "none" as const } }]) {
      expect(createExecuteCommandTool(deps).description).not.toContain("sandbox");
    }
  });

  it("reports a command killed by a signal as 128 + its number, with a note", async () => {
    const { content, artifact } = await runSandboxed(ws(), "kill -9 $$");
    expect(artifact.command?.exitCode).toBe(137);
    expect(content).toContain("Exit code: 137. The command FAILED");
    expect(content).toContain("137 usually means SIGKILL");
    expect(content).toContain("(no output)");
  });

  it("tells the model which background processes were killed, as without a sandbox", async () => {
    const { content } = await runSandboxed(ws(), "sleep 3051 & sleep 3052 & echo started");
    expect(content).toContain("Note: 2 background process(es) the command left running were killed");
  });

  it("says so when bubblewrap is missing", async () => {
    const tool = createExecuteCommandTool({ root: ws().root, sandbox: { kind: "bubblewrap", allowNetwork: false, bwrapPath: "/nonexistent/bwrap" } });
    const { content, artifact } = await callTool(tool, { command: "true" });
    expect(artifact.ok).toBe(false);
    expect(content).toMatch(/^Error: the command could not be started \(.*ENOENT.*\)\. Check that bubblewrap is installed/);
  });
});
