/**
 * Runs `npx @langchain/langgraph-cli dev` as a child process for tests.
 *
 * - The server runs from a throwaway project folder whose `langgraph.json` is the repository's own with the graph
 *   paths made absolute, plus a `node_modules` symlink (the server resolves `@langchain/langgraph` from the project
 *   folder). So the state the dev server persists (`.langgraph_api/`) and the `.gitignore` it may write land in the
 *   throwaway folder, never in the repository, and parallel runs cannot share state.
 * - The CLI gets its own process group (`detached`), so `stop()` can end the whole tree it starts
 *   (npm exec → langgraphjs → tsx → server → esbuild) with one signal, SIGKILL after a grace period.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { freePort } from "../../helpers/free-port.js";
import { Client } from "@langchain/langgraph-sdk";
import type { WorkspaceStateValue } from "../../../src/graph/state.js";

export interface DevServer {
  /** e.g. `http://127.0.0.1:PORT`: pass to the SDK `Client` as `apiUrl`. */
  url: string;
  /** Process group id of the CLI and everything it started. */
  pgid: number;
  /** The throwaway project folder the server runs from (holds `.langgraph_api/`). */
  projectDir: string;
  /** The last lines the server printed (stdout and stderr), for failure messages. */
  logTail(): string;
  /** Ends the whole process group (SIGTERM, then SIGKILL) and deletes the project folder. Safe to call twice. */
  stop(): Promise<void>;
}

export interface DevServerOptions {
  /** The repository root holding `langgraph.json` and `node_modules`. */
  repoRoot: string;
  /** How long to wait for `GET /ok`. */
  readyTimeoutMs: number;
  /** How long SIGTERM gets before SIGKILL. */
  stopGraceMs?: number;
  /** Variables for the server (and the graph inside it), e.g. where memory lives. */
  env?: Record<string, string>;
  /** Port for the first attempt (default: a free one). Retries after EADDRINUSE always take a free port. */
  port?: number;
  /** Also append what the server prints to this file (for test files that share a server started elsewhere). */
  logFile?: string;
}

const LOG_LIMIT = 64 * 1024;

/** Variables that would make the server (or the graph inside it) reach a real service or change behaviour. */
const DROPPED_ENV = /^(LANGSMITH_|LANGCHAIN_|LANGGRAPH_API_KEY$|OPENAI_|MINI_CURSOR_|VITEST|NODE_OPTIONS$|NODE_ENV$)/;

function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!DROPPED_ENV.test(key)) env[key] = value;
  }
  return {
    ...env,
    LANGGRAPH_CLI_NO_ANALYTICS: "1",
    LANGSMITH_TRACING: "false",
    BROWSER: "none",
    NO_COLOR: "1",
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    ...extra,
  };
}

interface LangGraphConfig {
  graphs: Record<string, string>;
  dependencies?: string[];
  [key: string]: unknown;
}

function isLangGraphConfig(value: unknown): value is LangGraphConfig {
  if (typeof value !== "object" || value === null) return false;
  const graphs = (value as { graphs?: unknown }).graphs;
  return typeof graphs === "object" && graphs !== null && Object.values(graphs).every((g) => typeof g === "string");
}

/** The repository's langgraph.json with every graph file (and dependency) as an absolute path. */
async function absoluteConfig(repoRoot: string): Promise<LangGraphConfig> {
  const parsed: unknown = JSON.parse(await readFile(path.join(repoRoot, "langgraph.json"), "utf8"));
  if (!isLangGraphConfig(parsed)) throw new Error("langgraph.json has no graphs");
  const graphs: Record<string, string> = {};
  for (const [id, spec] of Object.entries(parsed.graphs)) {
    const colon = spec.lastIndexOf(":");
    const file = colon > 0 ? spec.slice(0, colon) : spec;
    const exported = colon > 0 ? spec.slice(colon) : "";
    graphs[id] = `${path.resolve(repoRoot, file)}${exported}`;
  }
  const config: LangGraphConfig = { ...parsed, graphs };
  if (parsed.dependencies) config.dependencies = parsed.dependencies.map((d) => path.resolve(repoRoot, d));
  return config;
}

/** Live (non-zombie) processes in a process group, read from /proc (Linux). */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp ...": comm may contain spaces and parentheses, so split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const state = fields[0];
    const pgrp = Number(fields[2]);
    if (pgrp === pgid && state !== "Z" && state !== "X") members.push(Number(entry));
  }
  return members;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (groupMembers(pgid).length === 0) return true;
    if (Date.now() >= deadline) return false;
    await sleep(100);
  }
}

/** Another process took the port between `freePort()` and the server's `listen()`: worth another try. */
class PortTakenError extends Error {}

async function waitForOk(url: string, child: ChildProcess, timeoutMs: number, log: () => string, logTail: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = "";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`langgraph dev exited early (${child.exitCode ?? child.signalCode}) before /ok answered:\n${logTail()}`);
    }
    // The server logs EADDRINUSE but the CLI keeps running, so this would otherwise wait out the whole timeout.
    if (log().includes("EADDRINUSE")) throw new PortTakenError(`port of ${url} was taken:\n${logTail()}`);
    try {
      const res = await fetch(`${url}/ok`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) {
        const body: unknown = await res.json();
        if (typeof body === "object" && body !== null && (body as { ok?: unknown }).ok === true) return;
        lastError = `unexpected /ok body ${JSON.stringify(body)}`;
      } else {
        lastError = `HTTP ${res.status}`;
      }
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await sleep(250);
  }
  throw new Error(`langgraph dev did not answer /ok within ${timeoutMs} ms (last: ${lastError}):\n${logTail()}`);
}

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const attempts = 3;
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options, attempt === 1 ? options.port : undefined);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= attempts) throw error;
    }
  }
}

