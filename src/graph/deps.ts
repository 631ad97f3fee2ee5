import type { PriceTable } from "../models/cost/prices.js";
import type { Elicit, ExtensionTools } from "../services/mcp/index.js";
import type { MemoryStore } from "../memory/types.js";
import type { ModelProvider } from "../models/chat-model.js";
import type { EventSink, SafetyPolicy } from "../core/index.js";
import type { ToolDeps } from "../tools/types.js";

/** What a run takes from its own configuration (a Studio or API run's `configurable`) before its first plan. */
export interface RunSettings {
  /** The approval policy for the run's workspace; undefined leaves the input's (or the default) policy. */
  safety(workspace: string, configurable: Readonly<Record<string, unknown>>): SafetyPolicy | undefined;
}

/** The step a sub-agent run just ended, as afterStep is told it. */
export interface StepDone {
  id: string;
  agent: string;
  goal: string;
}

/** Everything the graph needs from outside, injected so tests, the CLI and Studio can each supply their own. */
export interface GraphDeps {
  models: ModelProvider;
  events: EventSink;
  memory: MemoryStore;
  /** Tool settings (timeouts, output caps); the workspace root comes from the state. */
  tools?: Omit<ToolDeps, "root" | "emit">;
  /** Upper bound for one model call including retries. */
  callTimeoutMs?: number;
  /** No real sandbox for commands: "auto" approval is treated as "ask". */
  forceAsk?: boolean;
  /** Awaited before every sub-agent run, so its tools start only then (e.g. once the undo baseline exists); must not throw. */
  beforeStep?: () => Promise<void>;
  /** Called after every sub-agent run that may have changed the workspace (undo snapshot, a worktree commit); must not throw. */
  afterStep?: (step: StepDone) => Promise<void>;
  /** Prices for the cost shown and for a cost budget (default: the built-in table, src/models/cost/prices.ts). */
  prices?: PriceTable;
  /** Studio and API runs: settings from the run's configuration, resolved like the CLI's (src/platform/config). */
  runSettings?: RunSettings;
  /** The session's MCP tools (src/services/mcp), offered to the agents beside the built-in tools. */
  extensions?: ExtensionTools;
  /** Asks the person what an MCP server asks during a call (elicitation); absent: no person, servers are declined. */
  elicit?: Elicit | "interrupt";
  /**
   * Studio and Agent Server runs: each step takes the workspace's lock while it runs (the CLI and ACP hold it for the
   * whole session), so one session changes a workspace at a time whichever face runs it; throws when another holds it.
   */
  holdWorkspace?: (workspace: string, configurable: Readonly<Record<string, unknown>>) => { release(): void };
}

export const DEFAULT_CALL_TIMEOUT_MS = 10 * 60_000;
