import type { z } from "zod";
import type { AgentReport, CommandRun, PlanStep, Review, AgentName } from "../core/index.js";
import type { ToolName } from "../tools/index.js";
import type { WorkspaceAccess } from "../safety/sandbox/types.js";

/** How a sub-agent ends its run: a structured "finish" tool whose arguments become the report. */
export interface FinishToolSpec<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  schema: S;
}

/** The outcome of one ReAct run, before it is shaped into an AgentReport. */
export interface LoopOutcome {
  /** Validated finish-tool arguments, when the agent called its finish tool. */
  finish: Record<string, unknown> | null;
  /** Text of the last model reply (used when the agent ended with plain text). */
  lastText: string;
  stopReason: "finished" | "text" | "call_limit" | "loop" | "budget";
  /** Why a run stopped early ("loop"). */
  stopDetail: string;
  modelCalls: number;
  filesChanged: string[];
  commands: CommandRun[];
}

export interface BriefContext {
  task: string;
  workspace: string;
  step: PlanStep;
  plan: PlanStep[];
  findings: { source: string; note: string }[];
  filesChanged: string[];
  lastReview: Review | null;
  /** Skills the agent can load (load_skill is among its tools): listed by name and description. */
  skills?: readonly { name: string; description: string }[];
}

/**
 * A declarative sub-agent: who it is, which tools it may use (enforced in code), how it finishes and
 * how its outcome becomes the compact report the planner reads.
 */
export interface AgentSpec {
  name: AgentName;
  tools: readonly ToolName[];
  /**
   * Tools beyond the built-in ones that this agent lists by name (a custom agent's `mcp__server__tool`, or a
   * `mcp__server__*` glob); resolved per session against the tools that exist.
   */
  extraTools?: readonly string[];
  finishTool: FinishToolSpec;
  /** How its commands see the workspace: the reviewer checks the work and cannot change it. */
  commandAccess: WorkspaceAccess;
  /** A plain-text ending is accepted as the summary unless the agent must return structured output. */
  requireFinishTool: boolean;
  /** `tools` are the names the agent really has in this run, its finish tool included. */
  systemPrompt(workspace: string, tools: readonly string[]): string;
  brief(ctx: BriefContext): string;
  toReport(outcome: LoopOutcome, stepId: string): AgentReport;
}
