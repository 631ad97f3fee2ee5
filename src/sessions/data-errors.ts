// The leaf module, not the core barrel: the barrel loads zod, which `sessions` and `diff`/`undo` need not pay for.
import { STATE_DIR_NAME } from "../core/workspace.js";
import { ConfigError } from "../platform/config-file.js";

/** Errors that mean "this folder cannot hold our data", as opposed to a bug: the user must pick another place. */
const UNWRITABLE = new Set(["EACCES", "EPERM", "EROFS", "ENOENT", "ENOTDIR", "EEXIST", "ENOSPC", "EDQUOT"]);

const REASONS: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "read-only file system",
  ENOENT: "the folder is gone",
  ENOTDIR: "a file is in the way",
  EEXIST: "a file is in the way",
  ENOSPC: "no space left",
  EDQUOT: "disk quota exceeded",
};

/** Why a folder cannot be written, in words, with the code: "read-only file system, EROFS". */
export function unwritableReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code ? `${REASONS[code] ?? "cannot write"}, ${code}` : String(error);
}

/** A file-system error on the workspace's data as one configuration line (exit 2), or the error itself. */
export function workspaceDataError(workspace: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== "string" || !UNWRITABLE.has(code)) return error;
  return new ConfigError(
    `workspace ${workspace} is not writable (${REASONS[code] ?? code}): mini-cursor keeps its sessions in ${STATE_DIR_NAME}/ there; use a writable folder (--workspace DIR)`,
  );
}

/** The session database files this process opened: a damaged one is named in the error (src/sessions/session-index.ts). */
const openedDatabases: string[] = [];

export function noteOpenedDatabase(file: string): void {
  if (!openedDatabases.includes(file)) openedDatabases.push(file);
}

/**
 * A SQLite error that says the file itself is damaged (not locked, not unwritable), anywhere in the cause chain.
 * better-sqlite3 reports extended result codes: damage found in an index is SQLITE_CORRUPT_INDEX.
 */
function damagedCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB")) return (e as Error).message || code;
  }
  return undefined;
}

/**
 * A damaged session database as one line that names the file and the way out (exit 2), or undefined for any other
 * error. Moving the file aside keeps the undo store (`.mini-cursor/shadow.git`), which lives beside it.
 */
export function damagedDatabaseLine(error: unknown): string | undefined {
  const said = damagedCode(error);
  if (said === undefined) return undefined;
  const file = openedDatabases.at(-1) ?? `the workspace's ${STATE_DIR_NAME}/sessions.sqlite`;
  return `the session database ${file} is damaged (${said}). To start afresh, move it and its -wal and -shm files aside (mv "${file}" "${file}.damaged"); the undo store beside it is kept, the sessions in it are gone from \`sessions\` (sqlite3's .recover may save some).`;
}
