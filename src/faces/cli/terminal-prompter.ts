import { StringDecoder } from "node:string_decoder";
import type { ApprovalPrompter } from "../../host/prompter.js";
import { APPROVAL_PROMPT, parseAnswer, RETRY_LINE } from "./approval-prompt.js";
import type { Output } from "./printers/human.js";
import { promptLineOf } from "./prompt-line.js";
import { parseQuestionAnswer, QUESTION_PROMPT, QUESTION_RETRY_LINE } from "./question-prompt.js";
import { promptForm } from "./form-prompt.js";
import type { ElicitRequest } from "../../services/mcp/types.js";

/** A terminal's stdin: raw mode lets a prompt see each key the moment it is pressed. */
export type TerminalInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

export type LineEnd = "enter" | "eof" | "interrupt";

/** What a chunk of keys did to the line being typed: the new line, what to echo, and how it ended, if it did. */
export interface KeysApplied {
  line: string;
  echo: string;
  end?: LineEnd;
}

/** Deletes the last character on screen (one column: approvals are short ASCII answers; wide characters may leave a column). */
const RUB_OUT = "\b \b";

/**
 * A minimal line editor for raw mode: printable keys, Backspace, Ctrl-U (clear), Enter; Ctrl-C interrupts,
 * Ctrl-D on an empty line ends input. Arrow keys and other escape sequences are ignored.
 */
export function applyKeys(line: string, keys: string): KeysApplied {
  let echo = "";
  const chars = Array.from(keys);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] ?? "";
    if (c === "\r" || c === "\n") return { line, echo, end: "enter" };
    if (c === "\u0003") return { line, echo, end: "interrupt" };
    if (c === "\u0004") {
      if (line === "") return { line, echo, end: "eof" };
    } else if (c === "\u007f" || c === "\b") {
      const kept = Array.from(line);
      if (kept.pop() !== undefined) echo += RUB_OUT;
      line = kept.join("");
    } else if (c === "\u0015") {
      echo += RUB_OUT.repeat(Array.from(line).length);
      line = "";
    } else if (c === "\u001b") {
      // ESC O x (keypad) or ESC [ params final (arrows, Delete…): skip the whole sequence.
      const next = chars[i + 1];
      if (next === "O") i += 2;
      else if (next === "[") {
        i += 2;
        while (i < chars.length && !/[@-~]/.test(chars[i] ?? "")) i++;
      }
    } else if (c >= " ") {
      line += c;
      echo += c;
    }
  }
  return { line, echo };
}

/** Lets the event loop read what the terminal already holds (one poll phase), twice for good measure. */
async function nextPolls(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Approvals from a person at a terminal. Between questions stdin is not read at all; when a question comes,
 * everything typed before it (queued lines, a half-typed line) is read and thrown away, and only keys pressed
 * after the prompt is shown answer it: a `y` typed ahead must never approve a command or change not yet shown.
 * The prompt runs in raw mode (which is how a half-typed line becomes readable, and is discarded); Ctrl-C
 * there is a key, so it is turned back into SIGINT for the session runner.
 */
/** The terminal's prompter: approvals and questions, plus a yes/no for the CLI's own questions before a session. */
export interface TerminalPrompter extends ApprovalPrompter {
  /** true for y/yes, false for n/no or a bare Enter; null when stdin ends. */
  confirm(prompt: string): Promise<boolean | null>;
}

function yesNo(line: string): boolean | undefined {
  const answer = line.trim().toLowerCase();
  if (answer === "y" || answer === "yes") return true;
  if (answer === "" || answer === "n" || answer === "no") return false;
  return undefined;
}

/** `forms`: MCP servers' forms are asked here too (not under `--json`, whose person reads no form). */
export function createTerminalPrompter(input: TerminalInput, out: Output, options: { forms?: boolean } = {}): TerminalPrompter {
  // The printer writes through the same line: a notice that comes while a question waits goes above it.
  const held = promptLineOf(out);
  /** Ends the read in progress (close() during a question). */
  let cancel: (() => void) | null = null;
  let closed = false;

  const release = () => {
    input.setRawMode?.(false);
    input.pause();
  };

  async function discardTypeAhead(): Promise<boolean> {
    let typed = "";
    const drop = (chunk: Buffer | string) => (typed += chunk.toString());
    input.setRawMode?.(true);
    input.on("data", drop);
    input.resume();
    await nextPolls();
    input.off("data", drop);
    // Any key, a bare Enter too: the person may think it answered something.
    return typed !== "";
  }

  function readLine(): Promise<string | null> {
    return new Promise((resolve) => {
      const decoder = new StringDecoder("utf8");
      let line = "";
      const finish = (value: string | null) => {
        input.off("data", onData);
        input.off("end", onEnd);
        cancel = null;
        resolve(value);
      };
      const onEnd = () => finish(null);
      const onData = (chunk: Buffer | string) => {
        const applied = applyKeys(line, typeof chunk === "string" ? chunk : decoder.write(chunk));
        line = applied.line;
        held.typed(line);
        if (applied.echo) out.write(applied.echo);
        if (applied.end === "enter") {
          out.write("\n");
          finish(line);
        } else if (applied.end === "eof") {
          out.write("\n");
          finish(null);
        } else if (applied.end === "interrupt") {
          // Raw mode turned Ctrl-C into a key: raise the signal the session runner stops on. The question stays
          // open until the runner closes this prompter (answering null here would look like stdin closing).
          out.write("^C");
          input.off("data", onData);
          process.kill(process.pid, "SIGINT");
        }
      };
      cancel = () => {
        out.write("\n");
        finish(null);
      };
      input.on("data", onData);
      input.on("end", onEnd);
    });
  }

  /**
   * Shows a prompt and reads lines until one parses; null when stdin ends or the prompter is closed. Keys typed
   * before the prompt was shown never answer it (neither an approval nor a question).
   */
  async function promptUntil<T>(prompt: string, parse: (line: string) => T | undefined, retry: string | (() => string)): Promise<T | null> {
    if (closed) return null;
    try {
      if ((await discardTypeAhead()) && !closed) out.write("(ignored keys typed before this question)\n");
      while (!closed) {
        held.open(prompt);
        const line = await readLine();
        held.close();
        if (line === null) return null;
        const answer = parse(line);
        if (answer !== undefined) return answer;
        out.write(typeof retry === "string" ? retry : `${retry()}\n`);
      }
      return null;
    } finally {
      held.close();
      release();
    }
  }

  return {
    ask: (request) => promptUntil(APPROVAL_PROMPT(request), (line) => parseAnswer(line, request), RETRY_LINE),
    askQuestion: (request) => promptUntil(QUESTION_PROMPT(request), (line) => parseQuestionAnswer(line, request), QUESTION_RETRY_LINE),
    confirm: (prompt) => promptUntil(prompt, yesNo, "Answer y or n.\n"),
    ...(options.forms ? { askForm: (request: ElicitRequest) => promptForm(promptUntil, request) } : {}),
    close() {
      if (closed) return;
      closed = true;
      cancel?.();
      release();
    },
  };
}
