import { afterEach, beforeEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { startScriptedOpenAIServer, toolResults, type Script, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { commandScript } from "../../safety/approval-script.js";
import { fetchCommand } from "../../safety/sandbox/helpers.js";
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

/** Runs the CLI until the server holds a request `when` matches, then Ctrl-C: the session stops mid-step there. */
async function interruptAt(args: string[], when: (req: ScriptedRequest) => boolean): Promise<{ code: number | null; stdout: string }> {
  const arrived = new Promise<void>((resolve) => {
    hold = { when, arrived: resolve };
  });
  const run = startCli(args, { cwd: ws.root, env });
  running.push(run);
  await arrived;
  run.child.kill("SIGINT");
  const { code } = await run.done;
  return { code, stdout: run.stdout() };
}

/** The coder's model call after its `n`th tool result. */
const coderAfter = (n: number) => (req: ScriptedRequest) => roleOf(req) === "coder" && toolResults(req).length === n;

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
    expect((await interruptAt(["run", "Add greet with a test"], coderAfter(1))).code).toBe(130);

    const resumed = await cli(["resume", "--max-model-calls", "1", "--max-steps", "2"]);
    expect(resumed.stdout).toContain("max model calls: 30 → 1 for the rest of the session");
    expect(resumed.stdout).toContain("max steps: 20 → 2 for the rest of the session");
    // The coder had made its one call: it stops at once instead of writing the test file.
    expect(resumed.stdout).toContain("limit reached: coder used 1 model calls on s1");
    expect(fs.existsSync(path.join(ws.root, "test/greet.test.js"))).toBe(false);
    expect(resumed.stdout).toContain("limit reached: sub-agent runs: the limit of 2 runs was reached");
    expect(resumed.code).toBe(1);
  });

  it("opens the network for commands, the pending one included, keeps it open for later resumes, and closes it with --no-allow-network", async () => {
    // Each command fetches from the scripted server on the host: only reachable from the sandbox with the network.
    const fetch = fetchCommand(`${server.baseUrl}/models`);
    script = commandScript([`${fetch} && echo first`, `${fetch} && echo second`, `${fetch} && echo third`]);
    expect((await cli(["run", "--approval", "ask", "Fetch the model list"], "")).code).toBe(130);

    // Each resume below is stopped (Ctrl-C) at the coder's next model call, after one more command ran.
    const opened = await interruptAt(["resume", "--allow-network", "--approval", "auto"], coderAfter(1));
    expect(opened.stdout).toContain("network for commands: off → on for the rest of the session");
    expect(opened.stdout).toContain("│ BODY:");
    expect(opened.stdout).toContain("│ first\n");
    // The command as shown contains the words; a failure would add its error code.
    expect(opened.stdout).not.toMatch(/FETCH FAILED: [A-Z]/);
    expect(opened.code).toBe(130);

    // Stored with the session: the next resume, without the flag, still has the network and announces no change.
    const again = await interruptAt(["resume"], coderAfter(2));
    expect(again.stdout).not.toContain("network for commands");
    expect(again.stdout).toContain("│ second\n");
    expect(again.stdout).not.toMatch(/FETCH FAILED: [A-Z]/);
    expect(again.code).toBe(130);

    const closed = await cli(["resume", "--no-allow-network"]);
    expect(closed.stdout).toContain("network for commands: on → off for the rest of the session");
    expect(closed.stdout).toContain("│ FETCH FAILED: ECONNREFUSED");
    expect(closed.stdout).not.toContain("│ third");
    expect(closed.code).toBe(0);
  });

  it("asks before the next file change after resume --approve-file-changes, and no longer after --no-approve-file-changes", async () => {
    // The coder's call after its first write hangs: Ctrl-C stops the session between the two writes.
    expect((await interruptAt(["run", "--approval", "ask", "Add greet with a test"], coderAfter(1))).code).toBe(130);
    expect(fs.existsSync(path.join(ws.root, "src/greet.js"))).toBe(true);

    const resumed = await cli(["resume", "--approve-file-changes"], "");
    expect(resumed.stdout).toContain("approve file changes: off → on for the rest of the session");
    expect(resumed.stdout).toContain("wants to change a file:");
    expect(resumed.stdout).toContain("test/greet.test.js");
    // Nobody answered (stdin is closed): the write waits, unmade.
    expect(resumed.code).toBe(130);
    expect(fs.existsSync(path.join(ws.root, "test/greet.test.js"))).toBe(false);

    // The pending write is judged again under the new policy: made unasked; the test command still asks (ask mode).
    const off = await cli(["resume", "--no-approve-file-changes"], "");
    expect(off.stdout).toContain("approve file changes: on → off for the rest of the session");
    expect(off.stdout).not.toContain("wants to change a file:");
    expect(fs.existsSync(path.join(ws.root, "test/greet.test.js"))).toBe(true);
    expect(off.stdout).toContain("wants to run in");
    expect(off.code).toBe(130);
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

  it("run --no-allow-network keeps the network closed when mini-cursor.json opens it", async () => {
    fs.writeFileSync(path.join(ws.root, "mini-cursor.json"), '{ "network": true }\n');
    script = commandScript([fetchCommand(`${server.baseUrl}/models`)]);
    const closed = await cli(["run", "--no-allow-network", "Fetch the model list"]);
    expect(closed.stdout).toContain("│ FETCH FAILED: ECONNREFUSED");
    expect(closed.code).toBe(0);
    // The file alone opens it: the flag is what closed it.
    const open = await cli(["run", "Fetch the model list"]);
    expect(open.stdout).toContain("│ BODY:");
  });

  it("refuses a switch given with its --no- form, in one line", async () => {
    expect((await cli(["run", "--max-steps", "1", "Add greet with a test"])).code).toBe(1);
    const bad = await cli(["resume", "--allow-network", "--no-allow-network"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("mini-cursor: --allow-network and --no-allow-network contradict each other; give one\n");
  });

  it("refuses a value it cannot use, in one line", async () => {
    expect((await cli(["run", "--max-steps", "1", "Add greet with a test"])).code).toBe(1);
    const bad = await cli(["resume", "--approval", "sometimes"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('mini-cursor: --approval must be ask, auto or read-only, got "sometimes"\n');
  });
});
