import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { toolResults, type ScriptedReply, type ScriptedRequest } from "../../helpers/scripted-openai-server.js";
import { freePort } from "../../helpers/free-port.js";
import { fetchCommand, processesWithCommandLine } from "../../safety/sandbox/helpers.js";
import { startCli, type CliRun } from "./cli-process.js";
import { useCliSession } from "./cli-session.js";
import { roleOf } from "./task-script.js";

/**
 * The dev-server scenario end to end: the coder starts a tiny HTTP server with start_process, waits until its port
 * answers, and a later execute_command fetches from it over the session's loopback. After the session (or a kill -9
 * of the CLI) no process of it is left and nothing listens on the port.
 */
const scenario = { port: 0, tag: "", hold: false };

function serverCommand(): string {
  const script = `/* ${scenario.tag} */ require("http").createServer((q, s) => s.end("healthy" + q.url)).listen(${scenario.port}, "127.0.0.1", () => console.log("listening"))`;
  return `"${process.execPath}" -e '${script}'`;
}

function script(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  if (role === "planner") {
    const context = req.messages
      .filter((m) => m.role === "user")
      .map((m) => m.content)
      .join("\n");
    if (context.includes("There is no plan yet")) {
      return {
        toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal: "Run the dev server and check /health" }], finished: false } }],
      };
    }
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "The server answers /health." } }] };
  }
  if (role === "reviewer") {
    // The reviewer checks the coder's server, still running: the registry and the loopback are the session's.
    const review = [
      { name: "list_processes", args: {} },
      { name: "execute_command", args: { command: fetchCommand(`http://127.0.0.1:${scenario.port}/review`) } },
      { name: "submit_review", args: { decision: "approve", summary: "The server answers." } },
    ];
    return { toolCalls: [review[Math.min(toolResults(req).length, review.length - 1)] ?? review[2]!] };
  }
  if (role !== "coder") return { content: "Nothing to do." };
  // Held: the command blocks until the test lets it go (a file in the workspace), so the CLI can be killed mid-session.
  const hold = scenario.hold ? ` && { [ -f release ] || sleep 600; } && : ${scenario.tag}` : "";
  const steps = [
    { name: "start_process", args: { command: serverCommand(), name: "web" } },
    { name: "wait_for_process", args: { process: "web", port: scenario.port, timeoutSeconds: 20 } },
    { name: "execute_command", args: { command: `${fetchCommand(`http://127.0.0.1:${scenario.port}/health`)}${hold}` } },
    { name: "submit_work", args: { status: "done", summary: "The dev server answers /health." } },
  ];
  return { toolCalls: [steps[Math.min(toolResults(req).length, steps.length - 1)] ?? steps[3]!] };
}

const session = useCliSession(script);
const running: CliRun[] = [];
afterEach(() => {
  for (const run of running.splice(0)) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
});

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function coderResults() {
  return session.server.requests.filter((r) => roleOf(r) === "coder").flatMap((r) => toolResults(r));
}

async function prepare(hold = false): Promise<void> {
  scenario.port = await freePort();
  scenario.tag = `bg-e2e-${randomUUID()}`;
  scenario.hold = hold;
}

describe("background processes (built CLI, scripted model, real sandbox)", () => {
  it("a dev server started in the background is reached by a later command, shown in --json, and stopped with the session", async () => {
    await prepare();
    const result = await session.cli(["run", "--json", "Make the dev server answer /health"]);
    expect(result.code, `${result.stderr}\n${result.stdout.slice(-3000)}`).toBe(0);
    const fetched = coderResults().find((t) => t.name === "execute_command");
    expect(fetched?.content).toContain("BODY:healthy/health");
    const reviewed = session.server.requests.filter((r) => roleOf(r) === "reviewer").flatMap((r) => toolResults(r));
    expect(reviewed.find((t) => t.name === "list_processes")?.content).toMatch(/p1 "web": running/);
    expect(reviewed.find((t) => t.name === "execute_command")?.content).toContain("BODY:healthy/review");
    const events = result.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; state?: string; name?: string; report?: string });
    expect(events.filter((e) => e.type === "background_process").map((e) => `${e.name}:${e.state}`)).toEqual(["web:started", "web:ready", "web:stopped"]);
    expect(events.at(-1)?.report).toContain("Background processes stopped at the end of the session: web (`");
    // Nothing of the server is left, and (it listened in the session's own loopback) the host port is free too.
    expect(processesWithCommandLine(scenario.tag)).toEqual([]);
    expect(await portAnswers(scenario.port)).toBe(false);
  }, 90_000);

  it("with the network allowed the server is on the host's loopback, and nothing listens on its port after the session", async () => {
    await prepare();
    const result = await session.cli(["run", "--allow-network", "Make the dev server answer /health"]);
    expect(result.code, `${result.stderr}\n${result.stdout.slice(-3000)}`).toBe(0);
    expect(coderResults().find((t) => t.name === "execute_command")?.content).toContain("BODY:healthy/health");
    expect(result.stdout).toContain("⚙ background web (p1) started");
    expect(result.stdout).toContain("⚙ background web (p1) ready: port");
    expect(processesWithCommandLine(scenario.tag)).toEqual([]);
    expect(await portAnswers(scenario.port)).toBe(false);
  }, 90_000);

  it("kill -9 of the CLI mid-session leaves no process of the tree and nothing on the port; a resume says the server is gone", async () => {
    await prepare(true);
    const run = startCli(["run", "--allow-network", "Make the dev server answer /health"], { cwd: session.root, env: session.env });
    running.push(run);
    // The server is ready and the held command runs.
    await until(() => coderResults().some((t) => t.name === "wait_for_process" && t.content.startsWith("Ready")), 60_000, "the server to be ready");
    await until(() => processesWithCommandLine(`sleep 600; } && : ${scenario.tag}`).length > 0, 20_000, "the held command");
    expect(await portAnswers(scenario.port)).toBe(true);
    run.child.kill("SIGKILL");
    await run.done;
    await until(async () => processesWithCommandLine(scenario.tag).length === 0 && !(await portAnswers(scenario.port)), 5_000, "the process tree to be gone");

    await fs.writeFile(path.join(session.root, "release"), "");
    const resumed = await session.cli(["resume", "--allow-network"]);
    expect(resumed.stdout).toContain("Background processes of the earlier run are gone (they stopped with it): web (`");
    expect(processesWithCommandLine(scenario.tag)).toEqual([]);
    expect(await portAnswers(scenario.port)).toBe(false);
  }, 120_000);

  it("Ctrl-C mid-session stops the background server with the session, and the report says so", async () => {
    await prepare(true);
    const run = startCli(["run", "Make the dev server answer /health"], { cwd: session.root, env: session.env });
    running.push(run);
    await until(() => coderResults().some((t) => t.name === "wait_for_process" && t.content.startsWith("Ready")), 60_000, "the server to be ready");
    await until(() => processesWithCommandLine(`sleep 600; } && : ${scenario.tag}`).length > 0, 20_000, "the held command");
    run.child.kill("SIGINT");
    const { code } = await run.done;
    expect(code).toBe(130);
    expect(run.stdout()).toContain("Interrupted. Resume with:");
    expect(run.stdout()).toContain("Background processes stopped at the end of the session: web (`");
    expect(processesWithCommandLine(scenario.tag)).toEqual([]);
  }, 90_000);
});
