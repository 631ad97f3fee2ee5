/** Help of `diff` and `undo`, apart from the commands: `--help` must not load the undo store. */

export const DIFF_HELP = `Usage: mini-cursor diff [SESSION] [options]

Shows what a session changed in the workspace: the files created, modified and deleted, then a unified diff.
SESSION defaults to the most recently updated session of the workspace; inside a run --worktree session's folder,
to that session (of the main checkout).
Ignored files (.gitignore), .git/, .mini-cursor/ and node_modules/ are not tracked.

Options:
  --workspace DIR   project folder (default: current folder)
  --json            print { session, changes: [{ path, change }], diff }
  -h, --help        show this help`;

export const UNDO_HELP = `Usage: mini-cursor undo [SESSION] [options]

Puts back every file a session created, modified or deleted as it was before the session: content, executable
bit, deleted files restored, created files and the folders they needed removed. A file changed after the
session (by you or a later session) is left as it is and listed as skipped.
SESSION defaults to the most recently updated session of the workspace; inside a run --worktree session's folder,
to that session (of the main checkout).
Ignored files (.gitignore), .git/, .mini-cursor/ and node_modules/ are not tracked, so not restored.

Exit codes: 0 undone (or nothing to undo), 1 some files were skipped or undo failed, 2 unknown session.

Options:
  --workspace DIR   project folder (default: current folder)
  --json            print the report as JSON
  -h, --help        show this help`;
