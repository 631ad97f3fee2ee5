/**
 * Finds where in a file some text that did not match exactly most likely was meant to be, so edit_file can
 * show the model the real current text instead of a bare "not found". Line-based: every window of the file
 * with as many lines as the wanted text is scored by the average similarity of its lines to the wanted ones.
 */
export interface ClosestRegion {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** 0..1, average line similarity. */
  score: number;
  /** True when the region equals the wanted text apart from whitespace. */
  whitespaceOnly: boolean;
}

/** Line comparisons in the first, sampled pass; keeps big files to well under a second. */
const FIRST_PASS_BUDGET = 2_000_000;
/** Windows from the first pass that get scored on every line. */
const CANDIDATES = 10;

function normalize(line: string): string {
  return line.trim().replace(/\s+/g, " ");
}

/** Character bigrams as sorted numeric codes, so two lines compare with one merge pass. */
function bigramCodes(text: string): Uint32Array {
  const codes = new Uint32Array(Math.max(0, text.length - 1));
  for (let i = 0; i < codes.length; i += 1) codes[i] = text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1);
  return codes.sort();
}

/** Sørensen–Dice coefficient over character bigrams: cheap and forgiving of small typos. */
function dice(a: Uint32Array, b: Uint32Array): number {
  if (a.length + b.length === 0) return 0;
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] ?? 0;
    const y = b[j] ?? 0;
    if (x === y) {
      shared += 1;
      i += 1;
      j += 1;
    } else if (x < y) i += 1;
    else j += 1;
  }
  return (2 * shared) / (a.length + b.length);
}

interface Line {
  text: string;
  codes: Uint32Array;
}

function toLine(raw: string): Line {
  const text = normalize(raw);
  return { text, codes: bigramCodes(text) };
}

function similarity(a: Line, b: Line): number {
  if (a.text === b.text) return 1;
  if (a.text === "" || b.text === "") return 0;
  return dice(a.codes, b.codes);
}

function trimBlankEnds(lines: Line[]): Line[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]?.text === "") start += 1;
  while (end > start && lines[end - 1]?.text === "") end -= 1;
  return lines.slice(start, end);
}

function scoreWindow(file: readonly Line[], wanted: readonly Line[], start: number, indexes: readonly number[]): number {
  let total = 0;
  for (const i of indexes) {
    const a = wanted[i];
    const b = file[start + i];
    if (a && b) total += similarity(a, b);
  }
  return total / indexes.length;
}

export function findClosestRegion(fileLines: readonly string[], wantedLines: readonly string[]): ClosestRegion | undefined {
  const file = fileLines.map(toLine);
  const wanted = trimBlankEnds(wantedLines.map(toLine));
  if (file.length === 0 || wanted.length === 0) return undefined;
  const size = Math.min(wanted.length, file.length);
  const windows = file.length - size + 1;
  const all = Array.from({ length: size }, (_, i) => i);

  // First pass on a spread-out sample of the wanted lines, second pass on every line for the best candidates.
  const sampleSize = Math.min(size, Math.max(2, Math.floor(FIRST_PASS_BUDGET / windows)));
  const spread = (k: number): number => Math.round((k * (size - 1)) / (sampleSize - 1));
  const sample = sampleSize === size ? all : [...new Set(Array.from({ length: sampleSize }, (_, k) => spread(k)))];
  const scored: { start: number; score: number }[] = [];
  for (let start = 0; start < windows; start += 1) scored.push({ start, score: scoreWindow(file, wanted, start, sample) });
  scored.sort((a, b) => b.score - a.score || a.start - b.start);
  const candidates =
    sample === all ? scored.slice(0, 1) : scored.slice(0, CANDIDATES).map((c) => ({ start: c.start, score: scoreWindow(file, wanted, c.start, all) }));
  const best = candidates.reduce((a, b) => (b.score > a.score || (b.score === a.score && b.start < a.start) ? b : a));

  const squash = (lines: readonly Line[]): string =>
    lines
      .map((l) => l.text)
      .join("")
      .replace(/\s+/g, "");
  return {
    startLine: best.start + 1,
    endLine: best.start + size,
    score: best.score,
    whitespaceOnly: squash(file.slice(best.start, best.start + size)) === squash(wanted),
  };
}
