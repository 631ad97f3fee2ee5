import { afterEach, beforeEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { startScriptedOpenAIServer, toolResults, type Script, type ScriptedRequest, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { commandScript } from "../safety/approval-script.js";
import { fetchCommand } from "../sandbox/helpers.js";
import { runCli, startCli, type CliRun } from "./cli-process.js";
import { greetScript, roleOf } from "./task-script.js";

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;
/** A request the server holds (never answers) once, telling the test it arrived: the session is then mid-step. */
let hold: { when: (req: ScriptedRequest) => boolean; arrived: () => void } | null = null;
/** What the model does when not held: the greet task unless a test sets another. */
let script: Script = greetScript;
const running: CliRun[] = [];

beforeEach(async () => {
  hold = null;
  script = greetScript;
  server = await startScriptedOpenAIServer((req) => {
    if (hold?.when(req)) {
      hold.arrived();
      hold = null;
      return { hangMs: 60_000 };
    }
    return script(req);
  });
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" };
});
afterEach(async () => {
  for (const run of running.splice(0)) run.child.kill("SIGKILL");
  await server.close();
  await ws.cleanup();
});

const cli = (args: string[], input?: string) => runCli(args, { cwd: ws.root, env, ...(input === undefined ? {} : { input }) });

describe("resume changes a session's settings for the rest of it", () => {
  it("raises a limit and says so", async () => {
    const first = await cli(["run", "--max-steps", "1", "Add greet with a test"]);
    expect(first.code).toBe(1);
    const resumed = await cli(["resume", "--max-steps", "5"]);
    expect(resumed.stdout).toContain("max steps: 1 → 5 for the rest of the session");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("review: approve");
  });

  it("changes the approval mode of a stopped session", async () => {
    const first = await cli(["run", "--approval", "ask", "--max-steps", "1", "Add greet with a test"], "y\n");
    expect(first.code).toBe(1);
    // One step is left (the review); in ask mode its test command would wait for an answer (stdin is closed).
    const switched = await cli(["resume", "--approval", "auto", "--max-steps", "1"], "");
    expect(switched.stdout).toContain("approval: ask → auto for the rest of the session");
    expect(switched.stdout).not.toContain("approval needed");
    expect(switched.code).toBe(0);
    expect(switched.stdout).toContain("review: approve");
  });

  it("switches a session waiting at an approval to auto: the pending command is judged again and runs, and so do the next ones", async () => {
    const first = await cli(["run", "--approval", "ask", "Add greet with a test"], "");
    expect(first.code).toBe(130);
    expect(first.stdout).toContain("approval needed");
    const switched = await cli(["resume", "--approval", "auto"], "");
    expect(switched.stdout).toContain("approval: ask → auto for the rest of the session");
    // Nothing was answered (stdin is closed): the coder's pending test run and the reviewer's ran unasked.
    expect(switched.stdout).not.toContain("approval needed");
    expect(switched.stdout).toContain("review: approve");
    expect(switched.code).toBe(0);
    // A later resume keeps the new mode (stored with the session).
    const listed = await cli(["sessions", "--json"]);
    expect((JSON.parse(listed.stdout) as { status: string }[])[0]?.status).toBe("done");
  });

  it("applies new limits to a session interrupted mid-step, the step it stopped in included", async () => {
    // The coder's second model call (after its first tool result) hangs: Ctrl-C stops the session inside that step.
    const arrived = new Promise<void>((resolve) => {
      hold = { when: (req) => roleOf(req) === "coder" && toolResults(req).length === 1, arrived: resolve };
    });
    const first = startCli(["run", "Add greet with a test"], { cwd: ws.root, env });
    running.push(first);
    await arrived;
    first.child.kill("SIGINT");
    expect((await first.done).code).toBe(130);

    const resumed = await cli(["resume", "--max-model-calls", "1", "--max-steps", "2"]);
    expect(resumed.stdout).toContain("max model calls: 30 → 1 for the rest of the session");
    expect(resumed.stdout).toContain("max steps: 20 → 2 for the rest of the session");
    // The coder had made its one call: it stops at once instead of writing the test file.
    expect(resumed.stdout).toContain("limit reached: coder used 1 model calls on s1");
    expect(fs.existsSync(path.join(ws.root, "test/greet.test.js"))).toBe(false);
    expect(resumed.stdout).toContain("limit reached: sub-agent runs: the limit of 2 runs was reached");
    expect(resumed.code).toBe(1);
  });

  it("opens the network for commands, the pending one included, and keeps it open for later resumes", async () => {
    // Each command fetches from the scripted server on the host: only reachable from the sandbox with the network.
    const fetch = fetchCommand(`${server.baseUrl}/models`);
    script = commandScript([`${fetch} && echo first`, `${fetch} && echo second`]);
    const first = await cli(["run", "--approval", "ask", "Fetch the model list"], "");
    expect(first.code).toBe(130);

    const opened = await cli(["resume", "--allow-network"], "y\n");
    expect(opened.stdout).toContain("network for commands: off → on for the rest of the session");
    expect(opened.stdout).toContain("│ BODY:");
    expect(opened.stdout).toContain("│ first\n");
    // The command as shown contains the words; a failure would add its error code.
    expect(opened.stdout).not.toMatch(/FETCH FAILED: [A-Z]/);
    // The second command waits for an answer (stdin is closed after the first).
    expect(opened.code).toBe(130);

    // Stored with the session: the next resume, without the flag, still has the network and announces no change.
    const again = await cli(["resume"], "y\n");
    expect(again.stdout).not.toContain("network for commands");
    expect(again.stdout).toContain("│ second\n");
    expect(again.stdout).not.toMatch(/FETCH FAILED: [A-Z]/);
    expect(again.code).toBe(0);
  });

  it("asks before the next file change after resume --approve-file-changes", async () => {
    // The coder's call after its first write hangs: Ctrl-C stops the session between the two writes.
    const arrived = new Promise<void>((resolve) => {
      hold = { when: (req) => roleOf(req) === "coder" && toolResults(req).length === 1, arrived: resolve };
    });
    const first = startCli(["run", "--approval", "ask", "Add greet with a test"], { cwd: ws.root, env });
    running.push(first);
    await arrived;
    first.child.kill("SIGINT");
    expect((await first.done).code).toBe(130);
    expect(fs.existsSync(path.join(ws.root, "src/greet.js"))).toBe(true);

    const resumed = await cli(["resume", "--approve-file-changes"], "");
    expect(resumed.stdout).toContain("approve file changes: off → on for the rest of the session");
    expect(resumed.stdout).toContain("wants to change a file:");
    expect(resumed.stdout).toContain("test/greet.test.js");
    // Nobody answered (stdin is closed): the write waits, unmade.
    expect(resumed.code).toBe(130);
    expect(fs.existsSync(path.join(ws.root, "test/greet.test.js"))).toBe(false);
  });

  it("switches the model and says so", async () => {
    expect((await cli(["run", "--max-steps", "1", "Add greet with a test"])).code).toBe(1);
    const before = server.requests.length;
    const resumed = await cli(["resume", "--model", "other", "--max-steps", "5"]);
    expect(resumed.stdout).toMatch(/model: scripted via \S+ → other via \S+ for the rest of the session/);
    expect(resumed.code).toBe(0);
    const models = new Set(server.requests.slice(before).map((r) => r.model));
    expect([...models]).toEqual(["other"]);
  });

  it("refuses a value it cannot use, in one line", async () => {
    expect((await cli(["run", "--max-steps", "1", "Add greet with a test"])).code).toBe(1);
    const bad = await cli(["resume", "--approval", "sometimes"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('mini-cursor: --approval must be ask, auto or read-only, got "sometimes"\n');
  });
});
