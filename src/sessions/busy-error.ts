/**
 * Another session holds what this one needs (its workspace, or the session itself): the command is refused and has
 * changed nothing. The CLI exits 2 for it, as for its other refusals, not 1 (a session that failed).
 */
export class BusyError extends Error {}
