/** What a session did to one file, between its `before` baseline and its last `after` snapshot. */
export type ChangeKind = "created" | "modified" | "deleted";

export interface FileChange {
  /** Relative to the workspace, with "/" separators. */
  path: string;
  change: ChangeKind;
}

export interface SkippedFile {
  path: string;
  reason: string;
}

export interface UndoReport {
  session: string;
  /** True when an earlier undo already restored this session; the lists are then the earlier undo's. */
  alreadyUndone: boolean;
  /** When the (first) undo ran, ISO 8601. */
  undoneAt: string;
  /** Modified or deleted files brought back to their content and mode before the session. */
  restored: string[];
  /** Files the session created, and folders it created that became empty (with a trailing "/"). */
  removed: string[];
  /** Files left alone because they changed after the session; each with the reason. */
  skipped: SkippedFile[];
  /** Files the session changed that are already back as they were before it: nothing to do. */
  unchanged: string[];
}
