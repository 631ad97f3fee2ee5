/** Base class: every failure of the undo store is one of these, with a message fit for one CLI line. */
export class UndoError extends Error {}

/** git is missing or too old: undo is unavailable, the rest of mini-cursor works as before. */
export class GitUnavailableError extends UndoError {}

/** The shadow store has no baseline for this session (never recorded, or a mistyped id). */
export class UnknownSessionError extends UndoError {}

/** A session id that cannot name a ref or a file safely. */
export class InvalidSessionIdError extends UndoError {}

/** Another process held the shadow store's lock for too long. */
export class StoreBusyError extends UndoError {}

/** A git command failed; the message carries git's own first error line. */
export class GitCommandError extends UndoError {}
