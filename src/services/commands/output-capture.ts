/**
 * Keeps the beginning and the end of a command's output within a character budget, in constant memory:
 * the start shows what ran, the end usually holds the error or the summary.
 */
const HEAD_SHARE = 0.4;

const ESC = String.fromCharCode(27);
const BEL = String.fromCharCode(7);
/** Colour and cursor escape sequences (CSI and OSC): noise for the model, so they are removed. */
const ANSI_PATTERN = new RegExp(`${ESC}\\[[0-?]*[ -/]*[@-~]|${ESC}\\][^${BEL}${ESC}]*(?:${BEL}|${ESC}\\\\)`, "g");

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, "");
}

export class HeadTailBuffer {
  private head = "";
  private tail = "";
  private dropped = 0;
  private readonly headLimit: number;
  private readonly tailLimit: number;

  constructor(limitChars: number) {
    this.headLimit = Math.floor(limitChars * HEAD_SHARE);
    this.tailLimit = Math.max(0, limitChars - this.headLimit);
  }

  append(chunk: string): void {
    let rest = chunk;
    if (this.head.length < this.headLimit) {
      const take = rest.slice(0, this.headLimit - this.head.length);
      this.head += take;
      rest = rest.slice(take.length);
    }
    if (rest === "") return;
    this.tail += rest;
    // Trim only when well over the limit so appends stay cheap.
    if (this.tail.length > this.tailLimit * 2 + 4096) this.trimTail();
  }

  private trimTail(): void {
    const excess = this.tail.length - this.tailLimit;
    if (excess <= 0) return;
    this.dropped += excess;
    this.tail = this.tail.slice(excess);
  }

  /** Characters left out of `text()`. */
  get omittedChars(): number {
    return this.dropped + Math.max(0, this.tail.length - this.tailLimit);
  }

  /** The kept output, with a marker where the middle was left out. ANSI escapes are removed. */
  text(): string {
    const omitted = this.omittedChars;
    const tail = omitted > this.dropped ? this.tail.slice(this.tail.length - this.tailLimit) : this.tail;
    if (omitted === 0) return stripAnsi(this.head + tail);
    return `${stripAnsi(this.head)}\n[... ${omitted} characters omitted ...]\n${stripAnsi(tail)}`;
  }
}
