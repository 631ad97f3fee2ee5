import { realpathSync } from "node:fs";
import fs from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { coderSystemPrompt } from "../src/agents/coder/prompt.js";
import { TOOL_FACTORIES, type ToolName } from "../src/tools/index.js";
import { largest, measurePrompt, PARTS, recordingModel, sum, toolCallReply, type PartName, type PromptRecord } from "./context/prompts.js";
import { ALL_CALLS, RUNS, TASK } from "./context/script.js";
import { runScriptedSession, type ScriptedSession } from "./context/scripted-session.js";
import { makeContextWorkspace, SOURCE_FILES, sourceText } from "./context/workspace.js";
import { printTable } from "./stats.js";

/**
 * "Bounded context, visible cost, no runaway loops": the same scripted 40-tool-call session (every file of a
 * 25-file project read once, searches, a command printing 30 KB run 11 times) through the real graph (planner →
 * sub-agent ReAct loops with the context budget) and through a naive full-history ReAct loop that sends its whole
 * growing transcript on every call. Both use the same fake model script and the same real tools; every prompt a
 * model receives is measured the same way (see context/prompts.ts).
 */
const BUDGET = 16_000;
const NAIVE_OUTPUT_LIMIT = 20_000;
const TARGET_RATIO = 0.35;
/** The naive agent has the coder's workspace tools (everything the script uses, and the write tools). */
const NAIVE_TOOLS: ToolName[] = ["read_file", "list_directory", "search_code", "write_file", "edit_file", "execute_command"];

interface RealRun extends ScriptedSession {
  records: PromptRecord[];
}

async function runReal(workspace: string): Promise<RealRun> {
  const records: PromptRecord[] = [];
  const session = await runScriptedSession({
    workspace,
    task: TASK,
    runs: RUNS,
    maxPromptTokens: BUDGET,
    summary: "All modules audited; the runner output is clean.",
    onPrompt: (role, run, messages, tools) => pushed(records, measurePrompt(role, run, messages, tools)),
  });
  return { ...session, records };
}

function pushed(records: PromptRecord[], record: PromptRecord): PromptRecord {
  records.push(record);
  return record;
}

/** The naive design: one message list (system, task, every call and its full result), all of it sent every time. */
async function runNaive(workspace: string): Promise<{ records: PromptRecord[]; toolCalls: number; failedResults: number }> {
  const records: PromptRecord[] = [];
  const tools: StructuredToolInterface[] = NAIVE_TOOLS.map((name) => TOOL_FACTORIES[name]({ root: workspace, outputLimitChars: NAIVE_OUTPUT_LIMIT }));
  const byName = new Map(tools.map((t) => [t.name, t]));
  const model = recordingModel(
    ALL_CALLS.length + 1,
    (messages, bound) => pushed(records, measurePrompt("naive", 0, messages, bound)),
    (call) => {
      const next = ALL_CALLS[call];
      return next ? toolCallReply(next.name, next.args) : new AIMessage("All modules audited; the runner output is clean.");
    },
  );
  const bound = model.bindTools(tools);
  const messages: BaseMessage[] = [new SystemMessage(coderSystemPrompt(workspace, NAIVE_TOOLS)), new HumanMessage(TASK)];
  let toolCalls = 0;
  let failedResults = 0;
  for (let turn = 0; turn <= ALL_CALLS.length; turn++) {
    const raw = await bound.invoke(messages);
    const calls = raw.tool_calls ?? [];
    messages.push(new AIMessage({ content: raw.content, tool_calls: calls }));
    if (calls.length === 0) break;
    for (const call of calls) {
      const tool = byName.get(call.name);
      if (!tool) throw new Error(`naive loop: no tool ${call.name}`);
      const result: unknown = await tool.invoke({ ...call, type: "tool_call" });
      toolCalls++;
      const content = ToolMessage.isInstance(result) ? result.content : String(result);
      const artifact: unknown = ToolMessage.isInstance(result) ? result.artifact : undefined;
      if (typeof artifact === "object" && artifact !== null && "ok" in artifact && artifact.ok === false) failedResults++;
      messages.push(new ToolMessage({ tool_call_id: call.id ?? "", name: call.name, content }));
    }
  }
  return { records, toolCalls, failedResults };
}

const n = (value: number) => Math.round(value).toLocaleString("en-US");
const pct = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : "n/a");

function designRow(label: string, records: readonly PromptRecord[], budget: number | null): string[] {
  const over = budget === null ? "n/a" : `${records.filter((r) => r.tokens > budget).length}`;
  return [label, `${records.length}`, n(sum(records)), n(largest(records)), n(records.length > 0 ? sum(records) / records.length : 0), over];
}

function partTotals(records: readonly PromptRecord[]): Record<PartName, number> {
  const totals = Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<PartName, number>;
  for (const r of records) for (const p of PARTS) totals[p] += r.parts[p];
  return totals;
}

