export const MAIN_HELP = `mini-cursor — a coding agent for whole-project tasks (planner → researcher / coder / reviewer)

Usage:
  mini-cursor [-c | -r] [options]        a conversation at the terminal (also: mini-cursor chat)
  mini-cursor run "<task>" [options]     start a session on a task
  mini-cursor resume [SESSION] [options] continue a session (the latest by default)
  mini-cursor init [options]             write AGENTS.md for the project (shown as a diff to accept)
  mini-cursor sessions [options]         list sessions of a workspace
  mini-cursor sessions delete SESSION    delete a session that is not running (its history, recording, undo)
  mini-cursor fork SESSION [options]     copy a session into a new id (then resume it with --message)
  mini-cursor diff [SESSION] [options]   what a session changed
  mini-cursor undo [SESSION] [options]   restore every file a session changed, created or deleted
  mini-cursor replay SESSION --into DIR  run a recorded session again offline, from its starting files
  mini-cursor memory <command> [options] long-term memory: search, list, add, forget, stats, reindex, stop
  mini-cursor index <command> [options]  the codebase index: build, search, status, clear
  mini-cursor agents [options]           the agents a session can use: built-in and from .mini-cursor/agents/
  mini-cursor mcp list [options]         MCP servers: where each is declared, its status and its tools
  mini-cursor mcp trust [NAME...]        let sessions start the servers this project declares
  mini-cursor mcp login NAME             sign in to an HTTP MCP server that asks for OAuth (logout: forget it)
  mini-cursor doctor [options]           can a session run here? endpoint, workspace, sandbox, tools, memory
  mini-cursor acp                        serve editors (Zed, JetBrains, Neovim) over the Agent Client Protocol on stdio
  mini-cursor serve [options]            a workspace's sessions for LangGraph Studio and the SDK (Agent Server API)
  mini-cursor <command> --help           help for a command
  mini-cursor --version

Exit codes: 0 done, 1 failed or limit reached, 2 usage or configuration error, 130 interrupted.
Model: OPENAI_API_KEY, OPENAI_BASE_URL, MINI_CURSOR_MODEL (see README); a local Ollama is used when nothing is set.
Settings: flags > environment > <workspace>/mini-cursor.json > ~/.config/mini-cursor/config.json > defaults.`;

export const CHAT_HELP = `Usage: mini-cursor [chat] [-c | -r] [options]

A conversation in the workspace, at a terminal: each message is one turn of one session (as resume --message),
approvals and questions are answered inline, and slash commands act between turns (/help lists them, with the
project's own from .mini-cursor/commands/ and .claude/commands/). Esc stops a turn (the session is kept); Ctrl-C
twice leaves; @path puts a file or folder into the message; a line ending in \\ goes on below.

Options:
  -c, --continue          go on with the latest session of the workspace
  -r, --resume            pick the session to go on with from a list
  --workspace DIR         the project folder (default: the current one)
  --model NAME            the model for every agent
  --base-url URL          an OpenAI-compatible endpoint
  --approval MODE         ask (default), auto or read-only; /approval changes it

Without a terminal (scripts, CI) use mini-cursor run and mini-cursor resume --message.`;

export const ACP_HELP = `Usage: mini-cursor acp

Runs mini-cursor as an Agent Client Protocol (ACP, version 1) agent on stdin/stdout, for editors: Zed
("agent_servers" in settings.json), JetBrains IDEs, Neovim and other ACP clients start it themselves.
stdout carries protocol messages only; logs go to stderr (MINI_CURSOR_LOG_LEVEL).

Each editor session is a mini-cursor session in the editor's folder: the first prompt is the task, later prompts
are follow-up instructions (or the answer to a question the session asked). Approvals are the editor's permission
requests; the approval modes ask, auto and read-only are the session's modes. Sessions are stored as with run:
mini-cursor sessions, resume, diff and undo see them, and the editor can load them again.
Model and settings: as for run (environment, mini-cursor.json, user config; see README).`;

export const RUN_HELP = `Usage: mini-cursor run "<task>" [options]
       mini-cursor run --task-file FILE [options]

Options:
  --workspace DIR         project folder to work in (default: current folder)
  --task-file FILE        read the task from a file (for tasks over 8,000 characters)
  --force                 start even if another session is running in this workspace
  --worktree              work in a new git worktree on branch mini-cursor/<session>; the main checkout is not touched
  --model NAME            model for every agent (default: $MINI_CURSOR_MODEL)
  --base-url URL          OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)
  --max-steps N           sub-agent runs before stopping (default 20)
  --max-revisions N       planner revisions before stopping (default 12)
  --max-review-rounds N   review → fix rounds before stopping (default 3)
  --max-model-calls N     model calls per sub-agent run (default 30)
  --max-questions N       clarifying questions the planner and agents may ask per turn (default 3; 0: never ask)
  --context-budget N      tokens every prompt stays under (default 32000)
  --command-timeout SECS  default timeout of one command (default 120)
  --approval MODE         ask (default): ask before each command; auto: run without asking (deny
                          rules still apply); read-only: no file changes, no commands. MCP tools
                          not annotated read-only ask in every mode unless commands.allow names
                          them (e.g. "mcp__github__*"); read-only offers only read-only ones
  --approve-file-changes  in ask mode, also ask before each file change (shows the change)
  --allow-network         let sandboxed commands use the network
  --no-approve-file-changes
                          do not ask before file changes (overrides mini-cursor.json)
  --no-allow-network      no network for sandboxed commands (overrides mini-cursor.json)
  --budget-tokens N       stop cleanly once the session used N tokens (input + output)
  --budget-usd X          stop cleanly once the session cost X USD (needs a price for every model)
  --json                  print one JSON event per line instead of progress text
  -h, --help              show this help`;

