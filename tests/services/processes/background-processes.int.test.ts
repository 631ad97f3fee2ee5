import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { ProgressEvent } from "../../../src/core/index.js";
import { createExecuteCommandTool } from "../../../src/tools/execute-command.js";
import { BackgroundProcesses } from "../../../src/services/processes/background-processes.js";
import { SessionNetwork } from "../../../src/safety/sandbox/session-network.js";
import { createListProcessesTool, createReadProcessOutputTool, createStopProcessTool, createWaitForProcessTool } from "../../../src/tools/process-tools.js";
import { createStartProcessTool } from "../../../src/tools/start-process.js";
import type { ToolDeps } from "../../../src/tools/types.js";
import { freePort } from "../../helpers/free-port.js";
import { fetchCommand, processesWithCommandLine, useSandboxWorkspace, type BubblewrapSandbox } from "../../safety/sandbox/helpers.js";
import { callTool } from "../../tools/helpers.js";

const workspace = useSandboxWorkspace();
let registry: BackgroundProcesses | undefined;
afterEach(async () => {
  // Stopped even when an assertion failed.
  await registry?.stopAll();
  registry = undefined;
});

/** A tiny HTTP server on `port` that says "listening" once it is. */
function serverCommand(port: number, tag: string, body = "pong"): string {
  const script = `/* ${tag} */ require("http").createServer((q, s) => s.end(${JSON.stringify(body)} + q.url)).listen(${port}, "127.0.0.1", () => console.log("listening on ${port}"))`;
  return `"${process.execPath}" -e '${script}'`;
}

function setup(sandboxOverrides: Partial<BubblewrapSandbox> = {}, network?: SessionNetwork) {
  const ws = workspace();
  const events: ProgressEvent[] = [];
  registry = new BackgroundProcesses({ emit: (e) => events.push(e), ...(network ? { network } : {}) });
  const sandbox: BubblewrapSandbox = { kind: "bubblewrap", allowNetwork: false, home: ws.home, ...sandboxOverrides };
  const deps: ToolDeps = { root: ws.root, sandbox, processes: registry };
  const env = { parentEnv: { ...process.env, SANDBOX_TEST_TOKEN: ws.token } };
  return {
    ws,
    events,
    registry,
    start: (args: Record<string, unknown>) => callTool(createStartProcessTool(deps, env), args),
    wait: (args: Record<string, unknown>) => callTool(createWaitForProcessTool(deps), args),
    read: (args: Record<string, unknown>) => callTool(createReadProcessOutputTool(deps), args),
    stop: (args: Record<string, unknown>) => callTool(createStopProcessTool(deps), args),
    list: () => callTool(createListProcessesTool(deps), {}),
    exec: (command: string) => callTool(createExecuteCommandTool(deps, env), { command, timeoutSeconds: 30 }),
  };
}

function hostPortAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

