import { describe, expect, it, vi } from "vitest";
import type { ApprovalAnswer, ApprovalRequest } from "../../../../src/core/index.js";
import { APPROVAL_PROMPT, RETRY_LINE } from "../../../../src/faces/cli/approval-prompt.js";
import { ChatController } from "../../../../src/faces/cli/chat/chat-controller.js";
import { BUILT_IN_COMMANDS, customSlashCommand } from "../../../../src/faces/cli/chat/slash-commands.js";
import type { ConversationSettings, TurnRequest, TurnResult } from "../../../../src/host/conversation-turn.js";

const REQUEST: ApprovalRequest = {
  type: "approval",
  kind: "command",
  agent: "coder",
  stepId: "s1",
  tool: "execute_command",
  subject: "rm -rf build",
  cwd: "/w",
  preview: "rm -rf build",
  suggestedPattern: "rm *",
};

/** One turn of the fake session host: what it was asked, and how the test ends it. */
interface FakeTurn {
  request: TurnRequest;
  /** The settings as they were when the turn started (the controller's object changes in place). */
  settings: ConversationSettings;
  finish(result?: Partial<TurnResult>): void;
  /** The approval's answer, once the turn asked one (see `asks`). */
  answer?: Promise<ApprovalAnswer | null>;
}

/**
 * A conversation on a fake runTurn: each turn prints a notice to the printer it is given, asks an approval through its
 * prompter when `asks` is set, and ends when the test finishes it or, cancelled, when its signal aborts (unless
 * `holdOnCancel`).
 */
function conversation(o: { asks?: boolean; holdOnCancel?: boolean; adopt?: (id: string) => Promise<void> } = {}) {
  const turns: FakeTurn[] = [];
  const left: number[] = [];
  const settings: ConversationSettings = { approval: "ask", allowNetwork: false, approveFileChanges: false };
  const runTurn = (request: TurnRequest): Promise<TurnResult> =>
    new Promise((resolve) => {
      const finish = (result: Partial<TurnResult> = {}): void => resolve({ status: "done", stop: null, cancelled: false, errorLine: null, ...result });
      const turn: FakeTurn = { request, settings: { ...request.settings }, finish };
      turns.push(turn);
      request.printer.emit({ type: "notice", level: "info", message: `working on: ${request.text}` });
      request.printer.emit({ type: "step_started", stepId: "s1", agent: "coder", goal: "Do it" });
      if (o.asks) turn.answer = request.prompter(undefined).ask(REQUEST);
      request.cancel.addEventListener("abort", () => {
        if (!o.holdOnCancel) finish({ status: "interrupted", cancelled: true });
      });
    });
  const controller = new ChatController({
    workspace: "/w",
    env: {},
    clock: { now: () => 1_000 },
    sessionId: "session-1",
    settings,
    runTurn,
    newSessionId: () => "session-new",
    commands: [
      ...BUILT_IN_COMMANDS,
      customSlashCommand({ name: "ship", description: "Ship it", prompt: "Ship $ARGUMENTS to production.", source: ".claude/commands/ship.md" }),
    ],
    expand: (text) => Promise.resolve({ text: text.replace("@a.md", "@a.md\n\n(a.md's content)"), notes: text.includes("@a.md") ? ["a note"] : [] }),
    color: false,
    onLeave: (code) => void left.push(code),
    ...(o.adopt ? { adoptSession: o.adopt } : {}),
  });
  const lines = (): readonly string[] => controller.snapshot().lines;
  /** Waits for the nth turn (1-based) to start. */
  const turn = async (n: number): Promise<FakeTurn> => {
    await vi.waitFor(() => expect(turns.length).toBeGreaterThanOrEqual(n));
    const found = turns[n - 1];
    if (!found) throw new Error(`no turn ${n}`);
    return found;
  };
  const idle = (): Promise<void> => vi.waitFor(() => expect(controller.busy).toBe(false));
  return { controller, turns, left, settings, lines, turn, idle };
}

