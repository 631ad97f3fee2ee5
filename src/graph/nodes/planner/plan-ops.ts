import { type StructuredOutputParsingError, toolStrategy } from "langchain";
import { z } from "zod";
import { BUILTIN_AGENT_NAMES, caps, clip, type AgentReport, type FoldedSteps, type PlanStep, type Review } from "../../../core/index.js";

/**
 * The plan: its schema as the planner's model sends it (the update_plan structured answer), and the bookkeeping on it,
 * kept apart from model calls so routing is easy to test.
 */

export const PLAN_TOOL_NAME = "update_plan";

/** The validation error as the model reads it (LangChain's structured output sends it back as the call's result). */
function invalidPlan(error: Error): string {
  const all = (error as Partial<StructuredOutputParsingError>).errors ?? [error.message];
  // The validator also names every enclosing level ("Property "x" does not match schema."): keep what is wrong.
  const leaves = all.filter((p) => !/(does|did) not match schema\.?$/.test(p));
  const problems = (leaves.length > 0 ? leaves : all).map((p) => p.replace(/\.$/, ""));
  return `Error: invalid ${PLAN_TOOL_NAME} arguments (${problems.join("; ")}). Call ${PLAN_TOOL_NAME} again with valid arguments.`;
}

/**
 * The planner's answer for a session's agents (built-in and custom): the zod schema that gives the arguments their
 * defaults, and LangChain's tool strategy that offers it to the model as the `update_plan` tool (createAgent's
 * `responseFormat`), validates each call against its JSON schema and sends an invalid one back as a tool error for the
 * model to correct. A step's `agent` is an enum of the session's agents in the schema the model reads.
 */
export function createPlanTool(agentNames: readonly string[] = BUILTIN_AGENT_NAMES) {
  const names = [...new Set(agentNames)];
  const schema = z.object({
    remainingSteps: z
      .array(
        z.object({
          agent: z.enum(names as [string, ...string[]]).describe(`The sub-agent that does this step: one of ${names.join(", ")}.`),
          goal: z.string().min(1).describe("What the step must achieve, self-contained."),
          acceptanceCriteria: z.array(z.string()).default([]).describe("Concrete, checkable conditions for the step to be done."),
        }),
      )
      .max(12)
      .describe("The steps still to do, in order (at most 12). Replaces all pending steps. Empty when finished."),
    finished: z.boolean().default(false).describe("true when the task is complete or cannot be completed."),
    outcome: z.enum(["done", "failed"]).optional().describe('When finished: "done" or "failed".'),
    summary: z.string().optional().describe("When finished: what was achieved, or why the task failed."),
  });
  // The input schema: fields with defaults may be left out, and extra fields are ignored, as zod parses them.
  const parameters = {
    ...schema.toJSONSchema({ io: "input" }),
    title: PLAN_TOOL_NAME,
    description: "Set the remaining plan steps, or finish the session. Call this on every turn.",
  };
  const strategy = toolStrategy(parameters, { handleError: invalidPlan, toolMessageContent: "Plan recorded." });
  return { schema, strategy };
}

export type PlanTool = ReturnType<typeof createPlanTool>;
export type PlanToolArgs = z.infer<PlanTool["schema"]>;

const CODER_ONLY: ReadonlySet<string> = new Set(["coder"]);

function idNumber(step: PlanStep): number {
  return Number(/^s(\d+)$/.exec(step.id)?.[1] ?? 0);
}

function nextId(plan: PlanStep[]): () => string {
  let n = plan.reduce((max, s) => Math.max(max, idNumber(s)), 0);
  return () => `s${++n}`;
}

export function applyReport(plan: PlanStep[], report: AgentReport): PlanStep[] {
  return plan.map((s) =>
    s.id === report.stepId ? { ...s, status: report.status === "done" ? "done" : "failed", result: clip(report.summary, caps.result) } : s,
  );
}

/**
 * Completed and failed steps stay; pending steps are replaced by the planner's new remaining steps.
 * A remaining step that repeats a pending one (same agent and goal) keeps its id, so ids stay stable.
 */
export function replacePending(plan: PlanStep[], remaining: PlanToolArgs["remainingSteps"]): PlanStep[] {
  const kept = plan.filter((s) => s.status !== "pending" && s.status !== "in_progress");
  const reusable = plan.filter((s) => s.status === "pending");
  const id = nextId(plan);
  const fresh: PlanStep[] = remaining.map((r) => {
    const goal = clip(r.goal, caps.text);
    const same = reusable.findIndex((s) => s.agent === r.agent && s.goal === goal);
    const previous = same >= 0 ? reusable.splice(same, 1)[0] : undefined;
    return {
      ...(previous ?? {}),
      id: previous?.id ?? id(),
      agent: r.agent,
      goal,
      acceptanceCriteria:
        r.acceptanceCriteria.length > 0 || !previous ? r.acceptanceCriteria.slice(0, caps.criteria).map((c) => clip(c, 200)) : previous.acceptanceCriteria,
      status: "pending",
      result: "",
    };
  });
  return [...kept, ...fresh];
}

