import { z } from "zod";

/** The sub-agents, listed once: everything that names them (routes, schemas, models per role) derives from this. */
export const AGENT_NAMES = ["researcher", "coder", "reviewer"] as const;
export const agentNameSchema = z.enum(AGENT_NAMES);
export type AgentName = z.infer<typeof agentNameSchema>;

/** Who calls a model: the planner or one of the agents (each may have its own model). */
export const MODEL_ROLES = ["planner", ...AGENT_NAMES] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];
