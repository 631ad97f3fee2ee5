import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, toolResults, type ScriptedReply, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { userText } from "./follow-up-script.js";
import { roleOf } from "./task-script.js";
import { TmuxTerminal } from "./tmux-terminal.js";

/**
 * `mini-cursor` at a terminal (tmux): one conversation, each message a turn of one session. A message asks for a
 * command as RUN[command]: the planner plans one coder step for it, the coder runs it and reports, the reviewer
 * approves. Replies depend only on the request.
 */
const command = (text: string): string | undefined => [...text.matchAll(/RUN\[([^\]]+)\]/g)].at(-1)?.[1];

function chatScript(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  const text = userText(req);
  if (role === "planner") {
    const followUps = [...text.matchAll(/Follow-up instruction \(turn \d+\): ([^\n]*)/g)];
    const wanted = command(followUps.at(-1)?.[1] ?? text) ?? "true";
    if (text.includes(`ran «${wanted}»`))
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: `Ran ${wanted}.` } }] };
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal: `Run «${wanted}»` }], finished: false } }] };
  }
  if (role === "coder") {
    const wanted = /Your step \(s\d+\): Run «([^»]+)»/.exec(text)?.[1] ?? "true";
    if (toolResults(req).length === 0) return { toolCalls: [{ name: "execute_command", args: { command: wanted } }] };
    return { toolCalls: [{ name: "submit_work", args: { status: "done", summary: `ran «${wanted}»` } }] };
  }
  if (role === "reviewer") return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "ok" } }] };
  return { toolCalls: [{ name: "submit_findings", args: { summary: "nothing", findings: [] } }] };
}

const APPROVE = "Approve? [y]es";

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;
let terminal: TmuxTerminal | null = null;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(chatScript);
  ws = await makeTempWorkspace({ "package.json": "{}\n", "notes.md": "The deploy word is PELICAN-42.\n" });
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "ask", NO_COLOR: "1" };
});
afterEach(async () => {
  terminal?.close();
  terminal = null;
  await server.close();
  await ws.cleanup();
});

/** Types a line and Enter. */
function send(tty: TmuxTerminal, line: string): void {
  tty.type(line);
  tty.type("\r");
}

/**
 * Waits until `text` has appeared `times` times in the terminal's history (the input line at the bottom is redrawn
 * in place, so positions in the history are no marks; counts are).
 */
async function shows(tty: TmuxTerminal, text: string, times: number, what: string): Promise<string> {
  return tty.waitFor(
    (s) => s.split(text).length - 1 >= times,
    what,
    60_000,
    () => tty.history(),
  );
}

describe("a conversation at the terminal", () => {
  it("runs a task with an inline approval, shows /diff, follows up on the first turn, undoes, and leaves with /exit", async () => {
    terminal = TmuxTerminal.start([], { cwd: ws.root, env, cols: 100, rows: 40 });
    const tty = terminal;
    await shows(tty, "/help for commands", 1, "the prompt");

    send(tty, "Make the greeting: RUN[echo hi > hello.txt]");
    await shows(tty, APPROVE, 1, "the approval");
    tty.type("y\r");
    await shows(tty, "· done", 1, "the end of the first turn");
    expect(await fs.readFile(path.join(ws.root, "hello.txt"), "utf8")).toBe("hi\n");

    send(tty, "/diff");
    expect(await shows(tty, "+++ b/hello.txt", 1, "the diff")).toContain("+hi");

    // A follow-up sees the first turn's work: the planner's request has its report.
    const before = server.requests.length;
    send(tty, "Now the farewell too: RUN[echo bye > bye.txt]");
    await shows(tty, APPROVE, 2, "the second approval");
    tty.type("a\r");
    await shows(tty, "· done", 2, "the end of the follow-up");
    const planner = server.requests.slice(before).find((r) => roleOf(r) === "planner");
    expect(planner && userText(planner)).toContain("ran «echo hi > hello.txt»");
    expect(await fs.readFile(path.join(ws.root, "bye.txt"), "utf8")).toBe("bye\n");

    send(tty, "/undo");
    expect(await shows(tty, "Undid session", 1, "the undo")).toContain(": 0 restored, 2 removed, 0 skipped.");
    await expect(fs.access(path.join(ws.root, "hello.txt"))).rejects.toThrow();

    send(tty, "/exit");
    expect(await tty.exitCode()).toBe(0);
    const sessions = JSON.parse((await runCli(["sessions", "--json"], { cwd: ws.root, env })).stdout) as { id: string; turns: number }[];
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.turns).toBe(2);
  }, 180_000);

  it("puts an @file into the turn, stops a running command on Esc keeping the session, and goes on with it after -c", async () => {
    terminal = TmuxTerminal.start([], { cwd: ws.root, env: { ...env, MINI_CURSOR_APPROVAL: "auto" }, cols: 100, rows: 40 });
    const tty = terminal;
    await shows(tty, "/help for commands", 1, "the prompt");

    send(tty, "Read @notes.md then RUN[echo started; sleep 60]");
    await shows(tty, "│ started", 1, "the command's output");
    const planner = server.requests.find((r) => roleOf(r) === "planner");
    expect(planner && userText(planner)).toContain("The deploy word is PELICAN-42.");
    tty.key("Escape");
    expect(await shows(tty, "The session is kept", 1, "the stop")).toMatch(/execute_command was stopped by Esc[\s\S]*· interrupted/);

    // Ctrl-C twice leaves; the session can be continued.
    tty.key("C-c");
    tty.key("C-c");
    expect(await tty.exitCode()).toBe(0);
    const [session] = JSON.parse((await runCli(["sessions", "--json"], { cwd: ws.root, env })).stdout) as { id: string; status: string }[];
    expect(session?.status).toBe("interrupted");
    terminal.close();

    terminal = TmuxTerminal.start(["-c"], { cwd: ws.root, env: { ...env, MINI_CURSOR_APPROVAL: "auto" }, cols: 100, rows: 40 });
    const again = terminal;
    await shows(again, `Going on with session ${session?.id ?? "?"}`, 1, "the continued session");
    send(again, "Then RUN[echo more > more.txt]");
    await shows(again, "· done", 1, "the end of the turn");
    expect(await fs.readFile(path.join(ws.root, "more.txt"), "utf8")).toBe("more\n");
    send(again, "/exit");
    expect(await again.exitCode()).toBe(0);
  }, 180_000);

  it("says to use run without a terminal", async () => {
    const result = await runCli([], { cwd: ws.root, env });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'mini-cursor: a conversation needs a terminal; in scripts use mini-cursor run "<task>" and mini-cursor resume --message "<follow-up>"',
    );
  });
});
