import { sanitize } from "./layout.js";

/**
 * The newest lines of the running command's output, bounded: a progress bar redrawn with "\r" stays one line, and
 * memory stays small however much the command prints.
 */
export class CommandTail {
  /** Complete lines (newest last), at most `max`; `current` is the line still being written. */
  private lines: string[] = [];
  private current = "";
  private pendingCR = false;
  /** Lines that scrolled out of the tail. */
  private hidden = 0;
  /** What the rolling tail said about the size so far (long outputs), shown above the lines. */
  private sizeNote = "";

  constructor(private readonly max: number) {}

  get empty(): boolean {
    return this.lines.length === 0 && this.current === "";
  }

  append(chunk: string): void {
    // Output streamed after a size note (the end of a long output) makes that note stale.
    if (chunk !== "") this.sizeNote = "";
    for (const ch of chunk) {
      if (this.pendingCR) {
        this.pendingCR = false;
        // "\r\n" is a line break; a lone "\r" starts the line again (progress bars).
        if (ch === "\n") {
          this.push();
          continue;
        }
        this.current = "";
      }
      if (ch === "\r") this.pendingCR = true;
      else if (ch === "\n") this.push();
      else this.current += ch;
    }
  }

  /** The rolling tail of a long output replaces what is shown (its middle is not streamed). */
  replace(lines: string[], note: string): void {
    this.hidden += this.lines.length + (this.current ? 1 : 0);
    this.lines = [];
    this.current = "";
    for (const l of lines) {
      this.current = l;
      this.push();
    }
    this.sizeNote = note;
  }

  /** The lines to show, each cut to `width`, and how many earlier lines are not shown. */
  view(width: number): { lines: string[]; hidden: number; note: string } {
    const all = this.current ? [...this.lines, this.current] : this.lines;
    const shown = all.slice(-this.max);
    const hidden = this.hidden + all.length - shown.length;
    return { lines: shown.map((l) => cut(sanitize(l), width)), hidden, note: this.sizeNote };
  }

  private push(): void {
    this.lines.push(this.current);
    this.current = "";
    if (this.lines.length > this.max) {
      this.lines.shift();
      this.hidden += 1;
    }
  }
}

function cut(text: string, width: number): string {
  const chars = [...text];
  return chars.length > width ? `${chars.slice(0, Math.max(1, width - 1)).join("")}…` : text;
}
