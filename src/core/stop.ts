import { z } from "zod";

/**
 * Why a session stopped before finishing its plan, as data: code decides on `kind` (a budget stop can be continued
 * with a higher budget; memory skips budget stops), people read `detail`. Nothing parses it back from text.
 */
export const STOP_KINDS = [
  "agent_runs",
  "plan_revisions",
  "review_rounds",
  "token_budget",
  "cost_budget",
  "no_plan",
  "no_workspace",
  "gave_up",
  "no_verdict",
] as const;
export const stopReasonSchema = z.object({
  kind: z.enum(STOP_KINDS),
  detail: z.string(),
});
export type StopReason = z.infer<typeof stopReasonSchema>;
export type StopKind = StopReason["kind"];

const LABEL: Record<StopKind, string> = {
  agent_runs: "sub-agent runs",
  plan_revisions: "plan revisions",
  review_rounds: "review rounds",
  token_budget: "token budget",
  cost_budget: "cost budget",
  no_plan: "no valid plan",
  no_workspace: "no workspace",
  gave_up: "the planner gave up",
  no_verdict: "no review verdict",
};

/** The limit's name, for `limit_reached` events and reports. */
export function stopLabel(stop: StopReason): string {
  return LABEL[stop.kind];
}

export function isBudgetStop(stop: StopReason | null | undefined): boolean {
  return stop?.kind === "token_budget" || stop?.kind === "cost_budget";
}

/** Kinds whose detail is already a whole sentence ("token budget of 300 reached (330 used)"). */
const SELF_CONTAINED = new Set<StopKind>(["token_budget", "cost_budget", "gave_up"]);

/** One line for people: "review rounds: 3 rounds of fixes were used …". */
export function describeStop(stop: StopReason | null | undefined): string {
  if (!stop) return "";
  return SELF_CONTAINED.has(stop.kind) ? stop.detail : `${LABEL[stop.kind]}: ${stop.detail}`;
}

/**
 * The reason a host aborts a run's signal with when something outside the run stops it (Ctrl-C, SIGTERM, an editor's
 * cancel): a tool cut short then says who stopped it, not "This operation was aborted". Named AbortError, as the
 * default reason is, so code that recognises an abort by its name still does.
 */
export class RunStopped extends Error {
  constructor(readonly by: string) {
    super(`stopped by ${by}`);
    this.name = "AbortError";
  }
}

/** How a tool call cut short by its run's abort ended: "stopped by Ctrl-C", or plainly stopped without a reason. */
export function stoppedText(reason: unknown): string {
  return reason instanceof RunStopped ? reason.message : "stopped: the run was cancelled";
}
