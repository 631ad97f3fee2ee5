import type { EventSink, ProgressEvent } from "../../../core/index.js";
import type { ConversationSettings, TurnRequest, TurnResult } from "../../../host/conversation-turn.js";
import type { ApprovalPrompter } from "../../../host/prompter.js";
import type { Clock } from "../../../platform/clock.js";
import { errorMessage } from "../../../platform/error-info.js";
import { APPROVAL_PROMPT, parseAnswer, RETRY_LINE } from "../approval-prompt.js";
import { HumanPrinter } from "../printers/human.js";
import { parseQuestionAnswer, QUESTION_PROMPT, QUESTION_RETRY_LINE } from "../question-prompt.js";
import type { ChatContext, SlashCommand } from "./slash-commands.js";
import { promptForm } from "../form-prompt.js";

/** What the terminal shows: the transcript (only ever appended to), and below it the line being worked on. */
export interface ChatView {
  readonly lines: readonly string[];
  /** While a turn runs: its step and latest tool call. */
  readonly status: string | null;
  /** When the turn started (for the elapsed time), while one runs. */
  readonly since: number | null;
  /** A question or approval waiting for the person: its prompt. */
  readonly question: string | null;
  /** Messages typed while the turn runs, sent one by one after it. */
  readonly queued: number;
  readonly hint: string | null;
  readonly sessionId: string;
}

export interface ChatOptions {
  workspace: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  sessionId: string;
  settings: ConversationSettings;
  runTurn(t: TurnRequest): Promise<TurnResult>;
  newSessionId(): string;
  commands: readonly SlashCommand[];
  /** Turns the text of a message into what the session gets (`@file` mentions filled in). */
  expand(text: string): Promise<{ text: string; notes: string[] }>;
  color: boolean;
  /** The conversation ended (/exit, Ctrl-C twice): its exit code. */
  onLeave(code: number): void;
  /** A one-line description of an error for the person (never a stack trace). */
  describeError?(error: unknown): string;
  /** The conversation goes on with another existing session: the face takes that session's settings (model, approval). */
  adoptSession?(id: string): Promise<void>;
  /** Keeps changed settings with the session at once (src/host/conversation-settings.ts); absent: at its next message. */
  saveSettings?(sessionId: string, settings: ConversationSettings): Promise<void>;
}

/** A message waiting for the running turn or command to end. */
interface Queued {
  text: string;
  /** Sent by a slash command: a message even if it starts with "/". */
  sent?: boolean;
  /** Settings for this message's turn only, over the conversation's. */
  once?: Partial<ConversationSettings>;
}

interface Pending {
  prompt: string;
  /** True once the line answered it. */
  take(line: string): boolean;
  drop(): void;
}

/**
 * One conversation in the terminal: each message is one turn of one checkpointed session (the session host's
 * runConversationTurn, as an editor's prompt is); approvals and questions are answered inline; messages typed while a
 * turn runs wait their turn and never answer a question; slash commands act on the session between turns. The view
 * (chat-app.tsx) renders snapshots of this state and sends it what the person types.
 */
export class ChatController {
  private view: ChatView;
  private readonly listeners = new Set<() => void>();
  private readonly queue: Queued[] = [];
  private turn: AbortController | null = null;
  private running: Promise<void> | null = null;
  private pending: Pending | null = null;
  private partial = "";
  private readonly printer: HumanPrinter;
  private leaving = false;

  constructor(private readonly o: ChatOptions) {
    this.view = { lines: [], status: null, since: null, question: null, queued: 0, hint: null, sessionId: o.sessionId };
    this.printer = new HumanPrinter({ write: (text) => this.write(text), isTTY: o.color });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): ChatView => this.view;

  get busy(): boolean {
    return this.running !== null;
  }

  private set(change: Partial<ChatView>): void {
    this.view = { ...this.view, ...change };
    for (const listener of this.listeners) listener();
  }

  /** Text for the transcript; whole lines only (a command's output may come in pieces). */
  private write(text: string): void {
    const parts = (this.partial + text).split("\n");
    this.partial = parts.pop() ?? "";
    if (parts.length > 0) this.set({ lines: [...this.view.lines, ...parts] });
  }

  print(text: string): void {
    this.write(`${this.partial ? "\n" : ""}${text}\n`);
  }

  hint(text: string | null): void {
    this.set({ hint: text });
  }

