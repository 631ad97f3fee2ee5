/**
 * Reads the server's log for an error message a user can act on (e.g. `GLIBC_2.38 not found`, a panic),
 * skipping the ASCII-art banner and Rust/V8 backtrace frames.
 */
import fs from "node:fs";

const TAIL_BYTES = 64 * 1024;
const MAX_CHARS = 600;
const ERROR_LINE = /error|panic|not found|denied|fatal|not available|cannot|failed/i;
// Rust and V8 backtrace frames ("  12: symbol", "at src/x.rs:1"), and Rust's hint to set RUST_BACKTRACE.
const NOISE_LINE = /^\s*(\d+:\s|at\s)|RUST_BACKTRACE/;
// The banner is coloured with ANSI escape codes.
const ANSI = /\u001b\[[0-9;]*m/g;

/** The most telling lines at the end of the log, joined into one line; "" when the log is empty or missing. */
export function logTail(logFile: string): string {
  let text: string;
  try {
    const fd = fs.openSync(logFile, "r");
    try {
      const size = fs.fstatSync(fd).size;
      const length = Math.min(size, TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      fs.readSync(fd, buffer, 0, length, size - length);
      text = buffer.toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return "";
  }
  const lines = text
    .replace(ANSI, "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !NOISE_LINE.test(line));
  const errors = lines.filter((line) => ERROR_LINE.test(line));
  const picked = errors.length > 0 ? errors.slice(-3) : lines.slice(-3);
  const joined = picked.join(" | ");
  return joined.length > MAX_CHARS ? `${joined.slice(0, MAX_CHARS)}...` : joined;
}
