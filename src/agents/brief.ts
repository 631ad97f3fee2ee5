import { clip } from "../core/index.js";
import { renderSkillList } from "./agent-tools.js";
import type { BriefContext, LoopOutcome } from "./types.js";
import fs from "node:fs/promises";
import path from "node:path";
import { ALWAYS_SKIPPED_NAMES, GitignoreFilter } from "../platform/gitignore-filter.js";
import { readTextFile } from "../services/workspace-files/text-file.js";
import { isUsableRealPath, resolveWorkspacePath } from "../services/workspace-files/workspace-path.js";

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

/**
 * What every sub-agent should know about the project without spending tool calls: a small outline of the
 * workspace (two levels, .gitignore respected) and the project's own rules for agents, when it has them. It goes
 * into the brief once, capped, so it costs the same on the first call and the fortieth.
 */
const RULE_FILES = ["AGENTS.md", "CLAUDE.md", ".cursorrules", ".github/copilot-instructions.md"];
const MAX_ENTRIES = 60;
const MAX_RULES_CHARS = 2_000;

export async function projectContext(workspace: string): Promise<string> {
  const [outline, rules] = await Promise.all([workspaceOutline(workspace), projectRules(workspace)]);
  const parts = [`Workspace outline (top two levels):\n${outline}`];
  if (rules) parts.push(`Project rules from ${rules.file} (follow them):\n${rules.text}`);
  return parts.join("\n\n");
}

async function entries(dir: string): Promise<{ name: string; isDir: boolean }[]> {
  try {
    const list = await fs.readdir(dir, { withFileTypes: true });
    return list
      .filter((d) => !ALWAYS_SKIPPED_NAMES.has(d.name))
      .map((d) => ({ name: d.name, isDir: d.isDirectory() }))
      .sort((a, b) => Number(b.isDir) - Number(a.isDir) || a.name.localeCompare(b.name));
  } catch {
    return [];
  }
}

export async function workspaceOutline(workspace: string): Promise<string> {
  const filter = new GitignoreFilter(workspace);
  await filter.loadFolder("");
  const lines: string[] = [];
  let omitted = 0;
  for (const top of await entries(workspace)) {
    if (filter.isIgnored(top.name, top.isDir)) continue;
    if (lines.length >= MAX_ENTRIES) {
      omitted += 1;
      continue;
    }
    lines.push(top.isDir ? `${top.name}/` : top.name);
    if (!top.isDir) continue;
    await filter.loadFolder(top.name);
    const children = (await entries(path.join(workspace, top.name))).filter((c) => !filter.isIgnored(`${top.name}/${c.name}`, c.isDir));
    for (const child of children) {
      if (lines.length >= MAX_ENTRIES) {
        omitted += 1;
        continue;
      }
      lines.push(`  ${child.name}${child.isDir ? "/" : ""}`);
    }
  }
  if (lines.length === 0) return "(empty)";
  if (omitted > 0) lines.push(`… ${omitted} more entries (use list_directory)`);
  return lines.join("\n");
}

/**
 * The first rule file with text. Read by mini-cursor itself, outside the sandbox, as read_file reads: a rule file that
 * is a symlink (committed, or planted by a command) must stay in the workspace and lead to no credential file and
 * not into mini-cursor's state, or it is passed over.
 */
async function projectRules(workspace: string): Promise<{ file: string; text: string } | null> {
  let root: string;
  try {
    root = await fs.realpath(workspace);
  } catch {
    return null;
  }
  for (const file of RULE_FILES) {
    const resolved = await resolveWorkspacePath(root, file);
    if (!resolved.ok) continue;
    const read = await readTextFile(resolved.abs, (real) => isUsableRealPath(root, real));
    const text = read.ok ? read.text.trim() : "";
    if (!text) continue;
    return { file, text: text.length > MAX_RULES_CHARS ? `${text.slice(0, MAX_RULES_CHARS)}\n… (truncated; read ${file} for the rest)` : text };
  }
  return null;
}
