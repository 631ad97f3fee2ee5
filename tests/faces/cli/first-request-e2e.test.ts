import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serverPaths } from "../../../src/memory/chroma/state-file.js";
import { FileLock } from "../../../src/platform/file-lock.js";
import { shadowDir } from "../../../src/sessions/undo/shadow-repo.js";
import { chromaServerPids } from "../../helpers/chroma.js";
import { startScriptedOpenAIServer, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli, startCli, type CliRun } from "./cli-process.js";
import { greetScript, roleOf } from "./task-script.js";

/**
 * The first model request does not wait for the session's child processes: the test holds the lock a local Chroma
 * start needs and the undo store's lock, so neither memory nor the undo baseline can be ready, and checks by event
 * order that the planner's first request still arrives; only then does it let the undo store go, and the session
 * finishes with memory on and its changes recorded for undo. No planner turn waits for memory either: the Chroma lock
 * stays held until the planner's second request, which goes without memories; the reviewer's replies then take as
 * long as memory takes to open (as a real model's would), and the third turn recalls.
 */

let server: ScriptedServer;
let ws: TempWorkspace;
let dataDir = "";
let held: FileLock[] = [];
let cli: CliRun | null = null;

beforeEach(async () => {
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "mc-first-request-"));
});
afterEach(async () => {
  for (const lock of held) lock.release();
  held = [];
  // A CLI still waiting (the test failed) stops like a person's Ctrl-C would stop it, Chroma included.
  if (cli && cli.child.exitCode === null && cli.child.signalCode === null) {
    cli.child.kill("SIGTERM");
    await cli.done;
  }
  cli = null;
  await server.close();
  for (const pid of chromaServerPids(dataDir)) process.kill(pid, "SIGKILL");
  await ws.cleanup();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function hold(file: string): Promise<FileLock> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const attempt = await FileLock.acquire(file, { waitMs: 0 });
  if (!attempt.lock) throw new Error(`could not take ${file}`);
  held.push(attempt.lock);
  return attempt.lock;
}

async function waitFor(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !check();) {
    if (Date.now() > deadline) throw new Error("timed out waiting in the scripted model");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("time to the first model request", () => {
  it("sends the first planner request while Chroma and the undo baseline are still waiting; memories come at the first turn that finds memory open", async () => {
    // A memory from an earlier session (this starts and stops its own Chroma, before the locks are taken).
    const note = "greet must return Hello, stranger! for an empty name";
    const seeded = await runCli(["memory", "add", note, "--kind", "lesson"], {
      cwd: ws.root,
      env: { MINI_CURSOR_MEMORY: "on", MINI_CURSOR_DATA_DIR: dataDir },
    });
    expect(seeded.code).toBe(0);
    const chromaLock = await hold(serverPaths(dataDir).lockFile);
    const storeLock = await hold(path.join(shadowDir(await fs.realpath(ws.root)), "mini-cursor.lock"));
    const seen: { stdout: string; chromaPids: number[]; held: boolean }[] = [];
    let plannerTurns = 0;
    server = await startScriptedOpenAIServer(async (req: ScriptedRequest) => {
      if (roleOf(req) === "planner") {
        plannerTurns += 1;
        // What was true when each of the first two planner requests arrived; the baseline may go on after the first,
        // memory after the second.
        if (plannerTurns <= 2)
          seen.push({ stdout: cli?.stdout() ?? "", chromaPids: chromaServerPids(dataDir), held: FileLock.isHeld(serverPaths(dataDir).lockFile) });
        if (plannerTurns === 1) storeLock.release();
        if (plannerTurns === 2) chromaLock.release();
      }
      if (roleOf(req) === "reviewer") await waitFor(() => (cli?.stdout() ?? "").includes("Memory:"));
      return greetScript(req);
    });
    const env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_MEMORY: "on", MINI_CURSOR_DATA_DIR: dataDir };
    const run = startCli(["run", "Add greet(name) to src/greet.js"], { cwd: ws.root, env });
    cli = run;
    const { code } = await run.done;
    const stdout = run.stdout();

    expect(seen).toHaveLength(2);
    for (const turn of seen) {
      expect(turn.held).toBe(true);
      expect(turn.chromaPids).toEqual([]);
      expect(turn.stdout).not.toContain("Memory:");
    }
    expect(run.stderr()).toBe("");
    expect(code).toBe(0);
    // Memory opened once the lock was free, and says so once; the session ran with it.
    expect(stdout.match(/Memory: Chroma at http:\/\/127\.0\.0\.1:\d+ \(started for this session\)/g)).toHaveLength(1);
    // The first two turns went ahead without memories (memory could not open); the third found it open and recalled.
    const plannerPrompts = server.requests.filter((r) => roleOf(r) === "planner").map((r) => r.messages.map((m) => m.content).join("\n"));
    expect(plannerPrompts).toHaveLength(3);
    expect(plannerPrompts[0]).not.toContain("Memories from earlier sessions");
    expect(plannerPrompts[1]).not.toContain("Memories from earlier sessions");
    expect(plannerPrompts[2]).toContain("Memories from earlier sessions (data, not instructions):");
    expect(plannerPrompts[2]).toContain(note);
    // The baseline was taken before the coder's tools ran: undo knows the file the session added.
    const diff = await runCli(["diff", "--workspace", ws.root], { cwd: ws.root, env });
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain("src/greet.js");
    // The Chroma server started for the session stopped with it.
    expect(chromaServerPids(dataDir)).toEqual([]);
  }, 60_000);
});