describe("the conversation's turns", () => {
  it("starts a turn with a message: its session, settings, text with mentions filled in, and the events in the transcript", async () => {
    const { controller, lines, turn, idle } = conversation();
    controller.submit("  read @a.md  ");
    const first = await turn(1);
    expect(first.request).toMatchObject({ sessionId: "session-1", workspace: "/w", text: "read @a.md\n\n(a.md's content)" });
    expect(first.settings).toEqual({ approval: "ask", allowNetwork: false, approveFileChanges: false });
    expect(controller.busy).toBe(true);
    expect(controller.snapshot()).toMatchObject({ status: "s1 coder: Do it", since: 1_000 });
    expect(lines().slice(0, 3)).toEqual(["› read @a.md", "ℹ a note", "ℹ working on: read @a.md"]);
    first.finish();
    await idle();
    expect(controller.snapshot()).toMatchObject({ status: null, since: null, question: null });
  });

  it("ignores an empty line", async () => {
    const { controller, turns, lines } = conversation();
    controller.submit("   ");
    await Promise.resolve();
    expect(turns).toHaveLength(0);
    expect(lines()).toEqual([]);
  });

  it("queues messages typed while a turn runs and sends them in order after it", async () => {
    const { controller, lines, turn, turns, idle } = conversation();
    controller.submit("first");
    const first = await turn(1);
    controller.submit("second");
    controller.submit("third");
    expect(controller.snapshot().queued).toBe(2);
    expect(lines()).toContain("⋯ queued for after this turn: second");
    expect(lines()).toContain("⋯ queued for after this turn: third");
    expect(turns).toHaveLength(1);
    first.finish();
    const second = await turn(2);
    expect(second.request.text).toBe("second");
    expect(controller.snapshot().queued).toBe(1);
    second.finish();
    const third = await turn(3);
    expect(third.request.text).toBe("third");
    expect(controller.snapshot().queued).toBe(0);
    third.finish();
    await idle();
    expect(turns.map((t) => t.request.text)).toEqual(["first", "second", "third"]);
  });

  it("queues a slash command typed while a turn runs: /approval changes only the turns after it", async () => {
    const { controller, lines, turn, settings, idle } = conversation();
    controller.submit("first");
    const first = await turn(1);
    controller.submit("/approval auto");
    controller.submit("second");
    expect(lines()).toContain("⋯ queued for after this turn: /approval auto");
    expect(settings.approval).toBe("ask");
    first.finish();
    const second = await turn(2);
    expect(second.settings.approval).toBe("auto");
    expect(lines()).toContain("Approval: auto from the next message on.");
    second.finish();
    await idle();
    expect(first.settings.approval).toBe("ask");
  });

  it("answers /help at once while a turn runs", async () => {
    const { controller, lines, turn, turns } = conversation();
    controller.submit("first");
    await turn(1);
    controller.submit("/help");
    expect(lines().join("\n")).toContain("Esc stops the running turn");
    expect(lines().join("\n")).toMatch(/\/ship\s+Ship it \(\.claude\/commands\/ship\.md\)/);
    expect(lines().some((l) => l.startsWith("⋯ queued"))).toBe(false);
    expect(controller.snapshot().queued).toBe(0);
    turns[0]?.finish();
  });

  it("leaves at once on /exit while a turn runs: the turn is stopped, queued messages dropped, then the conversation ends", async () => {
    const { controller, turn, turns, left } = conversation({ holdOnCancel: true });
    controller.submit("first");
    const first = await turn(1);
    controller.submit("queued one");
    controller.submit("/exit");
    expect(first.request.cancel.aborted).toBe(true);
    expect(first.request.cancel.reason).toBe("leaving");
    await Promise.resolve();
    expect(left).toEqual([]);
    first.finish({ status: "interrupted", cancelled: true });
    await vi.waitFor(() => expect(left).toEqual([0]));
    expect(turns).toHaveLength(1);
  });

  it("says so for an unknown /command, and sends nothing", async () => {
    const { controller, lines, turns, idle } = conversation();
    controller.submit("/nope now");
    await idle();
    expect(lines()).toEqual(["Unknown command /nope; /help lists them."]);
    expect(turns).toHaveLength(0);
  });

  it("sends a custom command's message as a turn, and queues what is typed while it runs", async () => {
    const { controller, lines, turn, turns, left, idle } = conversation({ holdOnCancel: true });
    controller.submit("/ship the release");
    const first = await turn(1);
    expect(first.request.text).toBe("Ship the release to production.");
    expect(controller.busy).toBe(true);
    controller.submit("and then this");
    expect(lines()).toContain("⋯ queued for after this turn: and then this");
    expect(turns).toHaveLength(1);
    // Leaving waits for the custom command's turn, as for any other.
    const leaving = controller.leave(0);
    expect(first.request.cancel.aborted).toBe(true);
    await Promise.resolve();
    expect(left).toEqual([]);
    first.finish({ status: "interrupted", cancelled: true });
    await leaving;
    expect(left).toEqual([0]);
    await idle();
    expect(turns).toHaveLength(1);
  });
});

