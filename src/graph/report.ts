import { describeStop, shownTask } from "../core/index.js";
import { usageReportLines } from "../models/cost/format.js";
import { DEFAULT_PRICE_TABLE, type PriceTable } from "../models/cost/prices.js";
import { summarizeUsage } from "../models/cost/usage.js";
import type { WorkspaceStateValue } from "./state.js";

const STATUS_TITLE: Record<string, string> = {
  done: "Done",
  failed: "Failed",
  limit_reached: "Stopped: limit reached",
  running: "Still running",
};

/** Where the text of a listed item ("  ✓ ", "  - ") starts: its continuation lines start there too. */
const ITEM_INDENT = "    ";

/** Commands that did not run are listed too, saying why. */
const REFUSED = { rejected: "rejected by the user", denied: "denied by a rule" } as const;

/**
 * Model text (a goal, a summary, a review note) as part of one report item: its continuation lines start at `indent`,
 * under the item's text rather than at column 0, and its blank lines go, since a blank line ends a section.
 */
function itemText(text: string, indent: string): string {
  return text
    .trim()
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line !== "")
    .join(`\n${indent}`);
}

/** The plain-text final report: what was done, what was not, and what it cost (tokens and USD per agent and model). */
export function renderFinalReport(state: WorkspaceStateValue, prices: PriceTable = DEFAULT_PRICE_TABLE): string {
  const lines: string[] = [`${STATUS_TITLE[state.status] ?? state.status}: ${shownTask(state.task)}`];
  const summary = itemText(state.summary, "");
  if (summary) lines.push(summary);
  if (state.stop) lines.push(`Reason: ${itemText(describeStop(state.stop), "  ")}`);
  if (state.continued) {
    const { times, after } = state.continued;
    lines.push(`Continued ${times === 1 ? "once" : `${times} times`} with \`mini-cursor resume\` (last after: ${describeStop(after)}).`);
  }
  const done = state.plan.filter((s) => s.status === "done");
  const notDone = state.plan.filter((s) => s.status !== "done");
  const f = state.foldedSteps;
  if (f.done + f.failed + f.skipped > 0) {
    lines.push("", `Earlier steps (folded): ${f.done} done, ${f.failed} failed, ${f.skipped} skipped.`);
  }
  if (done.length > 0) {
    lines.push("", "Done:");
    for (const s of done) lines.push(`  ✓ ${s.id} [${s.agent}] ${itemText(`${s.goal}${s.result ? ` — ${s.result}` : ""}`, ITEM_INDENT)}`);
  }
  if (notDone.length > 0) {
    lines.push("", "Not done:");
    for (const s of notDone) lines.push(`  ✗ ${s.id} [${s.agent}] (${s.status}) ${itemText(`${s.goal}${s.result ? ` — ${s.result}` : ""}`, ITEM_INDENT)}`);
  }
  lines.push("", `Files changed (${state.filesChanged.length}):`);
  for (const f of state.filesChanged) lines.push(`  ${f}`);
  if (state.commands.length > 0) {
    lines.push("", "Commands:");
    for (const c of state.commands) {
      const code = c.refused ? REFUSED[c.refused] : c.timedOut ? "timed out" : `exit ${c.exitCode ?? "?"}`;
      lines.push(`  [${c.agent} ${c.stepId}] ${itemText(c.command, ITEM_INDENT)} → ${code}`);
    }
  }
  const review = state.reviews.at(-1);
  lines.push("", `Review: ${review ? `${review.decision} (${review.stepId}) — ${itemText(review.summary, "  ")}` : "none"}`);
  if (review && review.decision === "changes_requested") {
    for (const p of review.problems) lines.push(`  - ${p.file ? `${p.file}: ` : ""}${itemText(p.problem, ITEM_INDENT)}`);
  }
  lines.push(...usageReportLines(summarizeUsage(state.usage, prices)));
  return lines.join("\n");
}
