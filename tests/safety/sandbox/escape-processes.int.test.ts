import { promises as fs } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createExecuteCommandTool } from "../../../src/tools/execute-command.js";
import { callTool } from "../../tools/helpers.js";
import { makeSandboxWorkspace, processesWithCommandLine, processesWithToken, requireBubblewrap, runSandboxed, type SandboxWorkspace } from "./helpers.js";

let ws: SandboxWorkspace;
beforeAll(async () => {
  await requireBubblewrap();
});
beforeEach(async () => {
  ws = await makeSandboxWorkspace();
});
afterEach(async () => {
  // Should an assertion fail, leave nothing running behind.
  for (const pid of processesWithToken(ws.token)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone.
    }
  }
  await ws.cleanup();
});

describe("bubblewrap sandbox: processes", () => {
  it("leaves nothing running after the command returns, setsid and background loops included", async () => {
    // Unusual sleep lengths name these processes on the host.
    const { content, artifact } = await runSandboxed(
      ws,
      [
        "setsid sleep 3011 &",
        "(setsid bash -c 'while :; do date +%s%N > heartbeat; sleep 0.05; done' &)",
        "nohup sleep 3012 > /dev/null 2>&1 &",
        "env -i /bin/sleep 3013 &",
        "while [ ! -s heartbeat ]; do sleep 0.01; done",
        "echo started",
      ].join("\n"),
    );
    expect(artifact.command?.exitCode).toBe(0);
    expect(content).toMatch(/Output \(stdout and stderr together\):\nstarted$/);
    expect(content).toMatch(/Note: \d+ background process\(es\) the command left running were killed/);
    // Checked once the call has returned: nothing of the command is left on the host.
    expect(processesWithToken(ws.token)).toEqual([]);
    for (const text of ["sleep 3011", "sleep 3012", "sleep 3013", "heartbeat"]) expect(processesWithCommandLine(text)).toEqual([]);
    const beat = await fs.readFile(path.join(ws.root, "heartbeat"), "utf8");
    // The loop wrote every 50 ms; were it alive, this pause would see a newer beat.
    await sleep(500);
    expect(await fs.readFile(path.join(ws.root, "heartbeat"), "utf8")).toBe(beat);
  });

  it("kills the whole sandbox on timeout", async () => {
    const tool = createExecuteCommandTool(
      { root: ws.root, sandbox: { kind: "bubblewrap", allowNetwork: false, home: ws.home } },
      { parentEnv: { ...process.env, SANDBOX_TEST_TOKEN: ws.token } },
    );
    const { content, artifact } = await callTool(tool, { command: "setsid sleep 3021 & echo $! > pid; sleep 3022", timeoutSeconds: 1 });
    expect(artifact.command?.timedOut).toBe(true);
    expect(content).toContain("Timed out after 1.0 s");
    expect(processesWithToken(ws.token)).toEqual([]);
    expect(processesWithCommandLine("sleep 302")).toEqual([]);
  });
});
