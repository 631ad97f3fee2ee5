import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { AgentGraph } from "../../agents/build-agent.js";
import { extensionsReady, networkLine, offeredExtensionTools, offeredTools, toolAvailability } from "../../agents/agent-tools.js";
import { MCP_DIRECT_LIMIT, SEARCH_MCP_TOOLS } from "../../services/mcp/tool-search.js";
import { projectContext } from "../../agents/brief.js";
import { answeredQuestions, questionsAsked } from "../../agents/middleware/reply-gate.js";
import { readOutcome, runUsage } from "../../agents/run.js";
import type { AgentSpec } from "../../agents/types.js";
import type { WorkspaceAccess } from "../../safety/sandbox/types.js";
import { DEFAULT_PRICE_TABLE } from "../../models/cost/prices.js";
import { usageBaseOf, usageKey } from "../../models/cost/usage.js";
import type { GraphDeps } from "../deps.js";
import { type AgentReport, clip, limitsOf, promptForQuestions, safetyOf, workspaceOf } from "../../core/index.js";
import { budgetOf } from "../../models/cost/budget.js";
import type { AgentRunContext } from "../../agents/run.js";
import type { WorkspaceStateUpdate, WorkspaceStateValue } from "../state.js";

/**
 * The thin adapter between the session graph and one compiled agent (mounted as its subgraph): it turns the routed
 * plan step into the agent's input and the agent's transcript into the compact report the planner reads. It has no
 * side effects before the agent runs, so re-running it when the session resumes after an approval is harmless: the
 * agent continues from its own checkpoint.
 */
