import { realpathSync } from "node:fs";
import fs from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { DEFAULT_LIMITS } from "../src/core/index.js";
import { largest, measurePrompt, sum, type PromptRecord } from "./context/prompts.js";
import { runScriptedSession, type ScriptedSession } from "./context/scripted-session.js";
import { LONG_FILES, LONG_RUNS, LONG_TASK, longSourceText, makeLongWorkspace } from "./context/long-script.js";
import { compareRequests, inputCost, serializeRequest, shareOf, summarizeShares, type RequestInput, type RequestShare } from "./context/prefix-share.js";

/**
 * "Prompts a provider can cache" (issue 46): the scripted long scenario through the real session graph at the
 * default budget, every request serialized as a chat-completions request and compared with the previous request of
 * the same sub-agent run (the planner's across its turns): the share a prefix cache could reuse, and what input
 * would cost with and without caching at gpt-4.1's prices.
 */
const BUDGET = DEFAULT_LIMITS.maxPromptTokens;
const TARGET_SHARE = 0.75;
/** gpt-4.1, US dollars per million input tokens: cached input at a quarter of the price. */
const PRICES = { input: 2.0, cachedInput: 0.5 };

interface LongRun extends ScriptedSession {
  records: PromptRecord[];
  requests: RequestInput[];
}

async function runLong(workspace: string): Promise<LongRun> {
  const records: PromptRecord[] = [];
  const requests: RequestInput[] = [];
  const session = await runScriptedSession({
    workspace,
    task: LONG_TASK,
    runs: LONG_RUNS,
    maxPromptTokens: BUDGET,
    summary: "Modules audited; the report runner is clean.",
    onPrompt(role, run, messages, tools) {
      const record = measurePrompt(role, run, messages, tools);
      records.push(record);
      // The planner's requests are compared across its turns, a sub-agent's within its run.
      requests.push({ group: role === "planner" ? "planner" : `${role} (run ${run + 1})`, request: serializeRequest(tools, messages) });
      return record;
    },
  });
  return { ...session, records, requests };
}

const n = (value: number) => Math.round(value).toLocaleString("en-US");
const f2 = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "n/a");
const usd = (value: number) => `$${value.toFixed(4)}`;

/** One compact line per run: the shares in order, `—` for the run's first request (nothing to compare with). */
function shareLine(group: string, shares: readonly RequestShare[]): string {
  const values = shares.filter((s) => s.group === group).map((s) => shareOf(s));
  return `  ${group}: ${values.map((v) => (v === null ? "—" : v.toFixed(2))).join(" ")}`;
}

/** Where the compared requests of a run first differ from the previous one, counted by part. */
function divergenceLine(group: string, shares: readonly RequestShare[]): string {
  const counts = new Map<string, number>();
  for (const s of shares) if (s.group === group && s.divergesIn !== null) counts.set(s.divergesIn, (counts.get(s.divergesIn) ?? 0) + 1);
  return `  ${group}: ${[...counts].map(([part, count]) => `${part} ×${count}`).join(", ") || "n/a"}`;
}

export async function benchPromptCache(): Promise<void> {
  const started = performance.now();
  const workspace = await makeLongWorkspace();
  try {
    const run = await runLong(workspace);
    const shares = compareRequests(run.requests);
    const summary = summarizeShares(shares);
    const cost = inputCost(shares, PRICES);
    const groups = [...new Set(shares.map((s) => s.group))];
    const over = run.records.filter((r) => r.tokens > BUDGET).length;
    const sizes = Array.from({ length: LONG_FILES }, (_, k) => longSourceText(k + 1).length / 1024);
    const calls = LONG_RUNS.map((r) => `${r.agent} ${r.calls.length}`).join(", ");

    console.log("\nPrompt cache — how much of each request repeats the previous request's beginning (issue 46)");
    console.log(
      `Scenario \`long\` at measured ${new Date().toISOString()}: the real graph (planner → ${LONG_RUNS.map((r) => r.agent).join(", ")}), tool calls ${calls} (+ a finish call each); ` +
        `${LONG_FILES} files of ${Math.min(...sizes).toFixed(1)}–${Math.max(...sizes).toFixed(1)} KiB, \`node report.js N\` (15–20 KB of output) run 13 times; ` +
        `limits.maxPromptTokens = ${n(BUDGET)} (the default); real tools, scripted fake models.`,
    );
    console.log(
      "Each request is serialized as a chat-completions request carries it: the tool definitions in the bound order (convertToOpenAITool), " +
        "then the messages (convertMessagesToCompletionsMessageParams), as one JSON string. Its shared prefix: the leading characters equal to the " +
        "previous request of the same sub-agent run (the planner: its previous request, across turns). A run's first request has no previous one: " +
        "left out of the shares (it pays full price in the cost).",
    );
    console.log(
      `Requests: ${run.records.length} (${groups.map((g) => `${g} ${shares.filter((s) => s.group === g).length}`).join(", ")}); compared: ${summary.compared}`,
    );
    console.log(`Per-request shares, in order:`);
    for (const g of groups) console.log(shareLine(g, shares));
    console.log(`Where each compared request first differs from the previous one:`);
    for (const g of groups) console.log(divergenceLine(g, shares));
    console.log(
      `Prefix share: mean ${f2(summary.mean)} per request, token-weighted ${f2(summary.weighted)} (shared prefixes / request lengths), ` +
        `min ${f2(summary.min)}, max ${f2(summary.max)}, over ${summary.compared} compared requests`,
    );
    console.log(
      `Input cost estimate (tokens = characters / 4; gpt-4.1: $${PRICES.input.toFixed(2)} per 1M input tokens, cached input $${PRICES.cachedInput.toFixed(2)}, a quarter of the price; ` +
        `OpenAI's rule: a request of at least 1,024 tokens has its shared prefix cached in 128-token increments, a hit of at least 1,024 tokens): ` +
        `${n(cost.tokens)} input tokens, ${n(cost.cachedTokens)} of them cached (${f2(cost.cachedTokens / cost.tokens)}); ` +
        `without caching ${usd(cost.withoutCache)}, with caching ${usd(cost.withCache)}, saving ${((100 * (cost.withoutCache - cost.withCache)) / cost.withoutCache).toFixed(1)}%`,
    );
    const commands = run.state.commands;
    console.log(
      `Checks: ${run.toolCalls} tool calls (${run.failedResults} failed), session ${run.state.status} after ${run.state.counters.agentRuns} sub-agent runs, ` +
        `${commands.length} commands (exit codes ${[...new Set(commands.map((c) => c.exitCode))].join(", ")}); prompt tokens as the context bench counts them: ` +
        `total ${n(sum(run.records))}, largest ${n(largest(run.records))}, ${over} prompt(s) over the budget (${n(BUDGET)})`,
    );
    const notices = run.notices.map((x) => `after request ${x.afterPrompt}: ${x.message}`);
    console.log(`Context notices: ${notices.length === 0 ? "none (the budget never cleared old tool output)" : notices.join(" | ")}`);
    const pass = summary.mean >= TARGET_SHARE && over === 0;
    console.log(
      `Target: prefix share at least ${TARGET_SHARE} with every prompt within the budget: ${pass ? "PASS" : "FAIL"} ` +
        `(mean share ${f2(summary.mean)}, token-weighted ${f2(summary.weighted)}; ${over} prompt(s) over the budget, largest ${n(largest(run.records))})`,
    );
    console.log(`Prompt-cache bench time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
  }
}

const invokedAs = process.argv[1];
if (invokedAs !== undefined && import.meta.url === pathToFileURL(realpathSync(invokedAs)).href) {
  await benchPromptCache();
}
