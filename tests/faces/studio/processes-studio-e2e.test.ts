/**
 * Background processes under `langgraph dev`, as in the CLI: the coder starts a server with start_process, a later
 * command reaches it over the thread's loopback, the reviewer of the same thread sees it; the thread's processes stop
 * once it has been idle (MINI_CURSOR_STUDIO_PROCESS_IDLE, short here), since a server run has no session end.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { freePort } from "../../helpers/free-port.js";
import { startScriptedOpenAIServer, toolResults, type ScriptedReply, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { roleOf } from "../cli/task-script.js";
import { fetchCommand, processesWithCommandLine } from "../../safety/sandbox/helpers.js";
import { runOnNewThread, startDevServer, type DevServer } from "./dev-server.js";

const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const READY_TIMEOUT_MS = 75_000;
const RUN_TIMEOUT_MS = 60_000;
const IDLE_SECONDS = 3;

const tag = `studio-bg-${randomUUID()}`;
let port = 0;

function script(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  const done = toolResults(req).length;
  if (role === "planner") {
    const context = req.messages
      .filter((m) => m.role === "user")
      .map((m) => m.content)
      .join("\n");
    return context.includes("There is no plan yet")
      ? { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal: "Run the server and check it" }], finished: false } }] }
      : { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "The server answers." } }] };
  }
  if (role === "coder") {
    const server = `/* ${tag} */ require("http").createServer((q, s) => s.end("up" + q.url)).listen(${port}, "127.0.0.1")`;
    const steps = [
      { name: "start_process", args: { command: `"${process.execPath}" -e '${server}'`, name: "web" } },
      { name: "wait_for_process", args: { process: "web", port, timeoutSeconds: 20 } },
      { name: "execute_command", args: { command: fetchCommand(`http://127.0.0.1:${port}/coder`) } },
      { name: "submit_work", args: { status: "done", summary: "The server answers." } },
    ];
    return { toolCalls: [steps[Math.min(done, steps.length - 1)]!] };
  }
  if (role === "reviewer") {
    const steps = [
      { name: "list_processes", args: {} },
      { name: "submit_review", args: { decision: "approve", summary: "It runs." } },
    ];
    return { toolCalls: [steps[Math.min(done, steps.length - 1)]!] };
  }
  return { content: "Nothing to do." };
}

let model: ScriptedServer | undefined;
let server: DevServer | undefined;
let workspace: TempWorkspace | undefined;
let configHome = "";

beforeAll(async () => {
  port = await freePort();
  model = await startScriptedOpenAIServer(script);
  workspace = await makeTempWorkspace({ "README.md": "# demo\n" });
  configHome = await mkdtemp(path.join(os.tmpdir(), "mc-studio-config-"));
  server = await startDevServer({
    repoRoot: REPO_ROOT,
    readyTimeoutMs: READY_TIMEOUT_MS,
    env: { MINI_CURSOR_MEMORY: "off", XDG_CONFIG_HOME: configHome, MINI_CURSOR_STUDIO_PROCESS_IDLE: String(IDLE_SECONDS) },
  });
}, READY_TIMEOUT_MS + 15_000);

afterAll(async () => {
  const results = await Promise.allSettled([server?.stop(), model?.close(), workspace?.cleanup(), rm(configHome, { recursive: true, force: true })]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}, 30_000);

describe("background processes in Studio (langgraph dev)", () => {
  it(
    "starts a server the coder's command reaches and the reviewer lists, then stops it once the thread is idle",
    async () => {
      if (!server || !model || !workspace) throw new Error("beforeAll did not finish");
      const dev = server;
      onTestFailed(() => console.error(`langgraph dev output (last lines):\n${dev.logTail()}`));
      const state = await runOnNewThread(dev, { workspace: workspace.root, baseUrl: model.baseUrl, task: "run the server", timeoutMs: RUN_TIMEOUT_MS });
      expect(state.status).toBe("done");

      const last = (role: string) => model?.requests.filter((r) => roleOf(r) === role).at(-1);
      const coder = last("coder");
      expect(coder?.toolNames).toContain("start_process");
      const results = coder ? toolResults(coder) : [];
      expect(results[0]?.content).toContain("Started in the background");
      expect(results[2]?.content).toContain("BODY:up/coder");
      const reviewer = last("reviewer");
      expect(reviewer ? toolResults(reviewer)[0]?.content : "").toMatch(/p1 "web": running/);
      // Still running right after the run; gone once the thread has been idle.
      expect(processesWithCommandLine(tag).length).toBeGreaterThan(0);
      await sleep((IDLE_SECONDS + 3) * 1000);
      expect(processesWithCommandLine(tag)).toEqual([]);
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});
