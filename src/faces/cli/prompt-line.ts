import type { Output } from "./printers/human.js";

/**
 * The terminal line a prompt holds while it waits for an answer. Output that arrives meanwhile from elsewhere (a
 * notice that comes late, such as memory's once Chroma is up) is printed above the prompt, which is shown again below
 * it with what was typed so far, instead of landing in the middle of the answer.
 */
export interface PromptLine {
  /** What printers write to: the stream itself, except that nothing is written onto an open prompt. */
  readonly output: Output;
  /** Shows `prompt` and holds the line for it until close(). */
  open(prompt: string): void;
  /** What the person has typed on the open line so far (the prompter echoes it itself). */
  typed(text: string): void;
  /** The line was answered or given up: output goes on as before. */
  close(): void;
}

/** One per stream: the printer and the prompter of a command must share it. */
const lines = new WeakMap<Output, PromptLine>();

export function promptLineOf(out: Output): PromptLine {
  let line = lines.get(out);
  if (!line) {
    line = createPromptLine(out);
    lines.set(out, line);
  }
  return line;
}

/** Visible columns of a prompt (colour codes take none). */
const width = (text: string): number => Array.from(text.replace(/\u001b\[[0-9;]*m/g, "")).length;

function createPromptLine(out: Output): PromptLine {
  let prompt: string | null = null;
  let typed = "";
  /** Moves to the start of the prompt's first row and clears from there down. */
  const clearPrompt = (): string => {
    if (!out.isTTY) return "\n";
    const rows = Math.max(1, Math.ceil(width(prompt + typed) / Math.max(1, out.columns || 80)));
    return `\r${rows > 1 ? `\u001b[${rows - 1}A` : ""}\u001b[J`;
  };
  const output: Output = {
    write(text: string) {
      if (prompt === null || text === "") return out.write(text);
      out.write(`${clearPrompt()}${text}${text.endsWith("\n") ? "" : "\n"}${prompt}${typed}`);
    },
    get isTTY() {
      return out.isTTY;
    },
    get columns() {
      return out.columns;
    },
    get rows() {
      return out.rows;
    },
  };
  return {
    output,
    open(text) {
      prompt = text;
      typed = "";
      out.write(text);
    },
    typed(text) {
      typed = text;
    },
    close() {
      prompt = null;
      typed = "";
    },
  };
}
