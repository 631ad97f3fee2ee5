import { askPlanner, buildPlannerAgent, plannerInput, plannerMaxCalls, type PlannerQuestion, relevantFiles, renderPlannerContext } from "./planner-agent.js";
import { interrupt, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { DEFAULT_CALL_TIMEOUT_MS, type GraphDeps } from "../../deps.js";
import {
  type AgentReport,
  answerOf,
  BUILTIN_AGENT_NAMES,
  clip,
  describeStop,
  limitsOf,
  type PlanStep,
  type QuestionRequest,
  safetyOf,
  type SafetyPolicy,
  type SessionStatus,
  stopLabel,
  type StopReason,
} from "../../../core/index.js";
import type { WorkspaceStateUpdate, WorkspaceStateValue } from "../../state.js";
import { budgetExceeded, budgetOf } from "../../../models/cost/budget.js";
import { DEFAULT_PRICE_TABLE } from "../../../models/cost/prices.js";
import { addUsage, usageBaseOf, usageKey } from "../../../models/cost/usage.js";
import { projectContext } from "../../../agents/brief.js";
import {
  applyReport,
  createPlanTool,
  finalReviewStep,
  foldFinished,
  hasUnreviewedChanges,
  insertReviewFix,
  markInProgress,
  MAX_REVIEWS_WITHOUT_VERDICT,
  nextPendingStep,
  pendingChanged,
  replacePending,
  reviewsWithoutVerdictAfter,
  skipPending,
} from "./plan-ops.js";
import { type PlannerAgentEntry, plannerSystemPrompt } from "./prompt.js";
import { recallInTime } from "../../../memory/types.js";

/** Answers to the planner's questions kept in the state (the limit of questions keeps it smaller anyway). */
const MAX_KEPT_ANSWERS = 10;

/** The planner's pending question, asked now (a LangGraph interrupt), with the person's answer; none pending: undefined. */
function answerPending(state: WorkspaceStateValue): (PlannerQuestion & { answer: string }) | undefined {
  const pending = state.plannerQuestion;
  if (!pending) return undefined;
  const request: QuestionRequest = { type: "question", agent: "planner", stepId: "", question: pending.question, choices: pending.choices };
  return { ...pending, answer: answerOf(interrupt(request)) };
}

/** The agents a session's planner may route to: every name, and the custom ones with their descriptions. */
export interface PlannerAgents {
  names: readonly string[];
  custom: readonly PlannerAgentEntry[];
  /** Agents that can edit files: their changes get a final review. */
  editors: readonly string[];
}

const BUILTIN_ONLY: PlannerAgents = { names: BUILTIN_AGENT_NAMES, custom: [], editors: ["coder"] };

function workspaceFrom(state: WorkspaceStateValue, config: LangGraphRunnableConfig): string {
  const configured = config.configurable?.workspace;
  return state.workspace || (typeof configured === "string" ? configured : "");
}

/**
 * The planner: makes the plan, folds each sub-agent report into it, revises it and routes the next step.
 * Reviews that request changes become fix + re-review steps without a model call; every hard limit ends
 * the session cleanly through `finish`.
 */
export function createPlannerNode(deps: GraphDeps, agents: PlannerAgents = BUILTIN_ONLY) {
  const planTool = createPlanTool(agents.names);
  const editors = new Set(agents.editors);
  const emit = deps.events.emit.bind(deps.events);
  const prices = deps.prices ?? DEFAULT_PRICE_TABLE;
  // Compiled once per session graph: a CLI session (or a Studio server) pays for an endpoint's refusal of tool_choice once.
  const agent = buildPlannerAgent(
    {
      models: deps.models,
      emit,
      prices,
      callTimeoutMs: deps.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      forceAsk: deps.forceAsk ?? false,
      onToolChoiceRefused: (said) =>
        emit({
          type: "notice",
          level: "info",
          message: `The model endpoint refused tool_choice${said ? ` ("${said}")` : ""}; the planner asks without it from now on.`,
        }),
    },
    planTool,
    plannerSystemPrompt(agents.custom),
  );

  return async (state: WorkspaceStateValue, config: LangGraphRunnableConfig): Promise<WorkspaceStateUpdate> => {
    const update: WorkspaceStateUpdate = {};
    // The question the planner asked on its last run is asked first, before anything else and without a model call
    // (on resume, `interrupt` returns the answer); the answer then goes to the model with the question.
    const answered = answerPending(state);
    if (answered) {
      update.plannerQuestion = null;
      update.answers = [...state.answers, { question: answered.question, answer: answered.answer }].slice(-MAX_KEPT_ANSWERS);
    }
    const budget = budgetOf(config.configurable);
    // The run's configurable limits win over the state's: `resume` may have changed them (src/core limitsOf).
    const limits = limitsOf(config.configurable, state.limits);
    const counters = { ...state.counters };
    const report = state.lastReport;
    let plan: PlanStep[] = state.plan;
    if (report) {
      const folded = foldFinished(applyReport(state.plan, report), state.foldedSteps);
      plan = folded.plan;
      if (folded.folded !== state.foldedSteps) update.foldedSteps = folded.folded;
      update.lastReport = null;
    }

    const workspace = workspaceFrom(state, config);
    if (workspace !== state.workspace) update.workspace = workspace;
    // Studio and API runs resolve their approval policy from their own settings, like the CLI (src/platform/config).
    const fromRun = state.plan.length === 0 && !report && workspace ? deps.runSettings?.safety(workspace, config.configurable ?? {}) : undefined;
    const safety: SafetyPolicy = fromRun ?? state.safety;
    if (safety !== state.safety) update.safety = safety;

    const publish = (steps: PlanStep[]) =>
      emit({ type: "plan", revision: counters.planRevisions, steps: steps.map(({ id, agent, goal, status }) => ({ id, agent, goal, status })) });

    /**
     * Ends the session. A stop while the planner was deciding on a report keeps that report unread, so a session that
     * `resume` continues (src/graph/continue-session.ts) decides on it again, with fresh counters or another model.
     */
    const stop = (status: SessionStatus, reason: StopReason | null, summary = "", unread: AgentReport | null = null): WorkspaceStateUpdate => {
      if (status === "limit_reached" && reason) emit({ type: "limit_reached", limit: stopLabel(reason), detail: describeStop(reason) });
      return { ...update, plan: skipPending(plan), counters, status, stop: reason, summary, lastReport: unread, route: "finish", currentStepId: null };
    };

    /** Session usage including this turn's planner calls. */
    let spent = state.usage;
    /**
     * A budget stop keeps the pending steps (and, before a planner call, the unread report) so that `resume` with a
     * higher budget continues where it stopped (src/graph/budget-resume.ts).
     */
    const stopForBudget = (reason: StopReason, unreadReport: AgentReport | null): WorkspaceStateUpdate => {
      emit({ type: "limit_reached", limit: "budget", detail: describeStop(reason) });
      return { ...update, plan, counters, status: "limit_reached", stop: reason, lastReport: unreadReport, route: "finish", currentStepId: null };
    };

    const routeTo = async (step: PlanStep | undefined): Promise<WorkspaceStateUpdate> => {
      if (!step) return stop("done", null, "All plan steps are complete.");
      if (counters.agentRuns >= limits.maxAgentRuns) {
        return stop("limit_reached", {
          kind: "agent_runs",
          detail: `the limit of ${limits.maxAgentRuns} runs was reached before ${step.id} (${clip(step.goal, 80)})`,
        });
      }
      const overBudget = budgetExceeded(spent, budget, prices);
      if (overBudget) return stopForBudget(overBudget, null);
      plan = markInProgress(plan, step.id);
      emit({ type: "step_started", stepId: step.id, agent: step.agent, goal: step.goal });
      const stepStart = { stepId: step.id, context: await projectContext(workspace) };
      return { ...update, plan, counters, route: step.agent, currentStepId: step.id, stepStart };
    };

    if (!workspace) return stop("failed", { kind: "no_workspace", detail: "pass one in the input or in the run's configurable settings" });
    const withoutVerdict = reviewsWithoutVerdictAfter(state.reviewsWithoutVerdict, report);
    if (withoutVerdict !== state.reviewsWithoutVerdict) update.reviewsWithoutVerdict = withoutVerdict;

    if (report?.review?.decision === "changes_requested") {
      if (counters.reviewRounds >= limits.maxReviewRounds) {
        return stop(
          "limit_reached",
          { kind: "review_rounds", detail: `${limits.maxReviewRounds} rounds of fixes were used and the last review still requests changes` },
          "",
          report,
        );
      }
      counters.reviewRounds += 1;
      plan = insertReviewFix(plan, report.review);
      publish(plan);
      return routeTo(nextPendingStep(plan));
    }

    let memories = state.memories;
    const isRevision = state.plan.length > 0;
    // Recalled once per session, by the first turn memory answers in time (MINI_CURSOR_MEMORY_WAIT); the first plan
    // that goes without says so.
    if (!state.memoriesRecalled && memories.length === 0) {
      const recalled = await recallInTime(deps.memory, { task: state.task, workspace, limit: 5 });
      if (recalled !== "late") {
        memories = recalled;
        update.memoriesRecalled = true;
        if (memories.length > 0) update.memories = memories;
      } else if (!isRevision) {
        const message = `Memory was not open within ${deps.memory.recallWaitMs ?? 0} ms (MINI_CURSOR_MEMORY_WAIT), so the first plan goes without recalled memories; later planner turns use them.`;
        deps.events.emit({ type: "notice", level: "info", message });
      }
    }

    if (isRevision && counters.planRevisions >= limits.maxPlanRevisions) {
      return stop("limit_reached", { kind: "plan_revisions", detail: `the limit of ${limits.maxPlanRevisions} revisions was reached` }, "", report);
    }
    // No planner call once the budget is used up (a sub-agent run may have used the rest).
    const overBudget = budgetExceeded(state.usage, budget, prices);
    if (overBudget) return stopForBudget(overBudget, report);
    // Checked after the budget (a budget stop can be continued with a higher budget): without it, an enforced final
    // review that never gives a verdict was added again and again until the run limit.
    if (withoutVerdict >= MAX_REVIEWS_WITHOUT_VERDICT) {
      const detail = `the reviewer ended ${withoutVerdict} reviews in a row without a verdict (approve or changes requested), so the changes are unreviewed; resume gives it another review (perhaps with another model)`;
      return stop("failed", { kind: "no_verdict", detail }, "", report);
    }
    const context = renderPlannerContext(
      { ...state, workspace, plan, memories, counters, safety, limits },
      report,
      await relevantFiles(deps.tools?.codeIndex, state.task),
    );
    const answer = await askPlanner(
      agent,
      planTool,
      plannerInput(context, answered),
      {
        workspace,
        stepId: "",
        safety,
        maxModelCalls: plannerMaxCalls(state.task, limits.maxPromptTokens),
        maxPromptTokens: limits.maxPromptTokens,
        usageBase: usageBaseOf(state.usage, prices),
        questions: { asked: counters.questions, max: limits.maxQuestions },
        budget,
        task: state.task,
      },
      config.signal,
    );
    const { usage } = answer;
    const plannerUsage = {
      [usageKey("planner", deps.models.describe("planner"))]: {
        inputTokens: usage.inputTokens,
        cachedInputTokens: usage.cachedInputTokens,
        outputTokens: usage.outputTokens,
        calls: usage.modelCalls,
        estimatedCalls: usage.estimatedCalls,
      },
    };
    update.usage = plannerUsage;
    spent = addUsage(state.usage, plannerUsage);
    if (answer.question) {
      // The session pauses for the answer: this run keeps only what a re-run would not compute the same way again
      // (the report stays unread, so the planner's next run decides on it with the answer).
      const kept: WorkspaceStateUpdate = {};
      if (update.workspace !== undefined) kept.workspace = update.workspace;
      if (update.safety !== undefined) kept.safety = update.safety;
      if (update.memories !== undefined) kept.memories = update.memories;
      if (update.memoriesRecalled !== undefined) kept.memoriesRecalled = update.memoriesRecalled;
      return {
        ...kept,
        usage: plannerUsage,
        plannerQuestion: answer.question,
        counters: { ...state.counters, questions: state.counters.questions + 1 },
        route: "planner",
      };
    }
    if (isRevision) counters.planRevisions += 1;
    if (!answer.args)
      return stop("failed", { kind: "no_plan", detail: `the planner gave none after ${usage.modelCalls} attempts (${answer.error})` }, "", report);

    const args = answer.args;
    const beforeRevision = plan;
    plan = replacePending(plan, args.finished ? [] : args.remainingSteps);
    const wantsDone = args.finished ? args.outcome !== "failed" : nextPendingStep(plan) === undefined;
    // In read-only mode nothing can change, so there is nothing to review (a review asked to "run the checks"
    // without commands tends to end without a verdict).
    const canChange = safetyOf(config.configurable, safety).approval !== "read-only";
    if (wantsDone && canChange && hasUnreviewedChanges(plan, state.reviews, editors) && counters.agentRuns < limits.maxAgentRuns) {
      // Every change is reviewed before the session reports success.
      emit({ type: "notice", level: "info", message: "Changes since the last approval are unreviewed: adding a final review." });
      plan = [...plan, finalReviewStep(plan)];
    }
    if (!isRevision || pendingChanged(beforeRevision, plan)) publish(plan);
    const next = nextPendingStep(plan);
    if (!next) {
      const outcome: SessionStatus = args.finished && args.outcome === "failed" ? "failed" : "done";
      const failed = outcome === "failed";
      return stop(
        outcome,
        failed ? { kind: "gave_up", detail: clip(args.summary ?? "the planner gave up", 400) } : null,
        args.summary ?? "",
        failed ? report : null,
      );
    }
    return routeTo(next);
  };
}
