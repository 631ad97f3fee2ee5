/**
 * Every list in the session state is capped, because a checkpoint stores each changed channel whole at every step:
 * unbounded lists would make the database grow with the square of the session length.
 */
export const caps = {
  text: 600,
  result: 400,
  findings: 40,
  commands: 40,
  reviews: 6,
  filesChanged: 300,
  criteria: 6,
  /** Finished steps kept in full in the plan; older ones are folded into counts. */
  finishedSteps: 16,
} as const;

export function clip(text: string, max: number = caps.text): string {
  return text.length <= max ? text : `${text.slice(0, max - 15)}… [truncated]`;
}

/** How much of a task is shown where people read it (the session header, `sessions`). */
export const SHOWN_TASK_CHARS = 300;

/** The task shortened for display: its start, and how much was left out. Short tasks are unchanged. */
export function shownTask(task: string, max: number = SHOWN_TASK_CHARS): string {
  const flat = task.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  // Short limits (a table column) get the bare start; longer ones say how long the task is.
  if (max < 120) return `${flat.slice(0, max - 1).trimEnd()}…`;
  return `${flat.slice(0, max).trimEnd()}… (${task.length.toLocaleString("en-US")} characters in all)`;
}

/** The view of a long text a model can read more of on demand (src/graph/nodes/planner: the task and read_task). */
export interface TextPreview {
  /** The text's start, within the limit (the whole text when it fits). */
  start: string;
  /** Headings and numbered items after the start, each with the character offset where it begins. */
  outline: { offset: number; line: string }[];
  complete: boolean;
}

const OUTLINE_LINE = /^(#{1,6}\s+\S|\d{1,3}[.)]\s+\S|[A-Z][^a-z\n]{3,80}:?$)/;

/** A long text's start within `maxChars` (cut at a line end when one is near) and an outline of the rest. */
export function textPreview(text: string, maxChars: number, maxOutline = 40): TextPreview {
  if (text.length <= maxChars) return { start: text, outline: [], complete: true };
  const cut = text.lastIndexOf("\n", maxChars);
  const end = cut > maxChars * 0.8 ? cut : maxChars;
  const outline: TextPreview["outline"] = [];
  let offset = end;
  for (const line of text.slice(end).split("\n")) {
    if (outline.length >= maxOutline) break;
    if (OUTLINE_LINE.test(line.trim())) outline.push({ offset, line: clip(line.trim(), 120) });
    offset += line.length + 1;
  }
  return { start: text.slice(0, end), outline, complete: false };
}

/** A size for people: "999 bytes" (or another unit below a thousand), "25.3 KB", "1.0 MB". */
export function formatSize(n: number, unit = "bytes"): string {
  if (n < 1_000) return `${n} ${unit}`;
  // Below 999.95 KB: anything above would round to "1000.0 KB".
  if (n < 999_950) return `${(n / 1_000).toFixed(1)} KB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}
