import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serverPaths } from "../../../src/memory/chroma/state-file.js";
import { locksDir } from "../../../src/sessions/paths.js";
import { chromaServerPids } from "../../helpers/chroma.js";
import { bundleFileOf } from "../../helpers/module-trace.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { startCli, type CliRun } from "./cli-process.js";

/**
 * Ctrl-C while `run` still loads LangGraph: the test holds the CLI right there (a module hook stops the bundle file with
 * the session runner from loading, after saying so through a FIFO) and interrupts it. It must exit 130 at once with
 * one line and leave no lock and no Chroma server behind (memory begins opening as the session starts, so that the
 * first plan can recall: a server started for it is stopped).
 */
const HOOKS = (ready: string, held: string) => `import { writeFileSync } from "node:fs";
export async function load(url, context, next) {
  if (url === ${JSON.stringify(held)}) {
    writeFileSync(${JSON.stringify(ready)}, "loading\\n");
    await new Promise(() => {});
  }
  return next(url, context);
}
`;

let ws: TempWorkspace;
let dataDir = "";
let run: CliRun | null = null;

beforeEach(async () => {
  ws = await makeTempWorkspace({ "a.txt": "a\n" });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mc-startup-signal-"));
});
afterEach(async () => {
  if (run && run.child.exitCode === null && run.child.signalCode === null) {
    run.child.kill("SIGKILL");
    await run.done;
  }
  run = null;
  for (const pid of chromaServerPids(dataDir)) process.kill(pid, "SIGKILL");
  await ws.cleanup();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("Ctrl-C while run is still loading", () => {
  it("exits 130 with one line, leaves no lock behind and no Chroma server running", async () => {
    const hooks = path.join(dataDir, "hooks.mjs");
    const register = path.join(dataDir, "register.mjs");
    const ready = path.join(dataDir, "ready");
    execFileSync("mkfifo", [ready]);
    // The CLI is a bundle: hold the file that holds the session runner.
    fs.writeFileSync(hooks, HOOKS(ready, pathToFileURL(bundleFileOf("src/host/session-runner.ts")).href));
    fs.writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const current = startCli(["run", "a task"], {
      cwd: ws.root,
      env: {
        NODE_OPTIONS: `--import ${pathToFileURL(register).href}`,
        OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
        MINI_CURSOR_MODEL: "unused",
        MINI_CURSOR_MEMORY: "on",
        MINI_CURSOR_DATA_DIR: dataDir,
      },
    });
    run = current;
    // Opening the FIFO for reading also unblocks the hook's write if the CLI died first (then the checks below fail).
    const ended = current.done.then(() => fs.closeSync(fs.openSync(ready, fs.constants.O_RDWR | fs.constants.O_NONBLOCK)));
    expect(await fs.promises.readFile(ready, "utf8")).toContain("loading");
    current.child.kill("SIGINT");
    const { code } = await current.done;
    await ended;
    expect(code).toBe(130);
    expect(current.stderr()).toContain("mini-cursor: Interrupted (SIGINT): stopping.");
    expect(current.stderr().split("\n").filter(Boolean)).toHaveLength(1);
    expect(chromaServerPids(dataDir)).toEqual([]);
    expect(fs.existsSync(serverPaths(dataDir).stateFile)).toBe(false);
    expect(fs.readdirSync(locksDir(ws.root))).toEqual([]);
  }, 60_000);
});
