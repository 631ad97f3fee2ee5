import { z } from "zod";

/** The built-in sub-agents, listed once: their routes, schemas and models per role derive from this. */
export const BUILTIN_AGENT_NAMES = ["researcher", "coder", "reviewer"] as const;
export type BuiltinAgentName = (typeof BUILTIN_AGENT_NAMES)[number];

/** Names that route elsewhere in the session graph, so no agent may take them. */
export const RESERVED_AGENT_NAMES = ["planner", "finish"] as const;

/** Lowercase words joined by `-` or `_` (a custom agent's file may name it so): `docs-writer`, `test_runner`. */
export const AGENT_NAME_PATTERN = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;

/**
 * An agent's name: a built-in one or a custom agent's (defined in a Markdown file, src/agents/custom). Which names
 * exist depends on the session, so schemas that persist names accept any well-formed one; the plan tool checks them
 * against the session's agents.
 */
export const agentNameSchema = z.string().regex(AGENT_NAME_PATTERN, "an agent name is lowercase words joined by - or _");
export type AgentName = BuiltinAgentName | (string & {});

export function isBuiltinAgentName(name: string): name is BuiltinAgentName {
  return (BUILTIN_AGENT_NAMES as readonly string[]).includes(name);
}

/** Who calls a model: the planner or one of the agents (each may have its own model). These roles have flags. */
export const MODEL_ROLES = ["planner", ...BUILTIN_AGENT_NAMES] as const;
/** A custom agent's role is its name. */
export type ModelRole = (typeof MODEL_ROLES)[number] | (string & {});
