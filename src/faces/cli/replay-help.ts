/** Help of `replay`, apart from the command. */

export const REPLAY_HELP = `Usage: mini-cursor replay SESSION --into DIR [options]

Replays a recorded session without a model endpoint: DIR gets the workspace as it was when the session started (from
the undo store), then the same planner and agents run there with a model that answers from the session's recording
(every model call is recorded in the workspace's session database). Tools really run: where a tool result differs from
the recording (timings, temporary paths and the workspace's own path aside) the replay says which step, which tool call,
and a short diff. A model call the recording does not have (the session took another path) stops the replay.
Approvals and clarifying questions (the planner's and the agents') are answered as the person answered them in the
session, so a replay runs unattended; only what the recording cannot answer is asked on stdin. Follow-up instructions (resume --message) are given again in order.
The replay is a new session in DIR's own .mini-cursor/: resume, diff or undo it there.
Not recreated: files ignored by .gitignore, node_modules/ and long-term memory (a replay runs without it).

Exit codes: 0 the replay matched the recording, 1 it diverged, 2 unknown session, no recording, DIR not empty.

Options:
  --into DIR        a new or empty folder for the replayed workspace (required)
  --until STEP      stop before plan step STEP (e.g. s2) runs; then continue with a real model:
                    mini-cursor resume NEW_SESSION --workspace DIR (the command is printed)
  --workspace DIR   the project folder the session ran in (default: current folder)
  --json            progress as JSON lines, then one replay_finished object
  -h, --help        show this help`;
