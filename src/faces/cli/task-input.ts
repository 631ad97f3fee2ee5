import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { MAX_ARGUMENT_TASK_CHARS } from "../../sessions/task-text.js";
import { UsageError } from "./exit-codes.js";

/** A task file is read whole up to this size: the planner gets all of it in every prompt. */
export const MAX_TASK_FILE_BYTES = 1_000_000;

function unreadable(file: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code === "EISDIR" ? "it is a folder" : (code ?? "cannot read it");
  return new UsageError(`--task-file ${file}: ${why}`);
}

function readTaskFile(file: string): string {
  let size: number;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) throw Object.assign(new Error("folder"), { code: "EISDIR" });
    size = stat.size;
  } catch (error) {
    throw unreadable(file, error);
  }
  if (size > MAX_TASK_FILE_BYTES) throw new UsageError(`--task-file ${file} is ${size} bytes; tasks are limited to ${MAX_TASK_FILE_BYTES} bytes (1 MB)`);
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    throw unreadable(file, error);
  }
}

/** The task of `run`: the words after it, or the contents of `--task-file` (not both). */
export function taskFrom(words: string[], taskFile: string | undefined, cwd: string): string {
  const given = words.join(" ").trim();
  if (taskFile !== undefined) {
    if (given) throw new UsageError("give the task either as words or with --task-file, not both");
    const task = readTaskFile(path.resolve(cwd, taskFile));
    if (!task) throw new UsageError(`--task-file ${taskFile} is empty`);
    return task;
  }
  if (!given) throw new UsageError('missing task: mini-cursor run "<task>" or --task-file FILE (see mini-cursor run --help)');
  if (given.length > MAX_ARGUMENT_TASK_CHARS) {
    throw new UsageError(
      `the task is ${given.length.toLocaleString("en-US")} characters; above ${MAX_ARGUMENT_TASK_CHARS.toLocaleString("en-US")} put it in a file and use --task-file FILE`,
    );
  }
  return given;
}
