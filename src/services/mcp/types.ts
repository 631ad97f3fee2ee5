/**
 * Tools that come from outside the built-in set for one session (MCP servers' tools), as the agents see them: a
 * definition to offer the model, whether it only reads, and a way to run a call. The agents layer offers and runs
 * them (src/agents/middleware); src/services/mcp provides them.
 */
export interface ExtensionTool {
  /** `mcp__<server>__<tool>`, safe as a function name for every provider. */
  name: string;
  description: string;
  /** The tool's JSON Schema for its arguments. */
  inputSchema: Record<string, unknown>;
  /** Annotated `readOnlyHint: true` by its server: offered to every agent, runs without asking. */
  readOnly: boolean;
  server: string;
  /** The tool's name at its server. */
  original: string;
  /** Its safe name was taken by another tool of the server, so this one got a suffix (`mcp list` says so). */
  renamed?: boolean;
  /** The agents this tool's server is limited to (the server's `agents`); undefined: the default split. */
  agents?: readonly string[];
}

/** A tool call's outcome, as text for the model (capped). */
export interface ExtensionResult {
  ok: boolean;
  text: string;
}

export interface ExtensionCallOptions {
  signal?: AbortSignal;
  /** Cap on the text returned. */
  outputLimitChars: number;
  /** The server's progress reports for this call (each also restarts its timeout). */
  onProgress?: (progress: ExtensionProgress) => void;
  /** Asks the person what the server asks during this call (elicitation); absent: no person, the request is declined. */
  elicit?: Elicit;
}

export interface ExtensionProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** One field of an elicitation form: the primitive kinds MCP allows (string, number, integer, boolean, enum). */
export interface ElicitField {
  name: string;
  title: string;
  description?: string;
  type: "string" | "number" | "integer" | "boolean";
  required: boolean;
  /** The allowed values of a string field, and their labels when the server gave some. */
  choices?: { value: string; label: string }[];
  default?: string | number | boolean;
  minimum?: number;
  maximum?: number;
}

/** A server's request for information from the person (MCP `elicitation/create`, form mode). */
export interface ElicitRequest {
  server: string;
  message: string;
  fields: ElicitField[];
  /** The server's JSON Schema for the answer, as sent (an editor shows it as a form itself). */
  schema: Record<string, unknown>;
}

export type ElicitAnswer = { action: "accept"; content: Record<string, string | number | boolean> } | { action: "decline" } | { action: "cancel" };

export type Elicit = (request: ElicitRequest, signal?: AbortSignal) => Promise<ElicitAnswer>;

/**
 * The extension tools of the workspaces a graph serves: the CLI's one session has one workspace (and ignores the
 * argument); Studio serves many, each with its own servers (a server scope in src/host/service-scope.ts).
 */
export interface ExtensionTools {
  /** Settles once every server of the workspace has started or failed (never rejects); waited for before a sub-agent's model call. */
  ready(workspace: string): Promise<void>;
  /** Every tool the workspace has right now (servers that failed have none). */
  list(workspace: string): readonly ExtensionTool[];
  /** One tool by its name, if it exists now. */
  find(workspace: string, name: string): ExtensionTool | undefined;
  /** Runs one call; failures (a timeout, a server that died, an error result) come back as `ok: false`, never thrown. */
  call(workspace: string, name: string, args: Record<string, unknown>, options: ExtensionCallOptions): Promise<ExtensionResult>;
}

/** Every extension tool name starts so; rules and agents name them this way. */
export const EXTENSION_PREFIX = "mcp__";

export function isExtensionToolName(name: string): boolean {
  return name.startsWith(EXTENSION_PREFIX);
}

/** A server that stops by itself is started again at its next call, this many times in a session (a crash loop ends). */
export const MCP_MAX_RESTARTS = 2;