/** True when the pending part of the plan differs (what a person watching needs to see again). */
export function pendingChanged(before: PlanStep[], after: PlanStep[]): boolean {
  const pending = (plan: PlanStep[]) => JSON.stringify(plan.filter((s) => s.status === "pending").map((s) => [s.id, s.agent, s.goal]));
  return pending(before) !== pending(after);
}

/** A review that requests changes becomes a coder fix step and a fresh review, ahead of other pending steps. */
export function insertReviewFix(plan: PlanStep[], review: Review): PlanStep[] {
  const id = nextId(plan);
  const done = plan.filter((s) => s.status !== "pending");
  const pending = plan.filter((s) => s.status === "pending");
  const criteria = review.problems.slice(0, caps.criteria).map((p) => clip(`${p.file ? `${p.file}: ` : ""}${p.problem} is fixed`, 200));
  const fix: PlanStep = {
    id: id(),
    agent: "coder",
    goal: `Fix the problems the reviewer found in ${review.stepId}: ${clip(review.summary, 300)}`,
    acceptanceCriteria: criteria.length > 0 ? criteria : ["The reviewer's concerns are addressed and the tests pass"],
    status: "pending",
    result: "",
    fixesReview: review.stepId,
  };
  const recheck: PlanStep = {
    id: id(),
    agent: "reviewer",
    goal: `Review the fixes made for ${review.stepId} and the task as a whole; run the tests.`,
    acceptanceCriteria: ["Every problem from the previous review is fixed", "The tests pass"],
    status: "pending",
    result: "",
  };
  return [...done, fix, recheck, ...pending];
}

export function nextPendingStep(plan: PlanStep[]): PlanStep | undefined {
  return plan.find((s) => s.status === "pending" || s.status === "in_progress");
}

export function markInProgress(plan: PlanStep[], id: string): PlanStep[] {
  return plan.map((s) => (s.id === id ? { ...s, status: "in_progress" } : s));
}

export function skipPending(plan: PlanStep[]): PlanStep[] {
  return plan.map((s) => (s.status === "pending" || s.status === "in_progress" ? { ...s, status: "skipped" } : s));
}

/**
 * True when a step of an agent that can edit files (the coder, or a custom agent with edit tools) finished after
 * the last approving review: the change has not been reviewed.
 */
export function hasUnreviewedChanges(plan: PlanStep[], reviews: Review[], editors: ReadonlySet<string> = CODER_ONLY): boolean {
  const approved = new Set(reviews.filter((r) => r.decision === "approve").map((r) => r.stepId));
  let lastCoder = -1;
  let lastApproval = -1;
  plan.forEach((s, i) => {
    if (editors.has(s.agent) && s.status === "done") lastCoder = i;
    if (s.agent === "reviewer" && approved.has(s.id)) lastApproval = i;
  });
  return lastCoder > lastApproval;
}

/** A review that ends without a verdict may be tried once more; the second in a row ends the session. */
export const MAX_REVIEWS_WITHOUT_VERDICT = 2;

/** The run of verdict-less reviews after this report: a reviewer without a verdict adds one, a verdict resets it. */
export function reviewsWithoutVerdictAfter(count: number, report: AgentReport | null): number {
  if (report?.agent !== "reviewer") return count;
  return report.review ? 0 : count + 1;
}

export function finalReviewStep(plan: PlanStep[]): PlanStep {
  return {
    id: nextId(plan)(),
    agent: "reviewer",
    goal: "Review all changes made in this session against the task; run the tests and checks.",
    acceptanceCriteria: ["The task's requirements are met", "The tests pass"],
    status: "pending",
    result: "",
  };
}

/**
 * Keeps the plan bounded: only the newest `keep` finished steps stay in full, older ones become counts.
 * A checkpoint stores the whole plan at every step, so an ever-growing plan would make storage quadratic.
 */
export function foldFinished(plan: PlanStep[], folded: FoldedSteps, keep: number = caps.finishedSteps): { plan: PlanStep[]; folded: FoldedSteps } {
  // The step with the highest id is never folded: new ids continue from it.
  const top = Math.max(0, ...plan.map(idNumber));
  const finished = plan.filter((s) => (s.status === "done" || s.status === "failed" || s.status === "skipped") && idNumber(s) !== top);
  const excess = finished.length - keep;
  if (excess <= 0) return { plan, folded };
  const drop = new Set(finished.slice(0, excess).map((s) => s.id));
  const next = { ...folded };
  for (const s of finished.slice(0, excess)) {
    if (s.status === "done" || s.status === "failed" || s.status === "skipped") next[s.status] += 1;
  }
  return { plan: plan.filter((s) => !drop.has(s.id)), folded: next };
}