async function startOnce(options: DevServerOptions, fixedPort: number | undefined): Promise<DevServer> {
  const { repoRoot, readyTimeoutMs, stopGraceMs = 8_000 } = options;
  const projectDir = await realpath(await mkdtemp(path.join(os.tmpdir(), "mini-cursor-langgraph-dev-")));
  await writeFile(path.join(projectDir, "langgraph.json"), `${JSON.stringify(await absoluteConfig(repoRoot), null, 2)}\n`);
  await symlink(path.join(repoRoot, "node_modules"), path.join(projectDir, "node_modules"), "dir");

  const port = fixedPort ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const args = [
    "--no", // never install: the CLI is a devDependency, and an install prompt would hang the test
    "@langchain/langgraph-cli",
    "dev",
    "--port",
    String(port),
    "--host",
    "127.0.0.1",
    "--no-browser",
    "--no-reload",
    "--config",
    path.join(projectDir, "langgraph.json"),
  ];
  const child = spawn("npx", args, {
    cwd: repoRoot,
    env: childEnv(options.env),
    detached: true, // own process group: stop() signals the whole tree
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const append = (text: string): void => {
    log += text;
    if (options.logFile) appendFileSync(options.logFile, text);
    if (log.length > LOG_LIMIT) log = log.slice(log.length - LOG_LIMIT);
  };
  child.on("error", (error) => append(`\n[spawn error] ${error.message}\n`));
  const pid = child.pid;
  if (pid === undefined) {
    await rm(projectDir, { recursive: true, force: true });
    throw new Error(`could not spawn npx: ${log.trim()}`);
  }
  child.stdout?.setEncoding("utf8").on("data", append);
  child.stderr?.setEncoding("utf8").on("data", append);
  const logTail = (lines = 60): string => log.split("\n").slice(-lines).join("\n");

  // Last resort if the test process goes away without running afterAll.
  const onExit = (): void => signalGroup(pid, "SIGKILL");
  process.once("exit", onExit);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      process.off("exit", onExit);
      signalGroup(pid, "SIGTERM");
      if (!(await waitGroupGone(pid, stopGraceMs))) {
        signalGroup(pid, "SIGKILL");
        if (!(await waitGroupGone(pid, 5_000))) {
          throw new Error(`langgraph dev process group ${pid} still has live processes: ${groupMembers(pid).join(", ")}`);
        }
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
      await rm(projectDir, { recursive: true, force: true });
    })();
    return stopping;
  };

  try {
    await waitForOk(url, child, readyTimeoutMs, () => log, logTail);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pgid: pid, projectDir, logTail: () => logTail(), stop };
}

/** What a test runs on the dev server's graph: a task in a workspace, with the scripted model at `baseUrl`. */
export interface ThreadRun {
  workspace: string;
  baseUrl: string;
  task: string;
  timeoutMs: number;
  recursionLimit?: number;
}

/** Runs the task on a new thread of the `mini-cursor` graph (auto approval) and waits for it; the thread's final state. */
export async function runOnNewThread(dev: Pick<DevServer, "url">, run: ThreadRun): Promise<WorkspaceStateValue> {
  const client = new Client({ apiUrl: dev.url, apiKey: null, timeoutMs: run.timeoutMs, callerOptions: { maxRetries: 0 } });
  const [assistant] = await client.assistants.search({ graphId: "mini-cursor" });
  if (!assistant) throw new Error("no assistant for the graph");
  const thread = await client.threads.create();
  const config = {
    configurable: { workspace: run.workspace, model: "scripted", baseUrl: run.baseUrl, apiKey: "test", approval: "auto" },
    recursionLimit: run.recursionLimit ?? 80,
  };
  await client.runs.wait(thread.thread_id, assistant.assistant_id, { input: { task: run.task }, config, signal: AbortSignal.timeout(run.timeoutMs) });
  return (await client.threads.getState<WorkspaceStateValue>(thread.thread_id)).values;
}

/** The server a project's files share: where it answers, the config home it runs with, and its output so far. */
export interface SharedDevServer extends Pick<DevServer, "url" | "logTail"> {
  /** Everything the server printed so far (all files' runs). */
  log(): string;
  /** XDG_CONFIG_HOME of the server (MCP trust is recorded there), removed with the server. */
  configHome: string;
}

/**
 * The `langgraph dev` the e2e-studio project starts once for its files (tests/faces/studio/shared-dev-server.ts),
 * with memory off. A file that needs other server variables starts its own with startDevServer.
 */
export function sharedDevServer(): SharedDevServer {
  const { url, configHome, logFile } = inject("studioServer");
  const log = (): string => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
  return { url, configHome, log, logTail: () => log().split("\n").slice(-60).join("\n") };
}