export function createSubAgentNode(spec: AgentSpec, agent: AgentGraph, deps: GraphDeps) {
  const emit = deps.events.emit.bind(deps.events);
  return async (state: WorkspaceStateValue, config: LangGraphRunnableConfig): Promise<WorkspaceStateUpdate> => {
    const step = state.plan.find((s) => s.id === state.currentStepId);
    const runs = { ...state.counters, agentRuns: state.counters.agentRuns + 1 };
    if (!step) {
      const report: AgentReport = {
        stepId: state.currentStepId ?? "?",
        agent: spec.name,
        status: "failed",
        summary: "The routed step is not in the plan.",
        filesChanged: [],
        commands: [],
        findings: [],
        modelCalls: 0,
      };
      return { lastReport: report, counters: runs };
    }
    // The run's configurable settings win over the state's: `resume` may have changed them (src/core safetyOf, limitsOf).
    const safety = safetyOf(config.configurable, state.safety);
    const limits = limitsOf(config.configurable, state.limits);
    // Another checkout of the same session (src/core workspaceOf): the run works there.
    const workspace = workspaceOf(config.configurable, state.workspace);
    const tools = offeredTools(spec, safety, toolAvailability(deps.tools, deps.memory.enabled, workspace));
    const brief = spec.brief({
      task: state.task,
      workspace,
      step,
      plan: state.plan,
      findings: state.findings,
      filesChanged: state.filesChanged,
      lastReview: state.reviews.at(-1) ?? null,
      skills: tools.includes("load_skill") ? (deps.tools?.skills?.catalogue(workspace).skills ?? []) : [],
    });
    const maxModelCalls = limits.maxModelCallsPerRun;
    // The planner (or a budget continuation) announced the step and computed the project context when it routed
    // here, so this node can run again after an approval without doing either twice. Computed here only as a fallback.
    const startOf = async (s: typeof step): Promise<string> => (state.stepStart?.stepId === s.id ? state.stepStart.context : projectContext(workspace));
    await deps.beforeStep?.();
    // Its MCP tools are named in its prompt too ("Your tools: …"), once the servers are up.
    await extensionsReady(deps.extensions, workspace);
    const offeredMcp = offeredExtensionTools(spec, safety, deps.extensions, workspace).map((t) => t.name);
    // Too many to list (src/services/mcp/tool-search.ts): the agent finds them with the search tool.
    const mcpTools = offeredMcp.length > MCP_DIRECT_LIMIT ? [SEARCH_MCP_TOOLS] : offeredMcp;
    const final = await agent.invoke(
      {
        messages: [
          new SystemMessage(
            [
              // A session that may ask nothing (--max-questions 0) is not told of ask_user, which it is not offered.
              promptForQuestions(spec.systemPrompt(workspace, [...tools, ...mcpTools, spec.finishTool.name]), limits.maxQuestions),
              networkLine(deps, tools, safety.allowNetwork),
            ]
              .filter(Boolean)
              .join("\n\n"),
          ),
          new HumanMessage({ id: `brief-${step.id}`, content: brief }),
          new HumanMessage({ id: `context-${step.id}`, content: await startOf(step) }),
        ],
        allowPatterns: state.approvedPatterns,
      },
      {
        // The run's inputs are its runtime context, made again from the session's state and settings whenever this
        // node runs (a resume with new settings applies them to the run it stopped in); none of it is checkpointed.
        context: {
          workspace,
          stepId: step.id,
          safety,
          maxModelCalls,
          maxPromptTokens: limits.maxPromptTokens,
          questions: { asked: state.counters.questions, max: limits.maxQuestions },
          usageBase: usageBaseOf(state.usage, deps.prices ?? DEFAULT_PRICE_TABLE),
          budget: budgetOf(config.configurable),
        } satisfies AgentRunContext,
        // Each model call is at most a handful of graph steps (hooks, model, approval, tools).
        recursionLimit: maxModelCalls * 8 + 20,
        signal: config.signal,
      },
    );
    const outcome = readOutcome(final.messages, spec.finishTool.name, final.stop);
    // The undo snapshot after a step costs git processes: taken only when the step may have changed the workspace.
    // The session's last snapshot is taken at its end anyway.
    if (mayHaveChanged(outcome, spec.commandAccess, deps)) await deps.afterStep?.({ id: step.id, agent: spec.name, goal: step.goal });
    const report = spec.toReport(outcome, step.id);
    if (outcome.stopReason === "call_limit") {
      emit({ type: "limit_reached", limit: "model calls per run", detail: `${spec.name} used ${outcome.modelCalls} model calls on ${step.id}` });
    }
    emit({ type: "step_finished", stepId: step.id, agent: spec.name, status: report.status === "done" ? "done" : "failed", summary: report.summary });
    if (report.review) {
      emit({ type: "review", stepId: step.id, decision: report.review.decision, problems: report.review.problems.map((p) => p.problem) });
    }
    const used = runUsage(final.messages);
    return {
      lastReport: report,
      counters: { ...runs, questions: state.counters.questions + questionsAsked(final) },
      ...answersUpdate(state, answeredQuestions(final)),
      findings: report.findings.map((f) => ({ stepId: step.id, ...f })),
      filesChanged: outcome.filesChanged,
      commands: outcome.commands.map((c) => ({ stepId: step.id, agent: spec.name, ...c, command: clip(c.command, 200) })),
      reviews: report.review ? [report.review] : [],
      usage: {
        [usageKey(spec.name, deps.models.describe(spec.name))]: {
          inputTokens: used.inputTokens,
          cachedInputTokens: used.cachedInputTokens,
          outputTokens: used.outputTokens,
          calls: used.modelCalls,
          estimatedCalls: used.estimatedCalls,
        },
      },
      approvedPatterns: final.allowPatterns,
    };
  };
}

/** The person's answers in this run join the session's (the planner sees them on its later turns); none: no update. */
function answersUpdate(state: WorkspaceStateValue, answered: { question: string; answer: string }[]): Pick<WorkspaceStateUpdate, "answers"> {
  return answered.length > 0 ? { answers: [...state.answers, ...answered].slice(-10) } : {};
}

/**
 * Whether a finished step may have changed the workspace: it changed files, or ran a command that could write. The
 * reviewer's commands see the workspace read-only inside bubblewrap, so they cannot; without the sandbox they could.
 */
function mayHaveChanged(
  outcome: { filesChanged: readonly string[]; commands: readonly { refused?: string }[] },
  access: WorkspaceAccess,
  deps: GraphDeps,
): boolean {
  if (outcome.filesChanged.length > 0) return true;
  const ran = outcome.commands.some((c) => c.refused === undefined);
  return ran && !(access === "read-only" && deps.tools?.sandbox?.kind === "bubblewrap");
}
