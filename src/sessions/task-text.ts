/**
 * Tasks given on the command line stay under this many characters (about 2,000 tokens, a detailed page): a longer
 * one is a document, better kept in a file (`--task-file`) than in shell history and `ps` output.
 */
export const MAX_ARGUMENT_TASK_CHARS = 8_000;

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
