import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli, startCli, type CliRun } from "./cli-process.js";
import { GREET_SOURCE, greetScript, roleOf } from "./task-script.js";

/** Holds the first request matching `when` (the CLI waits on it) and tells the test it arrived. */
class Gate {
  hold: ((req: ScriptedRequest) => boolean) | null = null;
  private release: (() => void) | null = null;
  reached: Promise<void> = Promise.resolve();

  arm(when: (req: ScriptedRequest) => boolean): void {
    this.hold = when;
    this.reached = new Promise((resolve) => (this.release = resolve));
  }

  check(req: ScriptedRequest): boolean {
    if (!this.hold || !this.hold(req)) return false;
    this.hold = null;
    this.release?.();
    return true;
  }
}

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;
let gate: Gate;
const running: CliRun[] = [];

beforeEach(async () => {
  gate = new Gate();
  server = await startScriptedOpenAIServer((req) => (gate.check(req) ? { hangMs: 60_000 } : greetScript(req)));
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" };
});
afterEach(async () => {
  for (const run of running.splice(0)) run.child.kill("SIGKILL");
  await server.close();
  await ws.cleanup();
});

const firstReviewerCall = (req: ScriptedRequest) => roleOf(req) === "reviewer" && req.messages.every((m) => m.role !== "tool");

function start(args: string[]): CliRun {
  const run = startCli(args, { cwd: ws.root, env });
  running.push(run);
  return run;
}

async function sessionList(): Promise<{ id: string; status: string }[]> {
  const listed = await runCli(["sessions", "--json"], { cwd: ws.root, env });
  return JSON.parse(listed.stdout) as { id: string; status: string }[];
}

/** The report without what legitimately differs between runs: the usage block (token counts follow command output) and the session line after it. */
function comparableReport(stdout: string): string {
  const report = stdout.slice(stdout.lastIndexOf("\nDone: "));
  return report.slice(0, report.indexOf("\nTokens:"));
}

describe("sessions survive kills and interrupts", () => {
  it("resumes after SIGKILL mid-session without repeating completed steps, reaching the same final state", async () => {
    const reference = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
    const uninterrupted = await runCli(["run", "Add greet with a test"], { cwd: reference.root, env });
    await reference.cleanup();
    expect(uninterrupted.code).toBe(0);

    gate.arm(firstReviewerCall);
    const first = start(["run", "Add greet with a test"]);
    await gate.reached;
    first.child.kill("SIGKILL");
    await first.done;

    const [session] = await sessionList();
    expect(session?.status).toBe("interrupted");
    expect(await fs.readFile(path.join(ws.root, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);

    const before = server.requests.length;
    const resumed = await runCli(["resume"], { cwd: ws.root, env });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);

    const after = server.requests.slice(before);
    expect(after.filter((r) => roleOf(r) === "coder")).toHaveLength(0);
    expect(after.some((r) => r.messages.some((m) => m.content.includes("There is no plan yet")))).toBe(false);
    expect(after.filter((r) => roleOf(r) === "reviewer").length).toBeGreaterThan(0);
    expect(resumed.stdout).toContain(`mini-cursor resuming ${session?.id}`);
    expect(resumed.stdout).not.toContain("▶ s1 coder");
    expect(resumed.stdout).toContain("review: approve");
    expect(comparableReport(resumed.stdout)).toBe(comparableReport(uninterrupted.stdout));
    expect((await sessionList())[0]?.status).toBe("done");
  });

  it("refuses a second process on a running session", async () => {
    gate.arm(firstReviewerCall);
    const first = start(["run", "Add greet with a test"]);
    await gate.reached;
    const [session] = await sessionList();
    expect(session?.status).toBe("running");

    const second = await runCli(["resume", session?.id ?? ""], { cwd: ws.root, env });
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/is already running in process \d+/);
    first.child.kill("SIGKILL");
    await first.done;
  });

  it("stops on Ctrl-C with exit 130 and resumes later", async () => {
    gate.arm(firstReviewerCall);
    const first = start(["run", "Add greet with a test"]);
    await gate.reached;
    first.child.kill("SIGINT");
    const { code } = await first.done;
    expect(code).toBe(130);
    expect(first.stdout()).toContain("Interrupted");
    expect((await sessionList())[0]?.status).toBe("interrupted");

    const resumed = await runCli(["resume"], { cwd: ws.root, env });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("review: approve");
  });

  it("restarts a session killed before its first checkpoint from its task", async () => {
    gate.arm((req) => roleOf(req) === "planner");
    const first = start(["run", "Add greet with a test"]);
    await gate.reached;
    first.child.kill("SIGKILL");
    await first.done;

    const resumed = await runCli(["resume"], { cwd: ws.root, env });
    expect(resumed.code).toBe(0);
    expect(await fs.readFile(path.join(ws.root, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    expect(await sessionList()).toHaveLength(1);
  });

  it("says so when the session already finished", async () => {
    expect((await runCli(["run", "Add greet with a test"], { cwd: ws.root, env })).code).toBe(0);
    const again = await runCli(["resume"], { cwd: ws.root, env });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/already finished \(done\); nothing to resume/);
  });
});