export const RESUME_HELP = `Usage: mini-cursor resume [SESSION] [options]

Continues an interrupted session (Ctrl-C, crash, kill, a model endpoint that kept failing) without
redoing completed steps. SESSION defaults to the most recently updated session of the workspace (inside
a run --worktree session's folder: that session, of the main checkout).
A session that ended failed (the model made no valid plan or gave up) or stopped at a limit continues
from its last checkpoint with fresh limits, optionally with another --model; one stopped by its budget
needs a higher budget. A session that is done is left alone, unless given a follow-up:

With MINI_CURSOR_DATABASE_URL (sessions in PostgreSQL), a session started in another checkout of the
project (another machine) continues here: resume SESSION --workspace DIR runs it in DIR from now on.

--message (-m) "..." continues any session (done, failed, stopped, interrupted) with a new
instruction, as a new turn of the same session: the planner sees the instruction with the original
task and the work done so far, and plans from there. Limits and budgets count per turn. A session
waiting for an answer must be answered first.

Settings flags change the session for the rest of it (each change is printed and kept for later
resumes): --model, --base-url, --approval, --approve-file-changes, --allow-network (and their
--no- forms), the limits, --command-timeout, --context-budget and the budgets.

Options:
  -m, --message TEXT      a follow-up instruction (a new turn)
  --workspace DIR         project folder (default: current folder)
  --model NAME            model for every agent
  --base-url URL          OpenAI-compatible endpoint
  --approval MODE         ask, auto or read-only from now on
  --approve-file-changes  in ask mode, also ask before each file change
  --no-approve-file-changes
                          stop asking before each file change
  --allow-network         let sandboxed commands use the network
  --no-allow-network      take the network away from sandboxed commands
  --max-steps N           sub-agent runs before stopping
  --max-revisions N       planner revisions before stopping
  --max-review-rounds N   review → fix rounds before stopping
  --max-model-calls N     model calls per sub-agent run
  --max-questions N       clarifying questions per turn (each follow-up may ask again; 0: never ask)
  --context-budget N      tokens every prompt stays under
  --command-timeout SECS  default timeout of one command
  --budget-tokens N       raise the session's token budget
  --budget-usd X          raise the session's cost budget (USD)
  --force                 resume even if another session is running in this workspace
  --json                  print one JSON event per line
  -h, --help              show this help`;

export const SESSIONS_HELP = `Usage: mini-cursor sessions [options]
       mini-cursor sessions delete SESSION [options]   (or: sessions rm SESSION)

Lists the sessions of a workspace: id, status, task, last update, tokens, cost (USD; ? when unknown),
turns (1 plus one per follow-up with resume --message) and the latest follow-up instruction.

delete removes a session that is not running, for good: its row, its checkpoint history (a pending
approval or question included), its recorded model calls and its undo records. The files it changed
stay as they are, but it can no longer be resumed, diffed, undone, forked or replayed. A running
session or an unknown id is refused (exit 2). A run --worktree session's worktree and branch are kept;
delete SESSION --worktree also removes its worktree (refused, deleting nothing, while it has uncommitted
changes) and its branch when merged (an unmerged branch is kept).

A run --worktree session is listed in the main checkout it was started from, with its branch and folder.

With MINI_CURSOR_DATABASE_URL the sessions live in PostgreSQL: the workspace's are listed, or every
workspace's with --all (with a WORKSPACE column).

Options:
  --workspace DIR   project folder (default: current folder)
  --all             every workspace's sessions (PostgreSQL; the same as without it for SQLite)
  --worktree        with delete: also remove the session's git worktree, and its branch when merged
  --json            print a JSON array (delete: one session_deleted object)
  -h, --help        show this help`;

export const FORK_HELP = `Usage: mini-cursor fork SESSION [options]

Copies a session into a new id: its row in \`sessions\`, its whole checkpoint history (a pending
approval or question included) and its undo records, so \`diff NEW\` shows the same changes. Try
another direction with \`mini-cursor resume NEW --message "..."\`; the original stays as it was.
A running session is refused: stop it first (its progress is kept).

Options:
  --workspace DIR   project folder (default: current folder)
  --json            print one JSON object (the new id and the resume command)
  -h, --help        show this help`;

