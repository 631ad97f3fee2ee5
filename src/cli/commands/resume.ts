import { z } from "zod";
import { budgetSchema } from "../../cost/budget.js";
import { budgetHint } from "../../graph/budget-resume.js";
import { planContinuation } from "../../graph/continue-session.js";
import { summarizeUsage } from "../../cost/usage.js";
import { compileGraph } from "../../graph/build-graph.js";
import { DEFAULT_LIMITS, isBudgetStop, limitsSchema, silentSink } from "../../core/index.js";
import type { WorkspaceStateValue } from "../../graph/state.js";
import { memoryOff } from "../../memory/types.js";
import type { ModelProvider } from "../../models/chat-model.js";
import { openSessionDatabase, type SessionDatabase } from "../../sessions/database.js";
import type { Clock } from "../../runtime/clock.js";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { COMMON_OPTIONS, MODEL_OPTIONS, parse, resolveWorkspace } from "../args.js";
import { BUDGET_OPTIONS, parseBudgetFlags, raiseBudget, requirePricesForCostBudget } from "../budget-setup.js";
import { setupSessionConfig } from "../config-setup.js";
import { EXIT, UsageError, exitCodeForStatus } from "../exit-codes.js";
import { RESUME_HELP } from "../help.js";
import { makePrinter, type CliIo } from "../io.js";
import { describeModels } from "../model-setup.js";
import { runSession } from "../session-runner.js";
import { makePrompter } from "../safety-setup.js";

const storedSchema = z.object({
  limits: limitsSchema.default(DEFAULT_LIMITS),
  commandTimeoutMs: z.number().default(120_000),
  budget: budgetSchema.default({}),
});

/** A graph that runs nothing, to read a session's state before deciding how to continue it. */
async function readSessionState(database: SessionDatabase, sessionId: string): Promise<WorkspaceStateValue> {
  const inert: ModelProvider = {
    forRole: () => {
      throw new Error("reading state only");
    },
    describe: () => "",
  };
  const graph = compileGraph({ models: inert, events: silentSink, memory: memoryOff }, database.checkpointer);
  return (await graph.getState({ configurable: { thread_id: sessionId } })).values as WorkspaceStateValue;
}

async function hasCheckpoint(checkpointer: SqliteSaver, sessionId: string): Promise<boolean> {
  const tuple = await checkpointer.getTuple({ configurable: { thread_id: sessionId, checkpoint_ns: "" } });
  return tuple !== undefined;
}

export async function resumeCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const { values, positionals } = parse(argv, { ...COMMON_OPTIONS, ...MODEL_OPTIONS, ...BUDGET_OPTIONS });
  if (values.help) {
    io.stdout.write(`${RESUME_HELP}\n`);
    return EXIT.done;
  }
  if (positionals.length > 1) throw new UsageError("resume takes at most one session id");
  const budgetFlags = parseBudgetFlags(values);
  const workspace = resolveWorkspace(values.workspace, io.cwd);
  const database = openSessionDatabase(workspace, clock);
  try {
    const wanted = positionals[0];
    const session = wanted ? database.sessions.get(wanted) : database.sessions.latest();
    if (!session) {
      throw new UsageError(wanted ? `no session "${wanted}" in ${workspace} (see mini-cursor sessions)` : `no sessions in ${workspace} yet`);
    }
    const printer = makePrinter(values.json ?? false, io, clock);
    const finished = () => {
      printer.emit({ type: "notice", level: "info", message: `Session ${session.id} already finished (${session.status}); nothing to resume.` });
      return exitCodeForStatus(session.status);
    };
    if (session.status === "done") return finished();
    // A session that ended failed or limit_reached continues from its last checkpoint (src/graph/continue-session.ts).
    const stoppedState = session.status === "failed" || session.status === "limit_reached" ? await readSessionState(database, session.id) : null;
    const stored = storedSchema.parse(JSON.parse(session.options));
    const budget = raiseBudget(stored.budget, budgetFlags);
    const { config, models, safety, prices } = await setupSessionConfig({ model: values.model, baseUrl: values["base-url"] }, workspace, io.env);
    requirePricesForCostBudget(budget, prices, models.provider);
    const continuation = stoppedState ? planContinuation(stoppedState, budget, prices) : null;
    if (continuation?.kind === "refuse") {
      const stop = stoppedState?.stop ?? null;
      const message = isBudgetStop(stop)
        ? `Session ${session.id} stopped at its budget and cannot continue: ${continuation.reason}. ${budgetHint(session.id, stop, summarizeUsage(stoppedState?.usage ?? {}, prices))}`
        : `Session ${session.id} ended ${session.status} and cannot continue: ${continuation.reason}.`;
      printer.emit({ type: "notice", level: "info", message });
      return exitCodeForStatus(session.status);
    }
    database.sessions.update(session.id, { options: JSON.stringify({ ...stored, budget }) });
    // Killed before its first checkpoint: nothing to continue from, so start it again from its task.
    const fresh = !(await hasCheckpoint(database.checkpointer, session.id));
    return await runSession({
      sessionId: session.id,
      workspace,
      task: session.task,
      limits: stored.limits,
      commandTimeoutMs: stored.commandTimeoutMs,
      fresh,
      resumed: true,
      models,
      modelLabel: describeModels(models.settings),
      database,
      printer,
      clock,
      env: io.env,
      // A session keeps the safety settings it started with (they are in its state); these apply only
      // when it must start over because it was killed before its first checkpoint.
      safety,
      prompter: makePrompter(io, values.json ?? false),
      prices,
      memory: config.memory,
      budget,
      continueStopped: continuation?.kind === "continue",
    });
  } finally {
    database.close();
  }
}
