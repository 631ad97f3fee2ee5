import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { commandScript } from "../../safety/approval-script.js";
import { runCli, startWithOpenStdin, type OpenStdinRun } from "./cli-process.js";
import { roleOf } from "./task-script.js";

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;
let running: OpenStdinRun<Event> | undefined;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(commandScript(["echo later > ran.txt"]));
  ws = await makeTempWorkspace({ "package.json": "{}\n" });
  env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    MINI_CURSOR_MEMORY: "off",
    OPENAI_BASE_URL: server.baseUrl,
    MINI_CURSOR_MODEL: "scripted",
    MINI_CURSOR_APPROVAL: "ask",
  };
});

afterEach(async () => {
  running?.stop();
  await server.close();
  await ws.cleanup();
});

type Event = { type: string; status?: string; decision?: string; detail?: string; report?: string };

describe("a signal at an approval prompt", () => {
  it("SIGTERM to the whole process group (timeout, docker stop, CI cancellation) exits 130 every time, with nothing after the final status", async () => {
    for (let round = 0; round < 6; round += 1) {
      const run = (running = startWithOpenStdin<Event>(
        ["run", "--json", "Run the checks"],
        { cwd: ws.root, env, ownGroup: true },
        '"type":"approval_requested"',
      ));
      await run.reached;
      process.kill(-(run.child.pid ?? 0), "SIGTERM");
      const code = await run.done;
      expect(code, `round ${round}`).toBe(130);
      const events = run.events();
      expect(events.at(-1), `round ${round}`).toMatchObject({ type: "session_finished", status: "awaiting_approval" });
      expect(JSON.stringify(events)).not.toContain("Undo is off");
    }
  });

  it.each(["SIGINT", "SIGTERM"] as const)("%s exits 130 at once, leaving the approval pending for resume", async (signal) => {
    const run = (running = startWithOpenStdin<Event>(["run", "--json", "Run the checks"], { cwd: ws.root, env }, '"type":"approval_requested"'));
    await run.reached;
    run.child.kill(signal);
    // No second signal, no closing of stdin: the test's own timeout bounds this wait.
    expect(await run.done).toBe(130);
    const events = run.events();
    expect(events.filter((e) => e.type === "approval_answered")).toEqual([expect.objectContaining({ decision: "pending", detail: "interrupted" })]);
    expect(events.at(-1)).toMatchObject({ type: "session_finished", status: "awaiting_approval" });
    await expect(fs.access(path.join(ws.root, "ran.txt"))).rejects.toThrow();
    const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: ws.root, env })).stdout) as { status: string }[];
    expect(listed[0]?.status).toBe("awaiting_approval");

    const coderCalls = () => server.requests.filter((r) => roleOf(r) === "coder").length;
    const before = coderCalls();
    const resumed = await runCli(["resume", "--json"], { cwd: ws.root, env, input: "y\n" });
    expect(resumed.code).toBe(0);
    const asked = resumed.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Event & { subject?: string });
    expect(asked.filter((e) => e.type === "approval_requested").map((e) => e.subject)).toEqual(["echo later > ran.txt"]);
    expect(await fs.readFile(path.join(ws.root, "ran.txt"), "utf8")).toBe("later\n");
    // Only the coder's follow-up after the command: the call that chose the command was not made again.
    expect(coderCalls() - before).toBe(1);
  });
});
