import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serverPaths } from "../../../src/memory/chroma/state-file.js";
import { FileLock } from "../../../src/platform/file-lock.js";
import { chromaServerPids } from "../../helpers/chroma.js";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { mcpScript } from "./mcp-script.js";
import { TmuxTerminal } from "./tmux-terminal.js";

/**
 * A notice that comes while an approval waits at a terminal is printed above the question, which is shown again below
 * it with what was typed so far: here memory's notice on `resume` of a session that waits for an approval (the
 * test holds the lock a local Chroma start needs until the question is on screen and half answered).
 */
const PROMPT = "Approve? [y]es";

let server: ScriptedServer;
let ws: TempWorkspace;
let dataDir = "";
let terminal: TmuxTerminal | null = null;
let lock: FileLock | null = null;

beforeEach(async () => {
  ws = await makeTempWorkspace({ "README.md": "# demo\n" });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "mc-prompt-notice-"));
  server = await startScriptedOpenAIServer(mcpScript([{ name: "execute_command", args: { command: "touch one" } }]));
});
afterEach(async () => {
  lock?.release();
  terminal?.close();
  terminal = null;
  await server.close();
  for (const pid of chromaServerPids(dataDir)) process.kill(pid, "SIGKILL");
  await ws.cleanup();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe("a notice while a question waits at a terminal", () => {
  it("goes above the question, which is shown again with the half-typed answer, and the answer still counts", async () => {
    const env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "ask", MINI_CURSOR_DATA_DIR: dataDir };
    const first = await runCli(["run", "Touch a file"], { cwd: ws.root, env: { ...env, MINI_CURSOR_MEMORY: "off" }, input: "" });
    expect(first.code).toBe(130);
    const lockFile = serverPaths(dataDir).lockFile;
    await fs.mkdir(path.dirname(lockFile), { recursive: true });
    lock = (await FileLock.acquire(lockFile, { waitMs: 0 })).lock ?? null;
    expect(lock).not.toBeNull();

    terminal = TmuxTerminal.start(["resume"], { cwd: ws.root, env: { ...env, MINI_CURSOR_MEMORY: "on", MINI_CURSOR_CHROMA_IDLE: "0" } });
    const tty = terminal;
    await tty.waitFor((s) => s.includes(PROMPT), "the approval question");
    tty.type("y");
    await tty.waitFor((s) => /> y$/m.test(s), "the typed answer");
    lock?.release();
    lock = null;
    const screen = await tty.waitFor((s) => s.includes("Memory: Chroma at"), "memory's notice");
    const rows = screen.split("\n").filter((row) => row.trim() !== "");
    const notice = rows.findIndex((row) => row.includes("Memory: Chroma at"));
    // Nothing was written onto the question's line, and the question is back below the notice with the "y".
    expect(rows.filter((row) => row.includes(PROMPT) && row.includes("Memory"))).toEqual([]);
    expect(rows.slice(notice + 1).find((row) => row.includes(PROMPT))).toMatch(/> y$/);
    tty.type("\r");
    expect(await tty.exitCode()).toBe(0);
    await expect(fs.access(path.join(ws.root, "one"))).resolves.toBeUndefined();
  }, 90_000);
});
