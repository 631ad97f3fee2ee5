// The leaf module, not the core barrel: the barrel loads zod, which `sessions` and `diff`/`undo` need not pay for.
import { STATE_DIR_NAME } from "../core/workspace.js";
import { ConfigError } from "../runtime/config-file.js";

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
