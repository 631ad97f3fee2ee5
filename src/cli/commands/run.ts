import type { Budget } from "../../cost/budget.js";
import { DEFAULT_LIMITS, type Limits } from "../../core/index.js";
import type { Clock } from "../../runtime/clock.js";
import { openSessionDatabase } from "../../sessions/database.js";
import { newSessionId } from "../../sessions/session-id.js";
import { COMMON_OPTIONS, MODEL_OPTIONS, parse, positiveInt, resolveWorkspace } from "../args.js";
import { BUDGET_OPTIONS, parseBudgetFlags, requirePricesForCostBudget } from "../budget-setup.js";
import { setupSessionConfig } from "../config-setup.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { RUN_HELP } from "../help.js";
import { describeModels } from "../model-setup.js";
import { makePrinter, type CliIo } from "../io.js";
import { runSession } from "../session-runner.js";
import { makePrompter } from "../safety-setup.js";

const RUN_OPTIONS = {
  ...COMMON_OPTIONS,
  ...MODEL_OPTIONS,
  "max-steps": { type: "string" },
  "max-revisions": { type: "string" },
  "max-review-rounds": { type: "string" },
  "max-model-calls": { type: "string" },
  "command-timeout": { type: "string" },
  "context-budget": { type: "string" },
  approval: { type: "string" },
  "approve-file-changes": { type: "boolean" },
  "allow-network": { type: "boolean" },
  ...BUDGET_OPTIONS,
} as const;

export interface StoredRunOptions {
  limits: Limits;
  commandTimeoutMs: number;
  /** Token and cost budget; `resume` keeps it (and may raise it). */
  budget: Budget;
}

export async function runCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const { values, positionals } = parse(argv, RUN_OPTIONS);
  if (values.help) {
    io.stdout.write(`${RUN_HELP}\n`);
    return EXIT.done;
  }
  const task = positionals.join(" ").trim();
  if (!task) throw new UsageError('missing task: mini-cursor run "<task>" (see mini-cursor run --help)');
  const maxAgentRuns = positiveInt(values["max-steps"], "--max-steps") ?? DEFAULT_LIMITS.maxAgentRuns;
  const maxPlanRevisions = positiveInt(values["max-revisions"], "--max-revisions") ?? DEFAULT_LIMITS.maxPlanRevisions;
  const maxReviewRounds = positiveInt(values["max-review-rounds"], "--max-review-rounds") ?? DEFAULT_LIMITS.maxReviewRounds;
  const maxModelCallsPerRun = positiveInt(values["max-model-calls"], "--max-model-calls") ?? DEFAULT_LIMITS.maxModelCallsPerRun;
  const commandTimeoutMs = (positiveInt(values["command-timeout"], "--command-timeout") ?? 120) * 1000;
  const budget = parseBudgetFlags(values);
  const workspace = resolveWorkspace(values.workspace, io.cwd);
  const { config, models, safety, prices } = await setupSessionConfig(
    {
      model: values.model,
      baseUrl: values["base-url"],
      approval: values.approval,
      approveFileChanges: values["approve-file-changes"],
      allowNetwork: values["allow-network"],
      contextBudget: values["context-budget"],
    },
    workspace,
    io.env,
  );
  const limits: Limits = {
    maxAgentRuns,
    maxPlanRevisions,
    maxReviewRounds,
    maxModelCallsPerRun,
    maxPromptTokens: config.limits.maxPromptTokens ?? DEFAULT_LIMITS.maxPromptTokens,
  };
  requirePricesForCostBudget(budget, prices, models.provider);
  const printer = makePrinter(values.json ?? false, io, clock);
  const modelLabel = describeModels(models.settings);

  const database = openSessionDatabase(workspace, clock);
  try {
    const sessionId = newSessionId(clock);
    const stored: StoredRunOptions = { limits, commandTimeoutMs, budget };
    database.sessions.create({ id: sessionId, task, workspace, model: modelLabel, options: JSON.stringify(stored) });
    return await runSession({
      sessionId,
      workspace,
      task,
      limits,
      commandTimeoutMs,
      fresh: true,
      resumed: false,
      models,
      modelLabel,
      database,
      printer,
      clock,
      env: io.env,
      safety,
      prompter: makePrompter(io, values.json ?? false),
      prices,
      memory: config.memory,
      budget,
    });
  } finally {
    database.close();
  }
}
