import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ScriptedRequest } from "../../helpers/scripted-openai-server.js";
import { runCli } from "./cli-process.js";
import { userText } from "../../helpers/scripted-openai-server.js";
import { roleOf } from "./task-script.js";
import { APPROVE, chatScript } from "./chat-script.js";
import { useChatTerminal } from "./chat-terminal.js";
import type { TmuxTerminal } from "./tmux-terminal.js";

/**
 * More of `mini-cursor` at a terminal (tmux), with the scripted model of chat-e2e.test.ts: a message asks for a
 * command as RUN[command]; the planner plans one coder step for it, the coder runs it, the reviewer approves.
 */

const PROMPT = "/help for commands";

const fx = useChatTerminal(chatScript, { "package.json": "{}\n", "notes.md": "The deploy word is PELICAN-42.\n" });
const start = (args: string[], extra: Record<string, string> = {}): TmuxTerminal => fx.start(args, { env: extra });

/** Waits until the input line (the visible screen) reads `text`. */
async function inputReads(tty: TmuxTerminal, text: string, what: string): Promise<string> {
  return tty.waitFor((s) => s.split("\n").some((row) => row.trimEnd() === `› ${text}`), what, 20_000);
}

async function leave(tty: TmuxTerminal): Promise<void> {
  tty.sendLine("/exit");
  expect(await tty.exitCode()).toBe(0);
}

const planners = (from = 0): ScriptedRequest[] => fx.server.requests.slice(from).filter((r) => roleOf(r) === "planner");

async function sessions(): Promise<{ id: string; turns: number; task: string }[]> {
  return JSON.parse((await runCli(["sessions", "--json"], { cwd: fx.ws.root, env: fx.env })).stdout) as { id: string; turns: number; task: string }[];
}

