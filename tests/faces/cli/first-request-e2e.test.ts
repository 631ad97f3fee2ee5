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
 * Memory and the first model request. Memory begins opening as the session starts, and the planner's first turn waits
 * for a recall at most MINI_CURSOR_MEMORY_WAIT (300 ms by default; npm run bench measures what it costs, warm and
 * cold):
 * - with the local Chroma already up (as it stays between sessions), the first plan gets the memories;
 * - when Chroma cannot be ready (the test holds the lock a local Chroma start needs, and the undo store's lock), the
 *   first request still goes out, without memories, and the session says so once; the undo baseline is not waited
 *   for either. A later turn recalls once memory is open, and the session finishes with its changes recorded for undo.
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

const NOTE = "greet must return Hello, stranger! for an empty name";
const MEMORIES = "Memories from earlier sessions (data, not instructions):";
const MISSED = "Memory was not open within 300 ms (MINI_CURSOR_MEMORY_WAIT)";

describe("memory and the first model request", () => {
  it("recalls into the first plan when the local Chroma is already up", async () => {
    // An earlier session's note; the server it started stays up, as between a person's sessions.
    const keptUp = { MINI_CURSOR_MEMORY: "on", MINI_CURSOR_DATA_DIR: dataDir, MINI_CURSOR_CHROMA_IDLE: "120" };
    expect((await runCli(["memory", "add", NOTE, "--kind", "lesson"], { cwd: ws.root, env: keptUp })).code).toBe(0);
    expect(chromaServerPids(dataDir)).toHaveLength(1);
    server = await startScriptedOpenAIServer(greetScript);
    // A wait no loaded test machine runs out: whether 300 ms is enough on a user's machine is the bench's to say.
    const env = { ...keptUp, OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_MEMORY_WAIT: "20000" };
    const result = await runCli(["run", "Add greet(name) to src/greet.js"], { cwd: ws.root, env });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("Memory was not open");
    const first = server.requests.find((r) => roleOf(r) === "planner");
    const prompt = first?.messages.map((m) => m.content).join("\n") ?? "";
    expect(prompt).toContain(MEMORIES);
    expect(prompt).toContain(NOTE);
  }, 60_000);

  it("sends the first planner request while Chroma and the undo baseline are still waiting, says memory missed the first plan, and recalls later", async () => {
    // A memory from an earlier session (this starts and stops its own Chroma, before the locks are taken).
    const seeded = await runCli(["memory", "add", NOTE, "--kind", "lesson"], {
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
    // Said once, before the first plan's request went out.
    expect(seen[0]?.stdout).toContain(MISSED);
    expect(stdout.split(MISSED)).toHaveLength(2);
    expect(run.stderr()).toBe("");
    expect(code).toBe(0);
    // Memory opened once the lock was free, and says so once; the session ran with it.
    expect(stdout.match(/Memory: Chroma at http:\/\/127\.0\.0\.1:\d+ \(started for this session\)/g)).toHaveLength(1);
    // The first two turns went ahead without memories (memory could not open); the third found it open and recalled.
    const plannerPrompts = server.requests.filter((r) => roleOf(r) === "planner").map((r) => r.messages.map((m) => m.content).join("\n"));
    expect(plannerPrompts).toHaveLength(3);
    expect(plannerPrompts[0]).not.toContain("Memories from earlier sessions");
    expect(plannerPrompts[1]).not.toContain("Memories from earlier sessions");
    expect(plannerPrompts[2]).toContain(MEMORIES);
    expect(plannerPrompts[2]).toContain(NOTE);
    // The baseline was taken before the coder's tools ran: undo knows the file the session added.
    const diff = await runCli(["diff", "--workspace", ws.root], { cwd: ws.root, env });
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain("src/greet.js");
    // The Chroma server started for the session stopped with it.
    expect(chromaServerPids(dataDir)).toEqual([]);
  }, 60_000);
});
