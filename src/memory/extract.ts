import { clip, describeStop, isBudgetStop } from "../core/index.js";
import type { MemoryKind, SessionOutcome } from "./types.js";

export interface MemoryDraft {
  kind: MemoryKind;
  text: string;
  source: string;
}

/**
 * What a finished session teaches, derived from its state without another model call: the outcome, the
 * changes decided, lessons (what failed and why, what fixed it), files and commands that mattered, and the
 * researcher's findings with their sources.
 */
export function extractMemories(o: SessionOutcome): MemoryDraft[] {
  const drafts: MemoryDraft[] = [];
  const task = clip(oneLine(o.task), 200);
  const outcome = o.summary || describeStop(o.stop) || "no summary";
  const steps = o.plan.map((s) => `${s.agent} ${s.status}: ${clip(s.goal, 100)}`).join("; ");
  drafts.push({ kind: "summary", text: clip(`Task "${task}" ended ${o.status}: ${clip(outcome, 300)}. Steps: ${steps}`, 900), source: "" });

  for (const s of o.plan) {
    if (s.agent === "coder" && s.status === "done" && s.result) {
      drafts.push({ kind: "decision", text: clip(`For "${task}": ${clip(s.goal, 200)} → ${s.result}`, 600), source: "" });
    }
  }
  drafts.push(...lessons(o, task));

  if (o.filesChanged.length > 0) {
    drafts.push({ kind: "file", text: clip(`Files changed for "${task}": ${o.filesChanged.slice(0, 30).join(", ")}`, 800), source: "" });
  }
  const worked = [...new Set(o.commands.filter((c) => c.exitCode === 0).map((c) => c.command))];
  if (worked.length > 0) {
    drafts.push({
      kind: "command",
      text: clip(
        `Commands that worked for "${task}": ${worked
          .slice(0, 10)
          .map((c) => `\`${c}\``)
          .join(", ")}`,
        800,
      ),
      source: "",
    });
  }
  for (const f of o.findings) drafts.push({ kind: "finding", text: clip(oneLine(f.note), 600), source: clip(oneLine(f.source), 200) });
  return cleanEntries(drafts);
}

/** Model text as one line: line breaks, indentation and runs of spaces become single spaces. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Each memory one clean entry: a single line (the model's line breaks and blank lines are not stored verbatim; they
 * read badly in a recalled list and in `memory list`), none empty, and the same fact of a kind stored once.
 */
function cleanEntries(drafts: readonly MemoryDraft[]): MemoryDraft[] {
  const seen = new Set<string>();
  const clean: MemoryDraft[] = [];
  for (const d of drafts) {
    const text = oneLine(d.text);
    const key = `${d.kind}\0${text}`;
    if (text === "" || seen.has(key)) continue;
    seen.add(key);
    clean.push({ ...d, text, source: oneLine(d.source) });
  }
  return clean;
}

function lessons(o: SessionOutcome, task: string): MemoryDraft[] {
  const out: MemoryDraft[] = [];
  const fixes = o.plan.filter((s) => s.agent === "coder" && s.status === "done");
  for (const review of o.reviews) {
    if (review.decision !== "changes_requested") continue;
    // The fix step names the review it answers (`s1` must not match `s12` as a substring of a goal would).
    const fix = fixes.find((s) => s.fixesReview === review.stepId);
    for (const p of review.problems.slice(0, 4)) {
      const fixed = fix ? ` Fixed by: ${clip(fix.result, 200)}` : "";
      out.push({ kind: "lesson", text: clip(`Review of "${task}" found${p.file ? ` in ${p.file}` : ""}: ${p.problem}.${fixed}`, 600), source: p.file ?? "" });
    }
  }
  // A command that failed and later passed: what was wrong is worth remembering.
  const failedFirst = new Map<string, number | null>();
  for (const c of o.commands) {
    // A command that was refused never ran: it says nothing about the project.
    if (c.refused) continue;
    if (c.exitCode !== 0 && !failedFirst.has(c.command)) failedFirst.set(c.command, c.exitCode);
    if (c.exitCode === 0 && failedFirst.has(c.command)) {
      const code = failedFirst.get(c.command);
      out.push({
        kind: "lesson",
        text: clip(`\`${c.command}\` failed (exit ${code ?? "killed"}) during "${task}" and passed after the fixes of step ${c.stepId}.`, 500),
        source: c.command,
      });
      failedFirst.delete(c.command);
    }
  }
  for (const s of o.plan) {
    if (s.status === "failed") out.push({ kind: "lesson", text: clip(`Step failed during "${task}": ${clip(s.goal, 200)} — ${s.result}`, 600), source: "" });
  }
  // A spent token or cost budget says nothing about the project: not a lesson.
  if (o.status !== "done" && o.stop && !isBudgetStop(o.stop)) {
    out.push({ kind: "lesson", text: clip(`Task "${task}" stopped (${o.status}): ${describeStop(o.stop)}`, 500), source: "" });
  }
  return out;
}
