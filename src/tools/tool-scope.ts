import type { CommandSandbox } from "../safety/sandbox/types.js";
import type { ScopedDeps } from "./types.js";

/** Characters of one tool result when nothing smaller is set (about a quarter of the default prompt budget). */
const DEFAULT_RESULT_CHARS = 20_000;

/**
 * What a tool reads of the agent run it serves, from LangGraph's runtime context (src/agents/run.ts gives
 * more; this is what the tools need). Typed here, not imported, so the tools stay below the agents.
 */
interface ToolRunContext {
  workspace: string;
  maxPromptTokens?: number;
  safety?: { allowNetwork?: boolean };
}

function runContextOf(config: unknown): ToolRunContext | undefined {
  const context: unknown = typeof config === "object" && config !== null ? (config as { context?: unknown }).context : undefined;
  if (typeof context !== "object" || context === null) return undefined;
  const workspace: unknown = (context as { workspace?: unknown }).workspace;
  return typeof workspace === "string" && workspace !== "" ? (context as ToolRunContext) : undefined;
}

/** Characters one tool result may take in a run: at most the prompt budget (4 characters a token, over a quarter of it). */
export function resultCharsFor(outputLimitChars: number | undefined, maxPromptTokens: number | undefined): number {
  return Math.min(outputLimitChars ?? DEFAULT_RESULT_CHARS, maxPromptTokens ?? Number.POSITIVE_INFINITY);
}

const scoped = new WeakMap<ScopedDeps, WeakMap<object, ScopedDeps>>();

/**
 * The deps of one tool call: a tool is built once per agent (src/agents/build-agent.ts) and each call runs on its
 * run's workspace, output cap (at most the prompt budget, 4 characters a token, over a quarter of it) and network
 * setting, read from the runtime context. Without a run context (a tool used on its own) the factory's deps.
 */
export function scopeOf<D extends ScopedDeps>(deps: D, config: unknown): D {
  const context = runContextOf(config);
  if (!context) {
    // An agent's tools are built without a folder: a call outside a run must not guess one.
    if (deps.root === "") throw new Error("this tool was called outside an agent run: it has no workspace");
    return deps;
  }
  let byContext = scoped.get(deps);
  if (!byContext) scoped.set(deps, (byContext = new WeakMap()));
  const known = byContext.get(context);
  // The cache holds what this function made from `deps` (a D) for this context.
  if (known) return known as D;
  const outputLimitChars = resultCharsFor(deps.outputLimitChars, context.maxPromptTokens);
  const network = context.safety?.allowNetwork;
  const sandbox: CommandSandbox | undefined =
    deps.sandbox?.kind === "bubblewrap" && network !== undefined ? { ...deps.sandbox, allowNetwork: network } : deps.sandbox;
  const made: D = { ...deps, root: context.workspace, outputLimitChars, ...(sandbox ? { sandbox } : {}) };
  byContext.set(context, made);
  return made;
}