describe("more of the conversation at the terminal", () => {
  it("runs a custom command from .mini-cursor/commands with its $ARGUMENTS in the planner's request", async () => {
    await fs.mkdir(path.join(fx.ws.root, ".mini-cursor/commands"), { recursive: true });
    await fs.writeFile(
      path.join(fx.ws.root, ".mini-cursor/commands/deploy.md"),
      "---\ndescription: Deploy somewhere\nargument-hint: <target>\n---\nDeploy to $ARGUMENTS now: RUN[echo $ARGUMENTS > target.txt]\n",
    );
    const tty = start([], { MINI_CURSOR_APPROVAL: "auto" });
    await tty.shows(PROMPT, 1, "the prompt");
    tty.sendLine("/help");
    expect(await tty.shows("/deploy <target>", 1, "the custom command in /help")).toContain("Deploy somewhere (.mini-cursor/commands/deploy.md)");

    tty.sendLine("/deploy staging");
    await tty.shows("· done", 1, "the end of the turn");
    const [planner] = planners();
    expect(planner && userText(planner)).toContain("Deploy to staging now: RUN[echo staging > target.txt]");
    expect(await fs.readFile(path.join(fx.ws.root, "target.txt"), "utf8")).toBe("staging\n");
    await leave(tty);
  }, 180_000);

  it("lists the sessions with -r and goes on with the one picked", async () => {
    const cli = { cwd: fx.ws.root, env: { ...fx.env, MINI_CURSOR_APPROVAL: "auto" } };
    expect((await runCli(["run", "First: RUN[echo one > one.txt]"], cli)).code).toBe(0);
    expect((await runCli(["run", "Second: RUN[echo two > two.txt]"], cli)).code).toBe(0);
    const [second, first] = await sessions();

    const tty = start(["-r"], { MINI_CURSOR_APPROVAL: "auto" });
    const list = await tty.shows("Go on with which one?", 1, "the list");
    expect(list).toMatch(new RegExp(`1\\. ${second?.id ?? "?"} .*Second: RUN`));
    expect(list).toMatch(new RegExp(`2\\. ${first?.id ?? "?"} .*First: RUN`));
    tty.sendLine("7");
    await tty.shows("Type a number from 1 to 2, or Enter for a new session.", 1, "the refusal");
    tty.sendLine("2");
    await tty.shows(`Going on with session ${first?.id ?? "?"}.`, 1, "the pick");

    const before = fx.server.requests.length;
    tty.sendLine("Then: RUN[echo three > three.txt]");
    await tty.shows("· done", 1, "the end of the follow-up");
    const planner = planners(before)[0];
    expect(planner && userText(planner)).toContain("ran «echo one > one.txt»");
    expect(planner && userText(planner)).not.toContain("echo two");
    await leave(tty);
    const after = await sessions();
    expect(after.find((s) => s.id === first?.id)?.turns).toBe(2);
    expect(after.find((s) => s.id === second?.id)?.turns).toBe(1);
    expect(after).toHaveLength(2);
  }, 180_000);

  it("runs a writing command without asking after /approval auto", async () => {
    const tty = start([]);
    await tty.shows(PROMPT, 1, "the prompt");
    tty.sendLine("/approval auto");
    await tty.shows("Approval: auto from the next message on.", 1, "the change");
    tty.sendLine("Write it: RUN[echo w > w.txt]");
    const history = await tty.shows("· done", 1, "the end of the turn");
    expect(history).not.toContain(APPROVE);
    expect(await fs.readFile(path.join(fx.ws.root, "w.txt"), "utf8")).toBe("w\n");
    await leave(tty);
  }, 180_000);

  it("keeps /approval and /model with the session at once: -c in a new process finds them without another message", async () => {
    const tty = start([], { MINI_CURSOR_APPROVAL: "auto" });
    await tty.shows(PROMPT, 1, "the prompt");
    tty.sendLine("RUN[echo k > k.txt]");
    await tty.shows("· done", 1, "the end of the turn");
    tty.sendLine("/approval read-only");
    await tty.shows("Approval: read-only from the next message on.", 1, "the change");
    tty.sendLine("/model scripted-large");
    await tty.shows("Model: scripted-large", 1, "the model");
    await leave(tty);
    const again = start(["-c"]);
    await again.shows("Going on with session", 1, "the continued session");
    again.sendLine("/approval");
    await again.shows("Approval is read-only;", 1, "the kept approval");
    again.sendLine("/model");
    await again.shows("Model: scripted-large.", 1, "the kept model");
    await leave(again);
  }, 180_000);

  it("prints the tokens per agent with /cost after a turn", async () => {
    const tty = start([], { MINI_CURSOR_APPROVAL: "auto" });
    await tty.shows(PROMPT, 1, "the prompt");
    tty.sendLine("/cost");
    await tty.shows("Nothing spent yet.", 1, "the cost before any turn");
    tty.sendLine("RUN[echo c > c.txt]");
    await tty.shows("· done", 1, "the end of the turn");
    tty.sendLine("/cost");
    await tty.shows("› /cost", 2, "the second /cost");
    const report = await tty.waitFor(
      (s) => /reviewer · scripted: \d+ in, \d+ out/.test(s.split("› /cost")[2] ?? ""),
      "the cost report",
      30_000,
      () => tty.history(),
    );
    const after = report.split("› /cost")[2] ?? "";
    expect(after).toMatch(/Tokens: \d+ in, \d+ out, \d+ model calls/);
    expect(after).toMatch(/ {2}planner · scripted: \d+ in, \d+ out, \d+ calls/);
    expect(after).toMatch(/ {2}coder · scripted: \d+ in, \d+ out, \d+ calls/);
    await leave(tty);
  }, 180_000);

  it("recalls earlier messages with Up, also those of the last run in this workspace", async () => {
    const first = start([], { MINI_CURSOR_APPROVAL: "auto" });
    await first.shows(PROMPT, 1, "the prompt");
    first.sendLine("Once: RUN[echo once >> once.txt]");
    await first.shows("· done", 1, "the end of the turn");
    await leave(first);

    const tty = start([], { MINI_CURSOR_APPROVAL: "auto" });
    await tty.shows(PROMPT, 1, "the prompt again");
    tty.key("Up");
    await inputReads(tty, "/exit", "the last line typed");
    tty.key("Down");
    await tty.waitFor((s) => !s.includes("› /exit"), "the line cleared by Down", 20_000);
    // Two Ups at once (a held key, a fast typist) walk two lines back.
    tty.type("\x1b[A\x1b[A");
    await inputReads(tty, "Once: RUN[echo once >> once.txt]", "the message before it");
    tty.type("\r");
    await tty.shows("· done", 1, "the end of the repeated turn");
    expect(await fs.readFile(path.join(fx.ws.root, "once.txt"), "utf8")).toBe("once\nonce\n");
    await leave(tty);
  }, 240_000);

  it("completes /di to /diff and @no to @notes.md with Tab", async () => {
    const tty = start([]);
    await tty.shows(PROMPT, 1, "the prompt");
    tty.type("/di");
    await inputReads(tty, "/di", "the typed command");
    tty.key("Tab");
    await inputReads(tty, "/diff", "the completed command");
    tty.type("x");
    await inputReads(tty, "/diff x", "the space after the command");
    tty.key("C-c");
    await tty.waitFor((s) => !s.includes("› /diff"), "the line cleared by Ctrl-C", 20_000);

    tty.type("read @no");
    await inputReads(tty, "read @no", "the typed mention");
    tty.key("Tab");
    await inputReads(tty, "read @notes.md", "the completed mention");
    tty.type("x");
    await inputReads(tty, "read @notes.md x", "the space after the mention");
    tty.key("C-c");
    await tty.waitFor((s) => !s.includes("› read"), "the line cleared by Ctrl-C", 20_000);
    await leave(tty);
  }, 180_000);

  it("sends a line ending in \\ and the next as one message of two lines", async () => {
    const tty = start([], { MINI_CURSOR_APPROVAL: "auto" });
    await tty.shows(PROMPT, 1, "the prompt");
    tty.sendLine("First line of the task\\");
    await tty.waitFor((s) => s.includes("› First line of the task") && !s.includes("task\\"), "the line going on below", 20_000);
    tty.sendLine("second line: RUN[echo two-lines > t.txt]");
    const history = await tty.shows("· done", 1, "the end of the turn");
    expect(history).toContain("› First line of the task\n  second line: RUN[echo two-lines > t.txt]");
    const [planner] = planners();
    expect(planner && userText(planner)).toContain("First line of the task\nsecond line: RUN[echo two-lines > t.txt]");
    expect(await fs.readFile(path.join(fx.ws.root, "t.txt"), "utf8")).toBe("two-lines\n");
    await leave(tty);
  }, 180_000);

  it("writes no colour with NO_COLOR, and colour without it", async () => {
    /**
     * SGR sequences that set a fore- or background colour (30–38, 40–48, 90–97, 100–107), with what is around them;
     * not bold or dim, nor 39 and 49 (the default colours, which tmux writes with every change of attributes).
     */
    const isColour = (p: number): boolean => (p >= 30 && p <= 38) || (p >= 40 && p <= 48) || (p >= 90 && p <= 97) || (p >= 100 && p <= 107);
    const colours = (styled: string): string[] =>
      [...styled.matchAll(/\x1b\[([0-9;]*)m/g)]
        .filter((m) => (m[1] ?? "").split(";").some((p) => isColour(Number(p))))
        .map((m) => JSON.stringify(styled.slice(Math.max(0, m.index - 40), m.index + 40)));
    const conversation = async (extra: Record<string, string>): Promise<string> => {
      const tty = start([], extra);
      await tty.shows(PROMPT, 1, "the prompt");
      tty.sendLine("Greet: RUN[echo hi > hi.txt]");
      await tty.shows(APPROVE, 1, "the approval");
      const styled = tty.styledHistory();
      tty.type("y\r");
      await tty.shows("· done", 1, "the end of the turn");
      await leave(tty);
      return `${styled}\n${tty.styledHistory()}`;
    };
    expect(colours(await conversation({}))).toEqual([]);
    const { NO_COLOR: _dropped, ...coloured } = fx.env;
    fx.env = coloured;
    expect(colours(await conversation({})).length).toBeGreaterThan(0);
  }, 240_000);
});
