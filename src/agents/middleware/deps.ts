import type { PriceTable } from "../../cost/prices.js";
import type { MemoryStore } from "../../memory/types.js";
import type { ModelProvider } from "../../models/chat-model.js";
import type { ProgressEvent } from "../../core/index.js";
import type { ToolDeps } from "../../tools/types.js";
import type { AgentSpec } from "../types.js";

/** What an agent's middleware needs from outside; fixed for the process, while per-run values live in the run state. */
export interface AgentDeps {
  spec: AgentSpec;
  models: ModelProvider;
  emit: (event: ProgressEvent) => void;
  memory: MemoryStore;
  /** Tool settings (timeouts, output caps, sandbox); the workspace root comes from the run state. */
  tools?: Omit<ToolDeps, "root" | "emit">;
  /** No real sandbox for commands: "auto" approval is treated as "ask". */
  forceAsk: boolean;
  prices: PriceTable;
  /** Upper bound for one model call including retries. */
  callTimeoutMs: number;
}