export async function benchContextBudget(): Promise<void> {
  const started = performance.now();
  const workspace = await makeContextWorkspace();
  try {
    const naive = await runNaive(workspace);
    const real = await runReal(workspace);
    const sizes = Array.from({ length: SOURCE_FILES }, (_, k) => sourceText(k + 1).length / 1024);
    const subAgents = real.records.filter((r) => r.role !== "planner");
    const planner = real.records.filter((r) => r.role === "planner");
    const realTotal = sum(real.records);
    const naiveTotal = sum(naive.records);
    const ratio = realTotal / naiveTotal;
    const over = real.records.filter((r) => r.tokens > BUDGET).length;

    console.log("\nContext budget — bounded sub-agent prompts vs a full-history ReAct loop");
    console.log(
      `Script: ${ALL_CALLS.length} tool calls on a temp project: ${SOURCE_FILES} files of ${Math.min(...sizes).toFixed(1)}–${Math.max(...sizes).toFixed(1)} KiB each read once, ` +
        `3 searches, 1 listing, \`node print.js N\` (30 KB of output) run 11 times with N = 1…11; real tools, scripted fake models.`,
    );
    console.log(
      `mini-cursor: the real graph (planner → researcher, coder, researcher, reviewer; 10 tool calls + a finish call per run), ` +
        `limits.maxPromptTokens = ${n(BUDGET)} (tool output cap ${n(Math.min(20_000, BUDGET))} chars). ` +
        `Naive: one growing message list (system, task, every call and its full result), tool output cap ${n(NAIVE_OUTPUT_LIMIT)} chars.`,
    );
    console.log(
      "Tokens are estimated as LangChain's countTokensApproximately: characters / 4 over every message sent (text, tool-call JSON, tool call ids), " +
        "plus the tool definitions bound to the model (OpenAI JSON) / 4, counted on every call. Planner calls count toward mini-cursor's total.",
    );
    printTable(
      `Prompts sent to the model (budget ${n(BUDGET)} tokens)`,
      ["design", "model calls", "total prompt tokens", "largest prompt", "mean prompt", "prompts over budget"],
      [
        designRow("naive full-history loop", naive.records, BUDGET),
        designRow("mini-cursor graph", real.records, BUDGET),
        designRow("  sub-agents", subAgents, BUDGET),
        designRow("  planner", planner, BUDGET),
      ],
    );

    const naiveParts = partTotals(naive.records);
    const realParts = partTotals(real.records);
    const subParts = partTotals(subAgents);
    const big = real.records.reduce<PromptRecord | undefined>((max, r) => (max && max.tokens >= r.tokens ? max : r), undefined);
    printTable(
      "What the prompts are made of (tokens summed over all prompts, share of that design's total; largest mini-cursor prompt alone)",
      ["part", "naive", "share", "mini-cursor", "share", "sub-agents only", "share", "largest prompt"],
      PARTS.map((p) => [
        p,
        n(naiveParts[p]),
        pct(naiveParts[p], naiveTotal),
        n(realParts[p]),
        pct(realParts[p], realTotal),
        n(subParts[p]),
        pct(subParts[p], sum(subAgents)),
        big ? n(big.parts[p]) : "n/a",
      ]),
    );
    printTable(
      "mini-cursor sub-agent runs",
      ["run", "model calls", "total prompt tokens", "first prompt", "largest prompt", "last prompt"],
      RUNS.map((script, i) => {
        const runs = subAgents.filter((r) => r.run === i);
        return [`s${i + 1} ${script.agent}`, `${runs.length}`, n(sum(runs)), n(runs[0]?.tokens ?? 0), n(largest(runs)), n(runs.at(-1)?.tokens ?? 0)];
      }),
    );

    const reported = Object.values(real.state.usage).reduce((total, u) => total + u.inputTokens, 0);
    const commands = real.state.commands;
    console.log(
      `\nChecks: naive ran ${naive.toolCalls} tool calls (${naive.failedResults} failed); mini-cursor ran ${real.toolCalls} (${real.failedResults} failed), ` +
        `session ${real.state.status} after ${real.state.counters.agentRuns} sub-agent runs, ${commands.length} commands (exit codes ${[...new Set(commands.map((c) => c.exitCode))].join(", ")}); ` +
        `the session's own usage accounting: ${n(reported)} input tokens${reported === realTotal ? " (= the measured total)" : ` (measured ${n(realTotal)})`}.`,
    );
    console.log(`Context notices: ${real.notices.length === 0 ? "none" : real.notices.map((x) => x.message).join(" | ")}`);
    console.log(`Ratio mini-cursor / naive total prompt tokens: ${ratio.toFixed(3)} (${n(realTotal)} / ${n(naiveTotal)})`);
    const pass = ratio <= TARGET_RATIO && over === 0;
    console.log(
      `Target: total at most ${TARGET_RATIO} of the naive loop's, and no prompt over the budget (${n(BUDGET)}): ` +
        `${pass ? "PASS" : "FAIL"} (ratio ${ratio.toFixed(3)}, ${over} prompt(s) over the budget, largest ${n(largest(real.records))})`,
    );
    console.log(`Context bench time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
  }
}

const invokedAs = process.argv[1];
if (invokedAs !== undefined && import.meta.url === pathToFileURL(realpathSync(invokedAs)).href) {
  await benchContextBudget();
}
