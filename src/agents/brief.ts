import { clip } from "../core/index.js";
import { renderSkillList } from "./skill-list.js";
import type { BriefContext, LoopOutcome } from "./types.js";

/**
 * A sub-agent gets at most this much of the overall task (about 1,000 tokens): its step goal says what to do, and
 * the planner, which reads the whole task on every turn, puts what a step needs from a long task into its goal.
 * Sending a 100 KB task in every sub-agent prompt cost hundreds of thousands of tokens for nothing.
 */
export const BRIEF_TASK_CHARS = 4_000;

function briefTask(task: string): string {
  if (task.length <= BRIEF_TASK_CHARS) return `Overall task: ${task}`;
  const omitted = task.length - BRIEF_TASK_CHARS;
  return `Overall task (its first ${BRIEF_TASK_CHARS} of ${task.length} characters; ${omitted} more are left out, your step below says what to do):\n${task.slice(0, BRIEF_TASK_CHARS)}\n[…]`;
}

/**
 * The focused brief a sub-agent starts from: the overall task, its own step, and only the shared facts
 * it needs (plan outline, findings, files changed, review problems), never other agents' transcripts.
 */
export function renderBrief(ctx: BriefContext, extra: string[] = []): string {
  const lines: string[] = [];
  lines.push(briefTask(ctx.task));
  lines.push(`Workspace: ${ctx.workspace}`);
  lines.push("");
  lines.push(`Your step (${ctx.step.id}): ${ctx.step.goal}`);
  if (ctx.step.acceptanceCriteria.length > 0) {
    lines.push("Acceptance criteria:");
    for (const c of ctx.step.acceptanceCriteria) lines.push(`- ${c}`);
  }
  const others = ctx.plan.filter((s) => s.id !== ctx.step.id);
  if (others.length > 0) {
    lines.push("", "Plan (for context; do only your step):");
    for (const s of others) {
      const result = s.result ? ` → ${clip(s.result, 200)}` : "";
      lines.push(`- ${s.id} [${s.agent}, ${s.status}] ${clip(s.goal, 160)}${result}`);
    }
  }
  if (ctx.findings.length > 0) {
    lines.push("", "Research findings so far:");
    for (const f of ctx.findings.slice(-12)) lines.push(`- (${f.source}) ${clip(f.note, 300)}`);
  }
  if (ctx.filesChanged.length > 0) {
    lines.push("", `Files changed so far in this session: ${ctx.filesChanged.slice(-40).join(", ")}`);
  }
  lines.push(...extra);
  lines.push(...renderSkillList(ctx.skills ?? []));
  return lines.join("\n");
}

/** One sentence on why a run ended early, for the report the planner reads. */
export function stoppedBecause(outcome: Pick<LoopOutcome, "stopReason" | "stopDetail">): string {
  if (outcome.stopReason === "loop" || outcome.stopReason === "budget") return `Stopped: ${outcome.stopDetail}.`;
  return "Stopped at the model-call limit.";
}
