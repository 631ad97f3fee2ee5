import { DEFAULT_LIMITS, type Limits } from "../../../core/index.js";
import { modelFor } from "../../../models/config.js";
import type { Clock } from "../../../platform/clock.js";
import { newSessionId } from "../../../sessions/session-id.js";
import { WorkspaceLock } from "../../../sessions/workspace-lock.js";
import { resolveDatabaseTarget } from "../../../platform/config/database-settings.js";
import { requirePricesForCostBudget } from "../budget-setup.js";
import { resolveSessionConfig } from "../../../host/config-setup.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { RUN_HELP } from "../help.js";
import { describeModels, setupModels } from "../../../host/model-setup.js";
import { makePrinter, type CliIo } from "../io.js";
import { offerMcpTrust } from "../mcp-trust-prompt.js";
import { startSessionServices } from "../../../host/session-services.js";
import { switchFlag } from "../session-settings.js";
import type { StoredRunOptions } from "../../../host/stored-options.js";
import { makePrompter } from "../safety-setup.js";
import { readRunArgs } from "./run-args.js";
import {
  addWorktree,
  discardWorktree,
  inspectRepository,
  WorktreeUnavailableError,
  type RepositoryView,
  type SessionWorktree,
} from "../../../sessions/worktree/repository.js";

/**
 * Validates everything that can be validated without LangGraph, then starts the sandbox probe and only then loads
 * LangGraph, the model client and SQLite checkpoints: the probe works while this process loads
 * (src/host/session-services.ts). The undo baseline starts with the first planner call, Chroma once its request is out.
 */
export async function runCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const args = readRunArgs(argv, io.cwd);
  if (!args) {
    io.stdout.write(`${RUN_HELP}\n`);
    return EXIT.done;
  }
  const { values, task, given, commandTimeoutMs, budget, workspace } = args;
  // Outside a git repository (or one without a commit) --worktree is a usage error, before anything is created.
  const repo = values.worktree ? await usable(() => inspectRepository(workspace, io.env)) : null;
  const { config, safety, prices } = await resolveSessionConfig(
    {
      model: values.model,
      baseUrl: values["base-url"],
      approval: values.approval,
      // The --no- forms override a config file that turns them on.
      approveFileChanges: switchFlag(values, "approve-file-changes"),
      allowNetwork: switchFlag(values, "allow-network"),
      contextBudget: values["context-budget"],
    },
    workspace,
    io.env,
  );
  const limits: Limits = {
    ...DEFAULT_LIMITS,
    ...given,
    // The flag, else MINI_CURSOR_CONTEXT_BUDGET (src/config), else the default.
    maxPromptTokens: config.limits.maxPromptTokens ?? DEFAULT_LIMITS.maxPromptTokens,
  };
  requirePricesForCostBudget(budget, prices, { describe: (role) => modelFor(config.model, role) });
  // A malformed MINI_CURSOR_DATABASE_URL is a usage error before anything starts.
  resolveDatabaseTarget(io.env, workspace);
  // At a terminal, the project's MCP servers nobody trusted yet may be trusted now, before anything starts.
  if (!values.json) await offerMcpTrust(workspace, io);
  const printer = makePrinter(values.json ?? false, io, clock);
  const modelLabel = describeModels(config.model);

  const sessionId = newSessionId(clock);
  // `--worktree`: the session works in a new git worktree on its own branch; the main checkout keeps its database.
  const worktree: SessionWorktree | null = repo ? await usable(() => addWorktree(workspace, sessionId, repo, io.env)) : null;
  const sessionWorkspace = worktree?.workspace ?? workspace;
  // One running session per workspace (src/sessions/workspace-lock.ts), held until this process ends the session. A
  // worktree is a workspace of its own: sessions in worktrees of one repository run at once.
  const workspaceLock = WorkspaceLock.acquire(sessionWorkspace, { force: values.force ?? false, flag: "--force" });
  const services = startSessionServices({
    workspace: sessionWorkspace,
    sessionId,
    env: io.env,
    clock,
    memory: config.memory,
    events: printer,
    stderr: io.stderr,
  });
  let stored = false;
  try {
    const [models, { openRunStore }, { runSession }] = await Promise.all([
      setupModels(config.model),
      import("../../../sessions/open-run-store.js"),
      import("../../../host/session-runner.js"),
    ]);
    // The workspace's SQLite file, or PostgreSQL (MINI_CURSOR_DATABASE_URL): src/sessions/open-records.ts.
    const database = await openRunStore(workspace, io.env, clock, { create: true });
    if (!database) throw new Error("no session store");
    try {
      const options: StoredRunOptions = { limits, commandTimeoutMs, budget, safety };
      await database.sessions.create({
        id: sessionId,
        task,
        workspace,
        model: modelLabel,
        options: JSON.stringify(options),
        ...(worktree ? { worktree: worktree.workspace, branch: worktree.branch } : {}),
      });
      stored = true;
      return await runSession({
        sessionId,
        workspace: sessionWorkspace,
        ...(worktree && repo ? { worktree: worktreeRun(worktree, workspace, repo) } : {}),
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
        services,
        // A session whose endpoint never answered is not kept; a worktree session is (its worktree would be orphaned).
        discardUnanswered: worktree === null,
      });
    } finally {
      await database.close();
    }
  } finally {
    // Whatever happened (the runner may not have got as far as its own clean-up), nothing is left running (Chroma).
    services.handOver();
    await services.close();
    workspaceLock.release();
    // A worktree no session row names would be found by nothing: it goes again (a model setup that failed, a database down).
    if (worktree && !stored) await discardWorktree(worktree, io.env);
  }
}

/** A worktree that cannot be used or made is one line, exit 2. */
async function usable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof WorktreeUnavailableError) throw new UsageError(error.message);
    throw error;
  }
}

function worktreeRun(worktree: SessionWorktree, home: string, repo: RepositoryView) {
  return { folder: worktree.folder, branch: worktree.branch, home, uncommittedLeftOut: repo.dirty };
}
