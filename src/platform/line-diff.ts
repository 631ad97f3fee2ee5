import { structuredPatch } from "diff";

/** `-3,2`: where a hunk starts and how many lines it spans (an empty span names the line before it, as diff does). */
function span(start: number, count: number): string {
  const first = count === 0 ? start - 1 : start;
  return count === 1 ? `${first}` : `${first},${count}`;
}

/**
 * The hunks of a unified diff from `before` to `after` (as `diff -u` prints them, without the file names), with
 * `context` unchanged lines around each change; no lines when the texts are the same. jsdiff computes them.
 */
export function unifiedDiff(before: string, after: string, context = 3): string[] {
  const { hunks } = structuredPatch("", "", before, after, "", "", { context });
  return hunks.flatMap((h) => [`@@ -${span(h.oldStart, h.oldLines)} +${span(h.newStart, h.newLines)} @@`, ...h.lines]);
}