export const INIT_HELP = `Usage: mini-cursor init [options]

Starts a session whose task is to read the project (package and build files, README, CI configuration, folder
layout) and write AGENTS.md at its root: the build, test and lint commands, the layout and the conventions. An
existing AGENTS.md is kept and improved. Every file change is asked about (in ask mode, whatever the configured one):
AGENTS.md is shown as a diff (a new file as its lines) and written only if you answer y. Answers come as for run:
keys at a terminal, lines from a pipe (closed stdin leaves the session waiting: resume answers it). Exit codes as
for run. In a conversation, /init does the same in a new session.

Options:
  --workspace DIR   project folder (default: current folder)
  --model NAME      model for every agent
  --base-url URL    OpenAI-compatible endpoint
  --json            print one JSON event per line
  -h, --help        show this help`;

export const AGENTS_HELP = `Usage: mini-cursor agents [options]

Lists the agents a session in the workspace can use: the built-in ones and custom agents from Markdown files in
<workspace>/.mini-cursor/agents/, <workspace>/.claude/agents/, ~/.config/mini-cursor/agents/ and ~/.claude/agents/
(frontmatter: name, description, tools, optional model; the body is the agent's prompt). A file that cannot be used
is listed with its problem, and the exit code is 1.

Options:
  --workspace DIR   project folder (default: current folder)
  --json            print {"agents": [...], "problems": [...]}
  -h, --help        show this help`;

export const INDEX_HELP = `Usage: mini-cursor index <command> [options]

The codebase index of a workspace (a Chroma collection of its functions, classes and text, ranked by meaning and
by words). Sessions keep it fresh on their own; these commands build and query it by hand.

Commands:
  build              index the workspace (only files that changed since the last build are embedded)
  search "<query>"   the best-matching code for a question or an identifier (updates the index first)
  status             files and chunks indexed, the collection, the embedder and the server
  clear              delete the workspace's index

Options:
  --workspace DIR    the workspace (default: current folder)
  --path P           search: only files under this folder (or this file)
  --limit N          search: how many hits (default 10)
  --time-limit S     build, search: stop embedding after S seconds (default 300); the next run continues
  --json             print JSON (search: [{ path, startLine, endLine, symbol, kind, score, snippet }])
  -h, --help         show this help

Configuration: the Chroma server and embedder of long-term memory (CHROMA_URL, MINI_CURSOR_DATA_DIR,
MINI_CURSOR_EMBEDDINGS, ...); MINI_CURSOR_INDEX=off keeps sessions from using the index.`;

export const MEMORY_HELP = `Usage: mini-cursor memory <command> [options]

Long-term memory shared by all sessions (a Chroma collection; memories are scoped by workspace).

Commands:
  search "<query>"   memories most relevant to the query: this workspace first, then others
  list               memories of this workspace, newest first (--all: every workspace)
  add "<note>"       remember a note for this workspace (near-duplicates are merged)
  forget <id>        delete one memory (ids are shown by list and search)
  stats              counts by kind and workspace, embedder, server
  reindex            re-embed every memory with the current embedder (after changing it)
  stop               stop the local Chroma server now (it stays up a while after the last session)

Options:
  --workspace DIR    the workspace memories belong to (default: current folder)
  --all              list: every workspace
  --kind KIND        summary, decision, lesson, finding, file, command or note
  --limit N          how many to show
  --json             print JSON
  -h, --help         show this help

Configuration: CHROMA_URL (use a running server) with CHROMA_TOKEN, CHROMA_AUTH_HEADER, CHROMA_TENANT and
CHROMA_DATABASE for a remote one, MINI_CURSOR_DATA_DIR, MINI_CURSOR_CHROMA_IDLE (seconds the local server stays
up after its last session, default 300), MINI_CURSOR_EMBEDDINGS, MINI_CURSOR_MEMORY_COLLECTION, MINI_CURSOR_MEMORY=off
(see README).`;

export const SERVE_HELP = `Usage: mini-cursor serve [options]

The workspace's sessions over the LangGraph Agent Server API, for LangGraph Studio, the @langchain/langgraph-sdk
client and LangChain's agent chat UI: each session is a thread (its id, title, status, turns, cost; its state, plan
and history, step by step). A run is a turn of the session, as resume --message is, or answers the approval or
question it waits on (a Command resume); it runs under the same locks as the terminal and the editors.

Options:
  --workspace DIR    the workspace whose sessions to serve (default: current folder)
  --host HOST        where to listen (default 127.0.0.1); anything but loopback needs MINI_CURSOR_SERVE_TOKEN
  --port N           the port (default 2024, as langgraph dev; 0 picks a free one)

Environment:
  MINI_CURSOR_SERVE_TOKEN   when set, every request must send it (Authorization: Bearer TOKEN, or x-api-key)`;