  /** A line the person entered (Enter): the answer to a waiting question, a slash command, or a message. */
  submit(line: string): void {
    this.hint(null);
    if (this.pending) {
      const pending = this.pending;
      this.print(`${pending.prompt}${line}`);
      if (pending.take(line)) this.pending = null;
      this.set({ question: this.pending?.prompt ?? null });
      return;
    }
    const text = line.trim();
    if (!text) return;
    // Typed while a turn runs: sent once it ends, in order (a slash command too, but /exit and /help now).
    const now = text === "/exit" || text === "/help" || text.startsWith("/exit ") || text.startsWith("/help ");
    if (now) return void this.slash(text);
    if (this.running) {
      this.queue.push({ text });
      this.print(`⋯ queued for after this turn: ${oneLine(text)}`);
      this.set({ queued: this.queue.length });
      return;
    }
    this.dispatch({ text });
  }

  private dispatch({ text, sent, once }: Queued): void {
    if (sent || !text.startsWith("/")) return this.startTurn(text, once);
    this.running = this.slash(text).finally(() => {
      this.running = null;
      this.next();
    });
  }

  /** The next message or command typed while the last one ran. */
  private next(): void {
    const queued = this.queue.shift();
    this.set({ queued: this.queue.length });
    if (queued !== undefined && !this.leaving) this.dispatch(queued);
  }

  /** `mini-cursor -r`: the person picks the session to go on with by its number (Enter alone: a new one). */
  pick(choices: readonly { id: string; label: string }[]): void {
    this.print(["Sessions of this workspace, newest first:", ...choices.map((c, i) => `  ${String(i + 1).padStart(2)}. ${c.id}  ${c.label}`)].join("\n"));
    const prompt = "Go on with which one? (number; Enter for a new session) ";
    this.pending = {
      prompt,
      take: (line) => {
        if (!line.trim()) return true;
        const chosen = choices[Number(line.trim()) - 1];
        if (!chosen) {
          this.print(`Type a number from 1 to ${choices.length}, or Enter for a new session.`);
          return false;
        }
        this.switchTo(chosen.id);
        this.print(`Going on with session ${chosen.id}.`);
        return true;
      },
      drop: () => undefined,
    };
    this.set({ question: prompt });
  }

  /** Esc: stops the running turn at its next safe point; the session stays resumable. */
  stop(by: string): boolean {
    if (!this.turn || this.turn.signal.aborted) return false;
    this.turn.abort(by);
    return true;
  }

  /** Ends the conversation: a running turn is stopped first, and its session saved. */
  async leave(code = 0): Promise<void> {
    if (this.leaving) return;
    this.leaving = true;
    this.queue.length = 0;
    this.stop("leaving");
    await this.running;
    this.o.onLeave(code);
  }

  /** `sent` collects the messages the command sends: they go first once it is done, in the order sent. */
  private context(sent: Queued[]): ChatContext {
    return {
      workspace: this.o.workspace,
      env: this.o.env,
      clock: this.o.clock,
      sessionId: this.view.sessionId,
      settings: this.o.settings,
      saveSettings: async () => {
        await this.adopting;
        await this.o.saveSettings?.(this.view.sessionId, this.o.settings);
      },
      print: (text) => this.print(text),
      useSession: (id) => {
        const next = id ?? this.o.newSessionId();
        if (id) this.switchTo(id);
        else this.set({ sessionId: next });
        this.print(id ? `Going on with session ${id}.` : `New session ${next}: the next message is its task.`);
      },
      send: (text, once) => void sent.push({ text, sent: true, ...(once ? { once } : {}) }),
      leave: () => void this.leave(0),
    };
  }

  private async slash(text: string): Promise<void> {
    const [word = "", ...rest] = text.slice(1).split(" ");
    const command = this.o.commands.find((c) => c.name === word);
    if (!command) return this.print(`Unknown command /${word}; /help lists them.`);
    if (command.name === "help") return this.print(this.helpText());
    this.print(`› /${[word, ...rest].join(" ")}`);
    const sent: Queued[] = [];
    try {
      await command.run(rest.join(" "), this.context(sent));
    } catch (error) {
      this.print(`⚠ /${word}: ${this.describe(error)}`);
    }
    // Started after the command rather than from within it, so its turn is the one this.running follows.
    this.queue.unshift(...sent);
  }

