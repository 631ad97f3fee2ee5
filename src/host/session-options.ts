import type { EventSink, Limits, SafetyPolicy, StopReason } from "../core/index.js";
import type { ApprovalPrompter } from "./prompter.js";
import type { McpServerSettings, MemorySettings } from "../platform/config/index.js";
import type { Budget } from "../models/cost/budget.js";
import type { PriceTable } from "../models/cost/prices.js";
import type { Clock } from "../platform/clock.js";
import type { RunStore } from "../sessions/run-store.js";
import type { HeldSessionLock } from "../sessions/session-records.js";
import type { ModelProvider } from "../models/chat-model.js";
import type { ModelSetup } from "./model-setup.js";
import type { SessionServices } from "./session-services.js";
import type { WorktreeRun } from "./worktree-session.js";
import type { EditorFiles } from "../services/workspace-files/editor-files.js";

/** One chunk of a graph's stream: the namespace (empty at the top, one entry per subgraph level), the mode, the data. */
export type GraphStreamSink = (namespace: readonly string[], mode: string, data: unknown) => void;

/** What a face gives runSession (src/host/session-runner.ts) for one run of a session. */
export interface SessionRunOptions {
  sessionId: string;
  workspace: string;
  task: string;
  limits: Limits;
  commandTimeoutMs: number;
  /** Start from this input (new session, or one killed before its first checkpoint); else continue. */
  fresh: boolean;
  resumed: boolean;
  models: ModelSetup;
  modelLabel: string;
  database: RunStore;
  printer: EventSink;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  safety: SafetyPolicy;
  prompter: ApprovalPrompter;
  prices: PriceTable;
  /** Long-term memory settings from the one resolver (src/platform/config). */
  memory: MemorySettings;
  budget: Budget;
  /** The session ended failed or limit_reached and continues from its last checkpoint (src/graph/continue-session.ts). */
  continueStopped?: boolean;
  /** A follow-up instruction (`resume --message`): the session goes on with a new turn (src/host/follow-up-turn.ts). */
  followUp?: string;
  /** Where the person runs the CLI: the resume hints printed must work from there (the process's by default). */
  cwd?: string;
  /** Undo, memory and sandbox, when the command started them early (src/host/session-services.ts); else started here. */
  services?: SessionServices;
  /** Answers every model call instead of the session's models (`mini-cursor replay`: from a recording). */
  answerFrom?: ModelProvider;
  /** Stops the run like Ctrl-C does (an editor's `session/cancel`): at the next safe point, commands killed. */
  cancel?: AbortSignal;
  /** The editor's buffers (ACP's fs methods): the file tools read and write through them. */
  editor?: EditorFiles;
  /** MCP servers the face adds to the configured ones (an editor's, over ACP). */
  mcpServers?: readonly McpServerSettings[];
  /**
   * The session's lock, when the command took it before changing the session's settings (so that of two processes
   * resuming at once, the one refused changed nothing); it stays the caller's to release. Else taken here.
   */
  lock?: HeldSessionLock;
  /** A `run --worktree` session: `workspace` is inside this git worktree; each changing step is committed on its branch. */
  worktree?: WorktreeRun;
  /**
   * Given every chunk of the graph's stream (values, updates and custom, subgraphs included): the run streams instead
   * of invoking (`mini-cursor serve` passes them on to an API client; the progress events still go to `printer`).
   */
  streamTo?: GraphStreamSink;
  /** Told how the run ended: the session's status and, when it stopped early, why. */
  onOutcome?: (outcome: { status: string; stop: StopReason | null }) => void;
  /**
   * A new session (the CLI's `run`) that stops on an error before the model ever answered (its endpoint down) is
   * deleted, row, checkpoints and undo records, rather than kept as an empty `interrupted` session nobody can use.
   */
  discardUnanswered?: boolean;
}
