import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { commandScript } from "../safety/approval-script.js";
import { CLI, runCli } from "./cli-process.js";
import { roleOf } from "./task-script.js";

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;
const cleanups: (() => void)[] = [];

beforeEach(async () => {
  server = await startScriptedOpenAIServer(commandScript(["echo later > ran.txt"]));
  ws = await makeTempWorkspace({ "package.json": "{}\n" });
  env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", MINI_CURSOR_MEMORY: "off", OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "ask" };
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await server.close();
  await ws.cleanup();
});

type Event = { type: string; status?: string; decision?: string; detail?: string; report?: string };

/** The CLI with stdin a pipe the test keeps open: nothing ever answers or closes it. */
function startWithOpenStdin(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ws.root, env, stdio: ["pipe", "pipe", "pipe"] });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  child.stderr.resume();
  let out = "";
  let asked = (): void => {};
  const question = new Promise<void>((resolve) => (asked = resolve));
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    if (out.includes('"type":"approval_requested"')) asked();
  });
  const done = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, question, done, events: () => out.trim().split("\n").map((l) => JSON.parse(l) as Event) };
}

describe("a signal at an approval prompt", () => {
  it.each(["SIGINT", "SIGTERM"] as const)("%s exits 130 at once, leaving the approval pending for resume", async (signal) => {
    const run = startWithOpenStdin(["run", "--json", "Run the checks"]);
    await Promise.race([run.question, run.done.then(() => Promise.reject(new Error(`the CLI ended: ${JSON.stringify(run.events())}`)))]);
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
    const asked = resumed.stdout.trim().split("\n").map((l) => JSON.parse(l) as Event & { subject?: string });
    expect(asked.filter((e) => e.type === "approval_requested").map((e) => e.subject)).toEqual(["echo later > ran.txt"]);
    expect(await fs.readFile(path.join(ws.root, "ran.txt"), "utf8")).toBe("later\n");
    // Only the coder's follow-up after the command: the call that chose the command was not made again.
    expect(coderCalls() - before).toBe(1);
  });
});
