import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./cli-process.js";
import { userText } from "../../helpers/scripted-openai-server.js";
import { roleOf } from "./task-script.js";
import { APPROVE, chatScript } from "./chat-script.js";
import { useChatTerminal } from "./chat-terminal.js";

/**
 * `mini-cursor` at a terminal (tmux): one conversation, each message a turn of one session. A message asks for a
 * command as RUN[command]: the planner plans one coder step for it, the coder runs it and reports, the reviewer
 * approves. Replies depend only on the request.
 */

const fx = useChatTerminal(chatScript, { "package.json": "{}\n", "notes.md": "The deploy word is PELICAN-42.\n" });

describe("a conversation at the terminal", () => {
  it("runs a task with an inline approval, shows /diff, follows up on the first turn, undoes, and leaves with /exit", async () => {
    const tty = fx.start([]);
    await tty.shows("/help for commands", 1, "the prompt");

    tty.sendLine("Make the greeting: RUN[echo hi > hello.txt]");
    await tty.shows(APPROVE, 1, "the approval");
    tty.type("y\r");
    await tty.shows("· done", 1, "the end of the first turn");
    expect(await fs.readFile(path.join(fx.ws.root, "hello.txt"), "utf8")).toBe("hi\n");

    tty.sendLine("/diff");
    expect(await tty.shows("+++ b/hello.txt", 1, "the diff")).toContain("+hi");

    // A follow-up sees the first turn's work: the planner's request has its report.
    const before = fx.server.requests.length;
    tty.sendLine("Now the farewell too: RUN[echo bye > bye.txt]");
    await tty.shows(APPROVE, 2, "the second approval");
    tty.type("a\r");
    await tty.shows("· done", 2, "the end of the follow-up");
    const planner = fx.server.requests.slice(before).find((r) => roleOf(r) === "planner");
    expect(planner && userText(planner)).toContain("ran «echo hi > hello.txt»");
    expect(await fs.readFile(path.join(fx.ws.root, "bye.txt"), "utf8")).toBe("bye\n");

    tty.sendLine("/undo");
    expect(await tty.shows("Undid session", 1, "the undo")).toContain(": 0 restored, 2 removed, 0 skipped.");
    await expect(fs.access(path.join(fx.ws.root, "hello.txt"))).rejects.toThrow();

    tty.sendLine("/exit");
    expect(await tty.exitCode()).toBe(0);
    const sessions = JSON.parse((await runCli(["sessions", "--json"], { cwd: fx.ws.root, env: fx.env })).stdout) as { id: string; turns: number }[];
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.turns).toBe(2);
  }, 180_000);

  it("puts an @file into the turn, stops a running command on Esc keeping the session, and goes on with it after -c", async () => {
    const tty = fx.start([], { env: { MINI_CURSOR_APPROVAL: "auto" } });
    await tty.shows("/help for commands", 1, "the prompt");

    tty.sendLine("Read @notes.md then RUN[echo started; sleep 60]");
    await tty.shows("│ started", 1, "the command's output");
    const planner = fx.server.requests.find((r) => roleOf(r) === "planner");
    expect(planner && userText(planner)).toContain("The deploy word is PELICAN-42.");
    tty.key("Escape");
    expect(await tty.shows("The session is kept", 1, "the stop")).toMatch(/execute_command was stopped by Esc[\s\S]*· interrupted/);

    // Ctrl-C twice leaves; the session can be continued.
    tty.key("C-c");
    tty.key("C-c");
    expect(await tty.exitCode()).toBe(0);
    const [session] = JSON.parse((await runCli(["sessions", "--json"], { cwd: fx.ws.root, env: fx.env })).stdout) as { id: string; status: string }[];
    expect(session?.status).toBe("interrupted");

    // Continued in a new process and terminal (fx.start closes the old one).
    const again = fx.start(["-c"], { env: { MINI_CURSOR_APPROVAL: "auto" } });
    await again.shows(`Going on with session ${session?.id ?? "?"}`, 1, "the continued session");
    again.sendLine("Then RUN[echo more > more.txt]");
    await again.shows("· done", 1, "the end of the turn");
    expect(await fs.readFile(path.join(fx.ws.root, "more.txt"), "utf8")).toBe("more\n");
    again.sendLine("/exit");
    expect(await again.exitCode()).toBe(0);
  }, 180_000);

  it("says to use run without a terminal", async () => {
    const result = await runCli([], { cwd: fx.ws.root, env: fx.env });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'mini-cursor: a conversation needs a terminal; in scripts use mini-cursor run "<task>" and mini-cursor resume --message "<follow-up>"',
    );
  });
});
