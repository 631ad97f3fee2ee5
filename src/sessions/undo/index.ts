export { GitUnavailableError, InvalidSessionIdError, StoreBusyError, UndoError, UnknownSessionError } from "./errors.js";
export { resolveSessionTarget, type SessionTarget } from "./session-target.js";
export { ShadowStore, type SessionRecord, type ShadowStoreOptions } from "./shadow-store.js";
export { ALWAYS_EXCLUDED } from "./shadow-repo.js";
export type { ChangeKind, FileChange, SkippedFile, UndoReport } from "./types.js";
export { UndoRecorder } from "./undo-recorder.js";
