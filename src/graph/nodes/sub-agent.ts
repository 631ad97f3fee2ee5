import type { AgentSpec } from "../../agents/types.js";
import { projectContext } from "../../agents/project-context.js";
import { runReactLoop } from "../../agents/react-loop/index.js";
import { TOOL_FACTORIES } from "../../tools/index.js";
import type { RunBudget } from "../../cost/budget.js";
import { DEFAULT_PRICE_TABLE } from "../../cost/prices.js";
import { UsageMeter } from "../../cost/usage-meter.js";
import { usageKey } from "../../cost/usage.js";
import type { ProgressEvent } from "../../runtime/events.js";
import type { GraphDeps } from "../deps.js";
import { DEFAULT_CALL_TIMEOUT_MS } from "../deps.js";
import { clip, type AgentReport } from "../schemas.js";
import type { WorkspaceStateUpdate, WorkspaceStateValue } from "../state.js";

const CHANGING_TOOLS = new Set(["write_file", "edit_file", "execute_command"]);

/**
 * A graph node that runs one sub-agent on the step the planner routed to. The agent's transcript lives
 * and dies inside its own subgraph; only the compact report and small facts enter the shared state.
 */
export function createSubAgentNode(spec: AgentSpec, deps: GraphDeps) {
  const prices = deps.prices ?? DEFAULT_PRICE_TABLE;

  return async (state: WorkspaceStateValue): Promise<WorkspaceStateUpdate> => {
    // Model calls get the model's name and the session's running totals (shown at step end and in --json).
    const model = deps.models.describe(spec.name);
    const meter = new UsageMeter(state.usage, prices);
    const emit = (event: ProgressEvent): void => deps.events.emit(event.type === "model_call" ? meter.record(event, model) : event);
    // The loop's model node stops the run once the session budget is used up (ReactLoopOptions.budget).
    const runBudget: { budget: RunBudget } = { budget: { base: state.usage, key: usageKey(spec.name, model), budget: deps.budget ?? {}, prices } };
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
    emit({ type: "step_started", stepId: step.id, agent: spec.name, goal: step.goal });
    // memory_search exists only while long-term memory is on; read-only mode offers no way to change anything.
    const names = spec.tools.filter(
      (name) => (name !== "memory_search" || deps.memory.enabled) && (state.safety.approval !== "read-only" || !CHANGING_TOOLS.has(name)),
    );
    const sandbox = deps.tools?.sandbox?.kind === "bubblewrap" ? { ...deps.tools.sandbox, allowNetwork: state.safety.allowNetwork } : deps.tools?.sandbox;
    // One tool result may take at most about a quarter of the prompt budget (4 characters per token).
    const outputLimitChars = Math.min(deps.tools?.outputLimitChars ?? 20_000, state.limits.maxPromptTokens);
    const tools = names.map((name) =>
      TOOL_FACTORIES[name]({ ...deps.tools, outputLimitChars, sandbox, root: state.workspace, emit, memory: deps.memory }),
    );
    // Without a real sandbox nothing runs unasked.
    const safety = deps.forceAsk && state.safety.approval === "auto" ? { ...state.safety, approval: "ask" as const } : state.safety;
    const lastReview = state.reviews.at(-1) ?? null;
    const outcome = await runReactLoop(
      {
        ...runBudget,
        agent: spec.name,
        stepId: step.id,
        model: deps.models.forRole(spec.name),
        tools,
        finishTool: spec.finishTool,
        requireFinishTool: spec.requireFinishTool,
        maxModelCalls: state.limits.maxModelCallsPerRun,
        maxPromptTokens: state.limits.maxPromptTokens,
        callTimeoutMs: deps.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
        emit,
        workspace: state.workspace,
        safety,
        allowPatterns: state.approvedPatterns,
      },
      spec.systemPrompt(state.workspace, [...names, spec.finishTool.name]),
      spec.brief({
        task: state.task,
        workspace: state.workspace,
        step,
        plan: state.plan,
        findings: state.findings,
        filesChanged: state.filesChanged,
        lastReview,
        projectContext: await projectContext(state.workspace),
      }),
    );
    await deps.afterStep?.();
    const report = spec.toReport(outcome, step.id);
    if (outcome.stopReason === "call_limit") {
      emit({ type: "limit_reached", limit: "model calls per run", detail: `${spec.name} used ${outcome.modelCalls} model calls on ${step.id}` });
    }
    emit({ type: "step_finished", stepId: step.id, agent: spec.name, status: report.status === "done" ? "done" : "failed", summary: report.summary });
    if (report.review) {
      emit({ type: "review", stepId: step.id, decision: report.review.decision, problems: report.review.problems.map((p) => p.problem) });
    }
    return {
      lastReport: report,
      counters: runs,
      findings: report.findings.map((f) => ({ stepId: step.id, ...f })),
      filesChanged: outcome.filesChanged,
      commands: outcome.commands.map((c) => ({ stepId: step.id, agent: spec.name, ...c, command: clip(c.command, 200) })),
      reviews: report.review ? [report.review] : [],
      usage: {
        [usageKey(spec.name, model)]: {
          inputTokens: outcome.inputTokens,
          outputTokens: outcome.outputTokens,
          calls: outcome.modelCalls,
          // The loop's own count survives approval pauses and crashes; the meter's is the fallback.
          estimatedCalls: "estimatedCalls" in outcome && typeof outcome.estimatedCalls === "number" ? outcome.estimatedCalls : meter.estimatedCalls,
        },
      },
      approvedPatterns: outcome.allowPatterns,
    };
  };
}