describe("background processes in the sandbox", () => {
  it("a server started in the background is reached by a later command over the session's loopback, and is gone once stopped", async () => {
    const t = setup();
    const port = await freePort();
    const started = await t.start({ command: serverCommand(port, t.ws.token), name: "web" });
    expect(started.artifact.ok, started.content).toBe(true);
    expect(started.content).toContain('State: running (id p1, name "web")');

    const ready = await t.wait({ process: "web", port, timeoutSeconds: 20 });
    expect(ready.artifact.ok, ready.content).toBe(true);
    expect(ready.content).toMatch(/^Ready after [\d.]+ s: port \d+ answers\./);

    const fetched = await t.exec(fetchCommand(`http://127.0.0.1:${port}/health`));
    expect(fetched.content).toContain("BODY:pong/health");
    // The session's loopback is its own: the host does not see the server, and the outside stays unreachable.
    expect(await hostPortAnswers(port)).toBe(false);
    const outside = await t.exec(fetchCommand("http://192.0.2.1:80/"));
    expect(outside.content).toContain("FETCH FAILED");

    const listed = await t.list();
    expect(listed.content).toMatch(/p1 "web": running; `.*` in \./);
    expect(processesWithCommandLine(t.ws.token).length).toBeGreaterThan(0);
    const stopped = await t.stop({ process: "web" });
    expect(stopped.content).toContain('Stopped "web" (p1)');
    expect(processesWithCommandLine(t.ws.token)).toEqual([]);
    const after = await t.exec(fetchCommand(`http://127.0.0.1:${port}/`));
    expect(after.content).toContain("FETCH FAILED: ECONNREFUSED");
    expect(t.events.filter((e) => e.type === "background_process").map((e) => e.type === "background_process" && e.state)).toEqual([
      "started",
      "ready",
      "stopped",
    ]);
  }, 60_000);

  it("waits for an output line, reads output since the last read, and reports an exit on its own", async () => {
    const t = setup();
    const started = await t.start({ command: 'echo booting; sleep 1; echo "ready now"; sleep 1; echo bye; exit 4' });
    expect(started.artifact.ok, started.content).toBe(true);
    const ready = await t.wait({ process: "p1", pattern: "^ready", timeoutSeconds: 20 });
    expect(ready.content, ready.content).toContain("Ready after");
    expect(ready.content).toContain("output line: ready now");
    const exited = await t.wait({ process: "p1", pattern: "never printed", timeoutSeconds: 20 });
    expect(exited.artifact.ok).toBe(false);
    expect(exited.content).toContain("NOT READY: the process ended before a line matching /never printed/");
    expect(exited.content).toContain("EXITED on its own, exit code 4");
    expect(exited.content).toContain("bye");
    const again = await t.read({ process: "p1" });
    expect(again.content).toContain("(no output yet)");
  }, 60_000);

  it("a server that never becomes ready times out with a clear result and keeps running until stopped", async () => {
    const t = setup();
    const port = await freePort();
    await t.start({ command: `echo starting; sleep 600; : ${t.ws.token}`, name: "slow" });
    const before = performance.now();
    const waited = await t.wait({ process: "slow", port, pattern: "listening", timeoutSeconds: 1.5 });
    const took = performance.now() - before;
    expect(waited.artifact.ok).toBe(false);
    expect(waited.content).toMatch(/^Error: NOT READY: timed out after [\d.]+ s waiting for a line matching \/listening\/ or port \d+ answering\./);
    expect(waited.content).toContain("State: running");
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(6000);
    expect(processesWithCommandLine(t.ws.token).length).toBeGreaterThan(0);
    const all = await t.registry.stopAll();
    expect(all.map((p) => p.state)).toEqual(["stopped"]);
    expect(processesWithCommandLine(t.ws.token)).toEqual([]);
  }, 60_000);

  it("tells the model about bad input and unknown processes, and a command that fails at once", async () => {
    const t = setup();
    expect((await t.wait({ process: "p9", port: 80 })).content).toContain('no background process "p9"');
    const failed = await t.start({ command: "echo nope >&2; exit 3" });
    expect(failed.artifact.ok).toBe(false);
    expect(failed.content).toContain("The process ended right after it started");
    expect(failed.content).toContain("exit code 3");
    expect(failed.content).toContain("nope");
    expect((await t.wait({ process: "p1" })).content).toContain("give a pattern");
    expect((await t.wait({ process: "p1", pattern: "(" })).content).toContain("not a valid regular expression");
    expect((await t.start({ command: "sleep 5", cwd: "../outside" })).content).toMatch(/^Error: cwd:/);
  }, 60_000);

  it("refuses with a clear reason when the shared loopback cannot be had, and starts nothing", async () => {
    const t = setup({}, new SessionNetwork({ nsenterPath: "/nonexistent/nsenter" }));
    const refused = await t.start({ command: `sleep 60; : ${t.ws.token}` });
    expect(refused.artifact.ok).toBe(false);
    expect(refused.content).toMatch(
      /^Error: background processes need the session's shared loopback network, which is not available here: util-linux nsenter is not available/,
    );
    expect(processesWithCommandLine(t.ws.token)).toEqual([]);
    expect(t.registry.list()).toEqual([]);
    // With the network allowed there is nothing to share: the host's loopback is the processes' and the commands'.
    const open = setup({ allowNetwork: true }, new SessionNetwork({ nsenterPath: "/nonexistent/nsenter" }));
    const port = await freePort();
    expect((await open.start({ command: serverCommand(port, open.ws.token) })).artifact.ok).toBe(true);
    expect((await open.wait({ process: "p1", port, timeoutSeconds: 20 })).content).toContain("Ready after");
    expect(await hostPortAnswers(port)).toBe(true);
    await open.registry.stopAll();
    expect(await hostPortAnswers(port)).toBe(false);
  }, 60_000);
});
