import type { AIMessage } from "@langchain/core/messages";
import type { WrapModelCallHandler } from "langchain";
import type { PriceTable } from "../../models/cost/prices.js";
import type { Elicit, ExtensionTools } from "../../services/mcp/index.js";
import type { MemoryStore } from "../../memory/types.js";
import type { ModelProvider } from "../../models/chat-model.js";
import type { ProgressEvent } from "../../core/index.js";
import type { ToolDeps } from "../../tools/types.js";
import type { evaluateCommand } from "../../safety/command-rules.js";
import type { ModelCallState } from "../run.js";
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
  /** The session's MCP tools (src/services/mcp), offered beside the built-in ones (src/agents/agent-tools.ts). */
  extensions?: ExtensionTools;
  /**
   * Asks the person what an MCP server asks during one of its calls (elicitation); "interrupt": the run pauses with
   * the form and is resumed with the answer (Studio: middleware/elicit-interrupt.ts); absent: declined.
   */
  elicit?: Elicit | "interrupt";
  /** The command rules (src/safety/command-rules.ts evaluateCommand unless given): consulted once per command call. */
  commandRules?: typeof evaluateCommand;
}

/** What the model-call wraps know of the agent they serve: a sub-agent's spec, or the planner's (src/graph/nodes/planner). */
export interface RoleSpec {
  name: AgentSpec["name"];
  finishTool: { name: string };
  /** A prose reply gets one reminder to call the finish tool. */
  requireFinishTool: boolean;
  /** How the agent's commands see the workspace (a sub-agent's; the planner runs none). */
  commandAccess?: AgentSpec["commandAccess"];
}

/** What the model-call middleware needs: a sub-agent's deps, or the planner's with its role. */
export type ModelCallDeps = Pick<AgentDeps, "models" | "emit" | "prices" | "callTimeoutMs" | "forceAsk" | "extensions" | "commandRules"> & { spec: RoleSpec };

/** The rest of a model call (the next wrap, then the model), as a wrap gets it. */
type ModelCallHandler = WrapModelCallHandler<typeof ModelCallState>;
/** One wrap of a model call, with the run state typed: it may change the request and must call `handler` or reply itself. */
type ModelCallWrap = (request: Parameters<ModelCallHandler>[0], handler: ModelCallHandler) => Promise<AIMessage>;
export type { ModelCallHandler, ModelCallWrap };
