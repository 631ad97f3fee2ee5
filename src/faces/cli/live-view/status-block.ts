import type { AgentName, StepStatus, UsageTotals } from "../../../core/index.js";
import { runningTotal } from "../../../models/cost/format.js";
import type { CommandTail } from "./command-tail.js";
import { formatElapsed, oneLine } from "./layout.js";

export const STEP_ICON: Record<string, string> = { done: "✓", failed: "✗", skipped: "–", pending: "·", in_progress: "▶" };

/** What the bottom of the screen shows while a session runs. */
export interface BlockState {
  spinner: string;
  elapsedMs: number;
  step: { id: string; agent: AgentName } | null;
  usage: UsageTotals | null;
  plan: { id: string; status: StepStatus }[];
  command: string | null;
  tail: CommandTail | null;
}

export type Paint = (code: number, text: string) => string;

/**
 * The redrawn block: the running command's bounded tail, then one status line (spinner, elapsed time, step and
 * agent, tokens and cost so far) and one line with each plan step's state. Every line fits the width.
 */
export function renderBlock(s: BlockState, width: number, paint: Paint): string[] {
  const room = Math.max(20, width - 1);
  const lines: string[] = [];
  if (s.tail && !s.tail.empty) {
    const view = s.tail.view(room - 6);
    const earlier = view.hidden > 0 ? `${view.hidden} earlier line${view.hidden === 1 ? "" : "s"}` : "";
    const note = [view.note, earlier].filter(Boolean).join(", ");
    if (note) lines.push(paint(2, `    ┆ … ${note}`));
    for (const l of view.lines) lines.push(paint(2, "    │ ") + l);
  }
  const who = s.step ? `${s.step.id} ${s.step.agent}` : "planner";
  const usage = s.usage ? runningTotal(s.usage) : "tokens 0 in / 0 out";
  const parts = [formatElapsed(s.elapsedMs), who, usage];
  if (s.command) parts.push(`$ ${s.command}`);
  lines.push(`${paint(36, s.spinner)} ${oneLine(parts.join(" · "), room - 2)}`);
  if (s.plan.length > 0) {
    const steps = s.plan.map((p) => `${STEP_ICON[p.status] ?? "·"} ${p.id}`).join("  ");
    lines.push(paint(2, `  ${oneLine(`plan  ${steps}`, room - 2)}`));
  }
  return lines;
}
