import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, toolResults, type Script, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { commandScript } from "../../safety/approval-script.js";
import { runCli } from "./cli-process.js";
import { count, startPtyCli, type PtyCli } from "./pty-cli.js";
import { roleOf } from "./task-script.js";

const PROMPT = "Approve? [y]es";
const TWO = ["echo one >> ran.txt", "echo two >> ran.txt"];

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;
/** Holds the coder's request after its first command until the test opens it (the CLI waits on the model). */
let held: { reached: Promise<void>; open: () => void };
const ptys: PtyCli[] = [];

function holdAfterFirstCommand(): void {
  let reached = (): void => {};
  let open = (): void => {};
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  held = { reached: arrived, open };
  const script = commandScript(TWO);
  gateScript = async (req) => {
    if (roleOf(req) === "coder" && toolResults(req).length === 1) {
      reached();
      await opened;
    }
    return script(req);
  };
}

let gateScript: Script;

beforeEach(async () => {
  gateScript = commandScript(TWO);
  server = await startScriptedOpenAIServer((req) => gateScript(req));
  ws = await makeTempWorkspace({ "package.json": "{}\n" });
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "ask" };
});

afterEach(async () => {
  held?.open();
  for (const pty of ptys.splice(0)) {
    pty.kill();
    await pty.done;
  }
  await server.close();
  await ws.cleanup();
});

function pty(args: string[]): PtyCli {
  const started = startPtyCli(args, { cwd: ws.root, env });
  ptys.push(started);
  return started;
}

/** What the tools answered, as the coder's last request carries them. */
const coderResults = (): string[] => {
  const last = server.requests.filter((r) => roleOf(r) === "coder").at(-1);
  return last ? toolResults(last).map((r) => r.content) : [];
};

describe("approvals at a terminal", () => {
  /**
   * Answers the first question, types `keys` while the CLI waits on the model (before the second question exists),
   * then rejects the second: the typed-ahead keys must answer nothing, and the CLI says it threw them away.
   */
  async function typeAhead(keys: string, echoed: (screen: string) => boolean): Promise<void> {
    holdAfterFirstCommand();
    const cli = pty(["run", "Run the checks"]);
    await cli.shows((s) => count(s, PROMPT) === 1, "the first question");
    cli.type("y\r");
    await held.reached;
    const mark = cli.screen().length;
    cli.type(keys);
    // The terminal echoed them: they are in the terminal's input, typed ahead of the question.
    await cli.shows((s) => echoed(s.slice(mark)), "the typed-ahead keys' echo");
    held.open();
    await cli.shows((s) => count(s, PROMPT) === 2, "the second question");
    cli.type("n nope\r");
    expect(await cli.done).toBe(0);
    expect(await fs.readFile(path.join(ws.root, "ran.txt"), "utf8")).toBe("one\n");
    expect(coderResults()[1]).toMatch(/^Error: the user rejected this command: nope\./);
    expect(cli.screen()).toContain("(ignored keys typed before this question)");
  }

  it("ignores a `y` typed before the next question: that question waits for a fresh answer", async () => {
    await typeAhead("yes\r", (after) => after.includes("yes"));
  });

  it("says so when the keys typed ahead were only Enter: a bare Enter is thrown away too, never silently", async () => {
    await typeAhead("\r", (after) => after.length > 0);
  });

  it("a key pressed after the question answers it (Backspace edits the answer)", async () => {
    const cli = pty(["run", "Run the checks"]);
    await cli.shows((s) => count(s, PROMPT) === 1, "the first question");
    cli.type("nx\u007f\u007fy\r");
    await cli.shows((s) => count(s, PROMPT) === 2, "the second question");
    cli.type("a\r");
    expect(await cli.done).toBe(0);
    expect(await fs.readFile(path.join(ws.root, "ran.txt"), "utf8")).toBe("one\ntwo\n");
  });

  it("Ctrl-C at the question exits 130 at once, the approval pending; resume asks it again without a model call", async () => {
    const cli = pty(["run", "Run the checks"]);
    await cli.shows((s) => count(s, PROMPT) === 1, "the question");
    cli.type("\u0003");
    expect(await cli.done).toBe(130);
    expect(cli.screen()).toMatch(/Interrupted; the approval is still pending\. Answer it with: mini-cursor resume \S+\n/);
    await expect(fs.access(path.join(ws.root, "ran.txt"))).rejects.toThrow();
    const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: ws.root, env })).stdout) as { status: string }[];
    expect(listed[0]?.status).toBe("awaiting_approval");

    const coderCalls = () => server.requests.filter((r) => roleOf(r) === "coder").length;
    const before = coderCalls();
    const resumed = pty(["resume"]);
    await resumed.shows((s) => count(s, PROMPT) === 1, "the same question again");
    expect(resumed.screen()).toContain("echo one >> ran.txt");
    // The question came back from the checkpoint: the model was not asked to choose the command again.
    expect(coderCalls()).toBe(before);
    resumed.type("y\r");
    await resumed.shows((s) => count(s, PROMPT) === 2, "the next question");
    resumed.type("y\r");
    expect(await resumed.done).toBe(0);
    expect(await fs.readFile(path.join(ws.root, "ran.txt"), "utf8")).toBe("one\ntwo\n");
  });
});

describe("approvals from a pipe (scripts, tests)", () => {
  it("answers queued before the questions still answer them, in order", async () => {
    const result = await runCli(["run", "Run the checks"], { cwd: ws.root, env, input: "y\nn nope\n" });
    expect(result.code).toBe(0);
    expect(await fs.readFile(path.join(ws.root, "ran.txt"), "utf8")).toBe("one\n");
    expect(coderResults()[1]).toMatch(/^Error: the user rejected this command: nope\./);
  });
});
