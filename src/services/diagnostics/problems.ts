/** One problem a checker reported, as the model sees it: `path:line:col code message`. */
export interface Problem {
  /** Relative to the workspace, with forward slashes. */
  file: string;
  line: number;
  col: number;
  /** `TS2322`, an ESLint rule id, or the command's name. */
  code: string;
  message: string;
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.col} ${p.code} ${p.message}`;
}

/** At most `max` problems, one a line, then how many more there are. */
export function formatProblems(problems: readonly Problem[], max: number): string[] {
  const shown = problems.slice(0, max).map(formatProblem);
  if (problems.length > max) shown.push(`… and ${problems.length - max} more`);
  return shown;
}

/** A problem's identity across edits: its place moves when lines are added above it, so the line is left out. */
function keyOf(p: Problem): string {
  return `${p.file}\0${p.code}\0${p.message}`;
}

/** The problems of `after` that `before` does not have (as many times as they occur). */
export function newProblems(before: readonly Problem[], after: readonly Problem[]): Problem[] {
  const left = new Map<string, number>();
  for (const p of before) left.set(keyOf(p), (left.get(keyOf(p)) ?? 0) + 1);
  return after.filter((p) => {
    const n = left.get(keyOf(p)) ?? 0;
    if (n === 0) return true;
    left.set(keyOf(p), n - 1);
    return false;
  });
}

/** Quotes a path for `bash -c`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
