/** Line helpers shared by the file tools, so numbering looks the same everywhere. */

/** Long lines (minified code, data) are cut so one line cannot eat the whole output budget. */
export const MAX_LINE_CHARS = 2000;

/** Splits text into lines without their terminators; a final newline does not make an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

export function truncateLine(line: string, max = MAX_LINE_CHARS): string {
  if (line.length <= max) return line;
  return `${line.slice(0, max)}… [${line.length - max} more characters on this line]`;
}

export function lineNumberWidth(lastLineNumber: number): number {
  return Math.max(4, String(lastLineNumber).length);
}

/** Formats one line as `  12| text`. */
export function numberedLine(lineNumber: number, text: string, width: number, maxChars = MAX_LINE_CHARS): string {
  return `${String(lineNumber).padStart(width)}| ${truncateLine(text, maxChars)}`;
}

/** Formats `lines` (the first of which is line `firstLineNumber`) with line numbers. */
export function numberLines(lines: readonly string[], firstLineNumber: number, maxChars = MAX_LINE_CHARS): string {
  const width = lineNumberWidth(firstLineNumber + lines.length - 1);
  return lines.map((line, i) => numberedLine(firstLineNumber + i, line, width, maxChars)).join("\n");
}

/** Maps character offsets of one text to 1-based line numbers (binary search over line starts). */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
  }

  /** The line holding character `index`; a newline belongs to the line it ends. */
  lineAt(index: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

export function countLines(text: string): number {
  return splitLines(text).length;
}
