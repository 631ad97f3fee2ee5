import { formatSize } from "../../core/text.js";
import { systemClock, type Clock } from "../../platform/clock.js";

/**
 * What watchers (the progress view, `--json`) get of a command's output while it runs: the beginning live, up to a
 * cap; past it, at most one snapshot of the newest lines per interval (so a terminal can show a rolling tail of a
 * long build); when the command ends, the last part and one line saying how much was left out. The model gets its
 * own head and tail (output-capture.ts); a flood of 100 MB must not reach the terminal or a JSON log either.
 */
export const STREAM_HEAD_CHARS = 32_000;
export const STREAM_TAIL_CHARS = 8_000;
/** A live snapshot: the newest lines, at most this many of them and this many characters. */
export const LIVE_TAIL_LINES = 8;
export const LIVE_TAIL_CHARS = 2_000;
export const LIVE_TAIL_EVERY_MS = 1_000;

type Stream = "stdout" | "stderr";

export interface LiveTail {
  /** The newest complete or partial lines, oldest first. */
  lines: string[];
  /** Everything the command printed so far, in characters. */
  totalChars: number;
}

export interface OutputStreamCapOptions {
  forward: (stream: Stream, chunk: string) => void;
  /** Gets the snapshots; without it, nothing is sent between the head and the end. */
  forwardTail?: (tail: LiveTail) => void;
  clock?: Clock;
  headChars?: number;
  tailChars?: number;
  tailEveryMs?: number;
}

export class OutputStreamCap {
  private sent = 0;
  private dropped = 0;
  private tail: { stream: Stream; chunk: string }[] = [];
  private tailChars = 0;
  private lastSnapshot: number | null = null;
  private snapshotPending = false;
  private readonly forward: OutputStreamCapOptions["forward"];
  private readonly forwardTail: OutputStreamCapOptions["forwardTail"];
  private readonly clock: Clock;
  private readonly headChars: number;
  private readonly tailLimit: number;
  private readonly tailEveryMs: number;

  constructor(options: OutputStreamCapOptions) {
    this.forward = options.forward;
    this.forwardTail = options.forwardTail;
    this.clock = options.clock ?? systemClock;
    this.headChars = options.headChars ?? STREAM_HEAD_CHARS;
    this.tailLimit = options.tailChars ?? STREAM_TAIL_CHARS;
    this.tailEveryMs = options.tailEveryMs ?? LIVE_TAIL_EVERY_MS;
  }

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
    this.snapshotPending = true;
    this.maybeSnapshot();
  }

  /** Sends the kept tail, after a line saying how much was left out (when anything was). */
  end(): void {
    if (this.dropped > 0) this.forward("stderr", `\n[… ${formatSize(this.dropped, "characters")} of output not shown here; the end follows]\n`);
    for (const { stream, chunk } of this.tail) this.forward(stream, chunk);
    this.tail = [];
    this.tailChars = 0;
    this.snapshotPending = false;
  }

  get droppedChars(): number {
    return this.dropped;
  }

  /**
   * The first snapshot goes out at once (the view changes from "live" to "tail"), later ones at most once per
   * interval, on output (no timer to clean up: a command that falls silent shows its last snapshot until it ends).
   */
  private maybeSnapshot(): void {
    if (!this.forwardTail || !this.snapshotPending) return;
    const now = this.clock.now();
    if (this.lastSnapshot !== null && now - this.lastSnapshot < this.tailEveryMs) return;
    this.lastSnapshot = now;
    this.snapshotPending = false;
    const text = this.tail
      .map((t) => t.chunk)
      .join("")
      .slice(-LIVE_TAIL_CHARS);
    const lines = text.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n").slice(-LIVE_TAIL_LINES);
    this.forwardTail({ lines, totalChars: this.sent + this.dropped + this.tailChars });
  }
}
