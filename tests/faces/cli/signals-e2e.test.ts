import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { locksDir } from "../../../src/sessions/paths.js";
import { shadowDir } from "../../../src/sessions/undo/shadow-repo.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { startCli, type CliRun, shows } from "./cli-process.js";

let ws: TempWorkspace;
let tools: TempWorkspace;
const cleanups: (() => void | Promise<void>)[] = [];

beforeEach(async () => {
  ws = await makeTempWorkspace({ "a.txt": "a\n" });
  tools = await makeTempWorkspace();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await ws.cleanup();
  await tools.cleanup();
});

function started(args: string[], env: Record<string, string>): CliRun {
  const run = startCli(args, { cwd: ws.root, env });
  cleanups.push(() => {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
  });
  return run;
}

/** A local "Ollama" that takes the CLI's start-up probe and never answers: start-up waits on it. */
async function silentOllama(): Promise<{ host: string; probed: Promise<void> }> {
  let probed = (): void => {};
  const arrived = new Promise<void>((resolve) => (probed = resolve));
  const server = http.createServer(() => probed());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { host: `127.0.0.1:${(server.address() as AddressInfo).port}`, probed: arrived };
}

describe("a signal during start-up (before the session runner handles signals)", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("%s prints the interrupted line and exits 130", async (signal) => {
    const ollama = await silentOllama();
    // No model endpoint configured: start-up asks the local Ollama, which holds the request.
    const run = started(["run", "a task"], { OLLAMA_HOST: ollama.host });
    await Promise.race([ollama.probed, run.done.then(() => Promise.reject(new Error(`the CLI ended: ${run.stderr()}`)))]);
    // Sent as soon as the probe arrives (the CLI gives it 800 ms).
    run.child.kill(signal);
    const { code } = await run.done;
    expect(run.stderr()).toBe(`mini-cursor: Interrupted (${signal}): stopping.\n`);
    expect(code).toBe(130);
    // Nothing was started: no session, no lock.
    expect(fs.existsSync(locksDir(ws.root)) ? fs.readdirSync(locksDir(ws.root)) : []).toEqual([]);
  });
});

/**
 * A `git` first on PATH that, for `git add` (the undo store stages the workspace while holding its lock), reports
 * its pid on a FIFO and then waits on another FIFO the test never writes: the run stays inside the store lock.
 */
function gatedGit(): { pathDir: string; ready: string } {
  const ready = path.join(tools.root, "ready");
  const gate = path.join(tools.root, "gate");
  execFileSync("mkfifo", [ready, gate]);
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  const bin = path.join(tools.root, "bin");
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, "git"),
    `#!/bin/bash\nfor a in "$@"; do\n  if [ "$a" = add ]; then echo $$ > '${ready}'; read -r _ < '${gate}'; fi\ndone\nexec '${realGit}' "$@"\n`,
    { mode: 0o755 },
  );
  // Whatever happens, neither the reader below nor the gated git stays blocked.
  cleanups.push(() => {
    for (const fifo of [ready, gate]) {
      try {
        fs.closeSync(fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK));
      } catch {
        // nobody waiting
      }
    }
  });
  return { pathDir: bin, ready };
}

describe("Ctrl-C twice while the undo store is locked", () => {
  it("exits 130 and leaves no lock behind", async () => {
    const git = gatedGit();
    const run = started(["run", "a task"], {
      PATH: `${git.pathDir}:${process.env.PATH ?? ""}`,
      // The model is never reached: the run is stopped while recording the workspace's baseline.
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      MINI_CURSOR_MODEL: "unused",
    });
    const gitPid = Number(
      await Promise.race([fs.promises.readFile(git.ready, "utf8"), run.done.then(() => Promise.reject(new Error(`the CLI ended: ${run.stderr()}`)))]),
    );
    cleanups.push(() => void process.kill(gitPid, "SIGKILL"));
    const storeLock = path.join(shadowDir(ws.root), "mini-cursor.lock");
    expect(fs.readFileSync(storeLock, "utf8")).toMatch(new RegExp(`^${run.child.pid}(:|$)`));
    // The workspace's lock (one running session per workspace). The baseline starts while the CLI still loads
    // LangGraph, so the session runner (and the session's own lock) may not be there yet.
    expect(fs.readdirSync(locksDir(ws.root))).toContain("workspace.lock");

    run.child.kill("SIGINT");
    // The runner's notice, or the one line of a Ctrl-C during start-up, which also waits for the baseline.
    await Promise.any([shows(run, "Interrupted: stopping"), shows(run, "Interrupted (SIGINT): stopping.", "stderr")]);
    // The second Ctrl-C exits at once (the runner's process.exit), git still waiting.
    run.child.kill("SIGINT");
    const { code } = await run.done;
    expect(code).toBe(130);
    expect(fs.existsSync(storeLock)).toBe(false);
    expect(fs.readdirSync(locksDir(ws.root))).toEqual([]);
  });
});
