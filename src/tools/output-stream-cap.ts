/**
 * What watchers (the progress view, `--json`) get of a command's output while it runs: the beginning live, up to a
 * cap, then only a count; when the command ends, the last part and one line saying how much was left out. The model
 * gets its own head and tail (output-capture.ts); a flood of 100 MB must not reach the terminal or a JSON log either.
 */
export const STREAM_HEAD_CHARS = 32_000;
export const STREAM_TAIL_CHARS = 8_000;

type Stream = "stdout" | "stderr";

export class OutputStreamCap {
  private sent = 0;
  private dropped = 0;
  private tail: { stream: Stream; chunk: string }[] = [];
  private tailChars = 0;

  constructor(
    private readonly forward: (stream: Stream, chunk: string) => void,
    private readonly headChars = STREAM_HEAD_CHARS,
    private readonly tailLimit = STREAM_TAIL_CHARS,
  ) {}

  push(stream: Stream, chunk: string): void {
    if (this.sent < this.headChars) {
      const room = this.headChars - this.sent;
      const head = chunk.slice(0, room);
      this.sent += head.length;
      this.forward(stream, head);
      chunk = chunk.slice(head.length);
      if (chunk === "") return;
    }
    // Past the head: keep only the newest tailLimit characters, count the rest.
    this.tail.push({ stream, chunk });
    this.tailChars += chunk.length;
    while (this.tailChars > this.tailLimit && this.tail.length > 0) {
      const first = this.tail[0];
      if (!first) break;
      const excess = this.tailChars - this.tailLimit;
      if (first.chunk.length <= excess) {
        this.tail.shift();
        this.tailChars -= first.chunk.length;
        this.dropped += first.chunk.length;
      } else {
        first.chunk = first.chunk.slice(excess);
        this.tailChars -= excess;
        this.dropped += excess;
      }
    }
  }

  /** Sends the kept tail, after a line saying how much was left out (when anything was). */
  end(): void {
    if (this.dropped > 0) this.forward("stderr", `\n[… ${formatChars(this.dropped)} of output not shown here; the end follows]\n`);
    for (const { stream, chunk } of this.tail) this.forward(stream, chunk);
    this.tail = [];
    this.tailChars = 0;
  }

  get droppedChars(): number {
    return this.dropped;
  }
}

function formatChars(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)} MB`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)} kB`;
  return `${n} characters`;
}