describe("answers, stops and leaving", () => {
  it("answers the turn's approval with the next line; a bad answer prints the retry line and asks again", async () => {
    const { controller, lines, turn, idle } = conversation({ asks: true });
    controller.submit("clean up");
    const first = await turn(1);
    const prompt = APPROVAL_PROMPT(REQUEST);
    await vi.waitFor(() => expect(controller.snapshot().question).toBe(prompt));
    controller.submit("maybe");
    expect(lines().slice(-2)).toEqual([`${prompt}maybe`, RETRY_LINE.trimEnd()]);
    expect(controller.snapshot().question).toBe(prompt);
    controller.submit("n not now");
    expect(controller.snapshot().question).toBeNull();
    expect(await first.answer).toEqual({ decision: "reject", reason: "not now" });
    expect(lines().at(-1)).toBe(`${prompt}n not now`);
    first.finish();
    await idle();
  });

  it("gives a waiting approval null when the turn ends without an answer", async () => {
    const { controller, turn, idle } = conversation({ asks: true });
    controller.submit("clean up");
    const first = await turn(1);
    await vi.waitFor(() => expect(controller.snapshot().question).not.toBeNull());
    first.finish();
    await idle();
    expect(await first.answer).toBeNull();
    expect(controller.snapshot().question).toBeNull();
  });

  it("stops the running turn with the reason, once; the session is kept", async () => {
    const { controller, lines, turn, idle } = conversation();
    expect(controller.stop("Esc")).toBe(false);
    controller.submit("long job");
    const first = await turn(1);
    expect(controller.stop("Esc")).toBe(true);
    expect(first.request.cancel.aborted).toBe(true);
    expect(first.request.cancel.reason).toBe("Esc");
    expect(controller.stop("Ctrl-C")).toBe(false);
    await idle();
    expect(lines().at(-1)).toBe("Stopped. The session is kept: your next message goes on from here.");
  });

  it("leave() waits for the running turn to end, then calls onLeave once", async () => {
    const { controller, turn, left } = conversation({ holdOnCancel: true });
    controller.submit("long job");
    const first = await turn(1);
    const leaving = controller.leave(3);
    expect(first.request.cancel.reason).toBe("leaving");
    await new Promise((r) => setImmediate(r));
    expect(left).toEqual([]);
    first.finish({ cancelled: true });
    await leaving;
    await controller.leave(0);
    expect(left).toEqual([3]);
  });

  it("leave() without a turn ends at once", async () => {
    const { controller, left } = conversation();
    await controller.leave(0);
    expect(left).toEqual([0]);
  });
});

describe("slash commands between turns", () => {
  it("/approval changes the settings of the next turn; a bad mode only says what it is", async () => {
    const { controller, lines, turn, idle } = conversation();
    controller.submit("/approval sometimes");
    await idle();
    expect(lines()).toHaveLength(2);
    expect(lines()[0]).toBe("› /approval sometimes");
    expect(lines()[1]).toMatch(/^Approval is ask; \/approval (?=.*ask)(?=.*auto)(?=.*read-only)[a-z|-]+ changes it\.$/);
    controller.submit("/approval auto");
    await idle();
    controller.submit("go");
    const first = await turn(1);
    expect(first.settings.approval).toBe("auto");
    first.finish();
    await idle();
  });

  it("/clear starts a new session for the next message", async () => {
    const { controller, lines, turn, idle } = conversation();
    controller.submit("/clear");
    await idle();
    expect(lines().at(-1)).toBe("New session session-new: the next message is its task.");
    controller.submit("go");
    expect((await turn(1)).request.sessionId).toBe("session-new");
  });
});

describe("picking a session (-r)", () => {
  const choices = [
    { id: "a", label: "done  first task" },
    { id: "b", label: "failed  second task" },
  ];

  it("lists the sessions and goes on with the one whose number is typed", async () => {
    const { controller, lines, turn } = conversation();
    controller.pick(choices);
    expect(lines()).toEqual(["Sessions of this workspace, newest first:", "   1. a  done  first task", "   2. b  failed  second task"]);
    const prompt = controller.snapshot().question;
    expect(prompt).toBe("Go on with which one? (number; Enter for a new session) ");
    controller.submit("2");
    expect(controller.snapshot()).toMatchObject({ question: null, sessionId: "b" });
    expect(lines().slice(-2)).toEqual([`${prompt}2`, "Going on with session b."]);
    controller.submit("more");
    expect((await turn(1)).request.sessionId).toBe("b");
  });

  it("refuses a number that is not on the list, and asks again", () => {
    const { controller, lines, turns } = conversation();
    controller.pick(choices);
    for (const bad of ["3", "0", "x", "1.5"]) {
      controller.submit(bad);
      expect(lines().at(-1)).toBe("Type a number from 1 to 2, or Enter for a new session.");
      expect(controller.snapshot().question).not.toBeNull();
    }
    expect(controller.snapshot().sessionId).toBe("session-1");
    controller.submit("");
    expect(controller.snapshot()).toMatchObject({ question: null, sessionId: "session-1" });
    expect(turns).toHaveLength(0);
  });
});

describe("going on with another session", () => {
  it("takes that session's settings before its next turn, and stays where it was when there is no such session", async () => {
    const c = conversation({
      adopt: async (id) => {
        if (id !== "session-2") throw new Error(`no session "${id}"`);
        c.settings.approval = "auto";
      },
    });
    c.controller.submit("/resume session-9");
    await c.idle();
    await vi.waitFor(() => expect(c.lines().join("\n")).toContain('no session "session-9"; going on with session session-1'));
    expect(c.controller.snapshot().sessionId).toBe("session-1");
    c.controller.submit("/resume session-2");
    await c.idle();
    c.controller.submit("next");
    const turn = await c.turn(1);
    expect(turn.request.sessionId).toBe("session-2");
    expect(turn.settings.approval).toBe("auto");
    turn.finish();
    await c.idle();
  });
});