  helpText(): string {
    const width = Math.max(...this.o.commands.map((c) => c.name.length + (c.args ? c.args.length + 1 : 0)));
    const rows = this.o.commands.map((c) => `  /${`${c.name}${c.args ? ` ${c.args}` : ""}`.padEnd(width)}  ${c.description}`);
    return [
      "Type a task or a follow-up and Enter; a line ending in \\ goes on below; @path puts a file into the message.",
      "Esc stops the running turn (the session is kept); Ctrl-C twice leaves; Up and Down walk through earlier messages.",
      ...rows,
    ].join("\n");
  }

  private startTurn(text: string, once?: Partial<ConversationSettings>): void {
    const turn = new AbortController();
    this.turn = turn;
    this.print(`› ${text.split("\n").join("\n  ")}`);
    this.set({ status: "starting", since: this.o.clock.now() });
    this.running = this.runTurn(text, turn, once)
      .catch((error: unknown) => this.print(`⚠ ${this.describe(error)}`))
      .finally(() => {
        this.running = null;
        this.turn = null;
        this.pending?.drop();
        this.pending = null;
        this.set({ status: null, since: null, question: null });
        this.next();
      });
  }

  /** Another existing session from now on, with its own settings (read before the next turn starts). */
  private adopting: Promise<void> = Promise.resolve();
  private switchTo(id: string): void {
    const before = this.view.sessionId;
    this.set({ sessionId: id });
    this.adopting = (this.o.adoptSession?.(id) ?? Promise.resolve()).catch((error: unknown) => {
      // A session that cannot be taken (none of that id): the conversation stays where it was.
      this.set({ sessionId: before });
      this.print(`⚠ ${this.describe(error)}; going on with session ${before}`);
    });
  }

  private async runTurn(text: string, turn: AbortController, once?: Partial<ConversationSettings>): Promise<void> {
    await this.adopting;
    const expanded = await this.o.expand(text);
    for (const note of expanded.notes) this.print(`ℹ ${note}`);
    const result = await this.o.runTurn({
      sessionId: this.view.sessionId,
      workspace: this.o.workspace,
      text: expanded.text,
      settings: once ? { ...this.o.settings, ...once } : this.o.settings,
      printer: this.statusFollowing(),
      prompter: (answer) => this.prompter(answer),
      cancel: turn.signal,
      env: this.o.env,
      clock: this.o.clock,
    });
    if (result.cancelled && !this.leaving) this.print("Stopped. The session is kept: your next message goes on from here.");
  }

  /** The printer for the transcript, and the status line's step and tool call. */
  private statusFollowing(): EventSink {
    return {
      emit: (event: ProgressEvent) => {
        this.printer.emit(event);
        if (event.type === "step_started") this.set({ status: `${event.stepId} ${event.agent}: ${oneLine(event.goal)}` });
        else if (event.type === "tool_call") this.set({ status: `${this.view.status?.split(" · ")[0] ?? ""} · ${event.tool} ${oneLine(event.detail)}` });
        else if (event.type === "session_started") this.set({ status: "planning" });
      },
    };
  }

  private prompter(answer: string | undefined): ApprovalPrompter {
    let given = answer;
    return {
      ask: (request) => this.ask(APPROVAL_PROMPT(request), (line) => parseAnswer(line, request), RETRY_LINE),
      askQuestion: (request) => {
        // The message that resumed a session waiting on this question is its answer.
        if (given !== undefined) {
          const text = given;
          given = undefined;
          return Promise.resolve(text);
        }
        return this.ask(QUESTION_PROMPT(request), (line) => parseQuestionAnswer(line, request), QUESTION_RETRY_LINE);
      },
      askForm: (request) => promptForm((prompt, parse, retry) => this.ask(prompt, parse, retry), request),
      close: () => {
        this.pending?.drop();
        this.pending = null;
        this.set({ question: null });
      },
    };
  }

  private ask<T>(prompt: string, parse: (line: string) => T | undefined, retry: string | (() => string)): Promise<T | null> {
    return new Promise((resolve) => {
      this.pending = {
        prompt,
        take: (line) => {
          const answer = parse(line);
          if (answer === undefined) {
            this.print((typeof retry === "string" ? retry : retry()).trimEnd());
            return false;
          }
          resolve(answer);
          return true;
        },
        drop: () => resolve(null),
      };
      this.set({ question: prompt });
    });
  }

  private describe(error: unknown): string {
    return this.o.describeError ? this.o.describeError(error) : errorMessage(error);
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}
