import { rgPath } from "@vscode/ripgrep";
import { resolveConfigExceptModel, resolveMemoryConfig, resolveModelConfig, type ModelSettings } from "../../../platform/config/index.js";
import { chromaHeartbeat } from "../../../memory/chroma/server.js";
import { LOCAL_HOST } from "../../../memory/chroma/types.js";
import { liveLeases } from "../../../memory/chroma/leases.js";
import { readServerState } from "../../../memory/chroma/state-file.js";
import { probeOllama } from "../../../models/ollama-probe.js";
import type { Clock } from "../../../platform/clock.js";
import { runProgram } from "../../../platform/run-program.js";
import { chooseSandbox } from "../../../host/graph-deps.js";
import { READ_ONLY_CLASS } from "../../../safety/read-only-commands.js";
import { COMMON_OPTIONS, parse, resolveWorkspace } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import type { CliIo } from "../io.js";
import { probeEndpoint, type EndpointReport } from "./doctor-endpoint.js";
import { checkWorkspace, type WorkspaceReport } from "./doctor-workspace.js";
import { checkRemoteChroma, type RemoteChromaReport } from "./doctor-chroma.js";
import { checkIndex, type IndexReport } from "./doctor-index.js";
import { checkSkills, renderSkills, type SkillsReport } from "./doctor-skills.js";
import { checkWeb, renderWeb, type WebReport } from "./doctor-web.js";
import { checkSessions, renderSessions, type SessionsReport } from "./doctor-sessions.js";
import { inspectMcpServers, type McpServerReport } from "./mcp.js";
import { errorMessage } from "../../../platform/error-info.js";

export const DOCTOR_HELP = `Usage: mini-cursor doctor [--json] [--workspace DIR]

Checks what mini-cursor needs and reports how it is set up here: Node.js, the command sandbox
(bubblewrap), ripgrep, the configuration (variables and config files), the model endpoint, long-term
memory (Chroma), the MCP servers, the skills, web access, where sessions live (SQLite, or PostgreSQL
with MINI_CURSOR_DATABASE_URL: whether it answers) and the workspace. Creates nothing; the MCP servers are
started to list their tools and stopped again.

The endpoint is asked for its model list (GET <base URL>/models, with the configured key); a model it
does not list, or every model when it serves no list, gets a one-token chat request. All of it within
5 seconds. The workspace is checked by creating and removing one small file in it (and in .mini-cursor/
when that exists).

Exit codes: 0 a session can run; 1 it cannot (Node.js too old, ripgrep missing, a configuration error,
no model endpoint, an endpoint that does not answer, refuses the key or lacks the model, a session
database that cannot be reached, a workspace that cannot be written); 2 a bad command line.

Options:
  --workspace DIR   The workspace to report on (default: the current folder)
  --json            One JSON object instead of text
  -h, --help        Show this help`;

const MIN_NODE_MAJOR = 20;
const HEARTBEAT_MS = 1_500;
const NO_SANDBOX_EFFECT = "commands run with process-tree confinement only; approval is forced to ask";
const SANDBOX_EFFECT = "commands run inside the bubblewrap sandbox";

export interface DoctorReport {
  ok: boolean;
  node: { ok: boolean; version: string; required: string };
  sandbox: { kind: "bubblewrap" | "none"; reason: string; version?: string; effect: string };
  /** Commands that run without asking in ask mode: the known-read-only class (src/safety/read-only-commands.ts). */
  commands: { readOnly: readonly string[] };
  ripgrep: { ok: boolean; path: string; version?: string; error?: string };
  /** The config files found (project first) or the first configuration error; model settings are checked under model. */
  config: { ok: true; files: string[] } | { ok: false; error: string };
  model:
    | { ok: true; source: string; origin: string; baseUrl?: string; model: string; roleModels: Record<string, string>; timeoutMs: number; maxRetries: number }
    | { ok: false; error: string };
  memory: {
    enabled: boolean;
    reason?: string;
    chromaUrl?: string;
    dataDir?: string;
    server?: { running: boolean; detail: string; url?: string; pid?: number };
  } & Partial<Omit<RemoteChromaReport, "server">>;
  /** The workspace's codebase index (src/retrieval): whether sessions use it and what it holds. */
  index: IndexReport;
  /** Null when the model settings could not be resolved (see model). */
  endpoint: EndpointReport | null;
  workspace: WorkspaceReport;
  /** The MCP servers and whether they start (a session goes on without one that does not: not a failure here). */
  mcp: { ok: true; servers: McpServerReport[] } | { ok: false; error: string };
  /** Skills found (workspace first) and the SKILL.md files a session would skip. */
  skills: SkillsReport;
  /** fetch_url and web_search as a session here would have them. */
  web: WebReport;
  /** Where sessions live: the workspace's SQLite file, or PostgreSQL and whether it answers. */
  sessions: SessionsReport;
}

const message = (error: unknown): string => errorMessage(error);

function checkNode(): DoctorReport["node"] {
  const major = Number(process.versions.node.split(".")[0]);
  return { ok: major >= MIN_NODE_MAJOR, version: process.version, required: `>=${MIN_NODE_MAJOR}` };
}

async function checkSandbox(env: NodeJS.ProcessEnv): Promise<DoctorReport["sandbox"]> {
  // The same choice a session makes (src/host/graph-deps.ts).
  const status = await chooseSandbox(env);
  return { ...status, effect: status.kind === "bubblewrap" ? SANDBOX_EFFECT : NO_SANDBOX_EFFECT };
}

async function checkRipgrep(): Promise<DoctorReport["ripgrep"]> {
  const ran = await runProgram(rgPath, ["--version"], { timeoutMs: 10_000 });
  if (ran.code !== 0) return { ok: false, path: rgPath, error: ran.startError?.message ?? (ran.timedOut ? "timed out" : `exit code ${ran.code}`) };
  return { ok: true, path: rgPath, version: ran.stdout.toString("utf8").split("\n")[0]?.trim() };
}

function checkConfig(workspace: string, env: NodeJS.ProcessEnv): DoctorReport["config"] {
  try {
    const { files } = resolveConfigExceptModel({ env, workspace });
    return { ok: true, files: [files.project, files.user].flatMap((f) => (f?.contents ? [f.path] : [])) };
  } catch (error) {
    return { ok: false, error: message(error) };
  }
}

/** The model settings, then whether their endpoint answers and serves the models. */
async function checkModel(env: NodeJS.ProcessEnv): Promise<{ model: DoctorReport["model"]; endpoint: EndpointReport | null }> {
  let s: ModelSettings;
  try {
    s = await resolveModelConfig({}, env, (url) => probeOllama(url));
  } catch (error) {
    return { model: { ok: false, error: message(error) }, endpoint: null };
  }
  const roleModels = Object.fromEntries(Object.entries(s.roleModels).filter((e): e is [string, string] => e[1] !== undefined));
  // The API key is never reported, not even in part.
  // The source is the base URL itself for a configured endpoint: the origin says which setting chose it.
  const model = {
    ok: true as const,
    source: s.source,
    origin: s.origin ?? s.source,
    baseUrl: s.baseUrl,
    model: s.model,
    roleModels,
    timeoutMs: s.timeoutMs,
    maxRetries: s.maxRetries,
  };
  return { model, endpoint: await probeEndpoint(s) };
}

async function checkMemory(env: NodeJS.ProcessEnv): Promise<DoctorReport["memory"]> {
  let settings;
  try {
    settings = resolveMemoryConfig(env);
  } catch (error) {
    return { enabled: false, reason: message(error) };
  }
  if (!settings.enabled) return { enabled: false, reason: settings.reason };
  const chromaUrl = settings.chromaUrl;
  if (chromaUrl) return { enabled: true, chromaUrl, ...(await checkRemoteChroma(chromaUrl, settings.chromaAccess, settings.dataDir)) };
  const dir = settings.dataDir;
  const state = readServerState(dir);
  if (!state) {
    return { enabled: true, dataDir: dir, server: { running: false, detail: "no local Chroma server is running; a session starts one on demand" } };
  }
  const url = `http://${LOCAL_HOST}:${state.port}`;
  const running = await chromaHeartbeat(url, HEARTBEAT_MS).catch(() => false);
  const sessions = liveLeases(dir).length;
  const users = sessions === 0 ? "no session uses it" : sessions === 1 ? "1 session uses it" : `${sessions} sessions use it`;
  const lifetime = state.stopsWhenIdle
    ? "it stops itself once idle for MINI_CURSOR_CHROMA_IDLE seconds (memory stop ends it now)"
    : "the last session using it stops it";
  const detail = running
    ? `a local Chroma server (pid ${state.pid}) answers at ${url}; ${users}; ${lifetime}`
    : `the state file names a server (pid ${state.pid}) at ${url} that does not answer; a session will replace it`;
  return { enabled: true, dataDir: dir, server: { running, detail, url, pid: state.pid } };
}

async function checkMcp(workspace: string, env: NodeJS.ProcessEnv): Promise<DoctorReport["mcp"]> {
  try {
    return { ok: true, servers: await inspectMcpServers(env, workspace) };
  } catch (error) {
    return { ok: false, error: message(error) };
  }
}

function renderMcp(mcp: DoctorReport["mcp"]): string {
  if (!mcp.ok) return `warn  ${mcp.error}; sessions go on without MCP servers`;
  if (mcp.servers.length === 0) return "info  no servers configured";
  const each = mcp.servers.map((s) =>
    s.status === "connected"
      ? `${s.name} starts (${s.tools.length} tools)`
      : s.status === "disabled"
        ? `${s.name} disabled`
        : s.status === "untrusted"
          ? `${s.name} not trusted yet, not started (mini-cursor mcp list, then mini-cursor mcp trust)`
          : `${s.name} failed: ${s.reason ?? ""}`,
  );
  return `${mcp.servers.every((s) => s.status === "connected" || s.status === "disabled") ? "ok  " : "warn"}  ${each.join("; ")}`;
}

export async function collectDoctorReport(workspace: string, env: NodeJS.ProcessEnv): Promise<DoctorReport> {
  const [sandbox, ripgrep, { model, endpoint }, memory, mcp, sessions] = await Promise.all([
    checkSandbox(env),
    checkRipgrep(),
    checkModel(env),
    checkMemory(env),
    checkMcp(workspace, env),
    checkSessions(workspace, env),
  ]);
  const node = checkNode();
  const index = await checkIndex(workspace, env, memory.server?.running && !memory.chromaUrl ? memory.server.url : undefined);
  const config = checkConfig(workspace, env);
  const work = checkWorkspace(workspace);
  return {
    ok: node.ok && ripgrep.ok && config.ok && model.ok && endpoint?.ok === true && work.writable && sessions.ok,
    node,
    sandbox,
    commands: { readOnly: READ_ONLY_CLASS },
    ripgrep,
    config,
    model,
    memory,
    index,
    endpoint,
    workspace: work,
    mcp,
    skills: checkSkills(workspace, env),
    web: checkWeb(workspace, env),
    sessions,
  };
}

/** A long list on lines of about 100 characters. */
function wrapList(items: readonly string[]): string {
  const lines: string[] = [""];
  for (const item of items) {
    const last = lines.length - 1;
    const line = lines[last] ?? "";
    if (line && line.length + item.length > 100) lines.push(item);
    else lines[last] = line ? `${line}, ${item}` : item;
  }
  return lines.join(",\n");
}

function indent(text: string, by: string): string {
  return text.split("\n").join(`\n${by}`);
}

function renderModel(model: DoctorReport["model"]): string {
  if (!model.ok) return `FAIL  ${indent(model.error, "            ")}`;
  const roles = Object.entries(model.roleModels).map(([role, name]) => `${role}=${name}`);
  const where = model.baseUrl ? ` at ${model.baseUrl}` : "";
  return `ok    ${model.model}${where} (${model.origin})${roles.length > 0 ? `; per role: ${roles.join(", ")}` : ""}`;
}

function renderConfig(config: DoctorReport["config"]): string {
  if (!config.ok) return `FAIL  ${indent(config.error, "            ")}`;
  return config.files.length > 0 ? `ok    ${config.files.join(", ")}` : "ok    no config files (variables and defaults only)";
}

function renderMemory(memory: DoctorReport["memory"]): string {
  if (!memory.enabled) return `off   ${memory.reason ?? "disabled"}`;
  const where = memory.chromaUrl ? `CHROMA_URL=${memory.chromaUrl}` : `local Chroma, data in ${memory.dataDir}`;
  return `${memory.server?.running ? "ok  " : "info"}  ${where}: ${memory.server?.detail ?? ""}`;
}

export function renderDoctorReport(r: DoctorReport): string {
  const sandbox = r.sandbox.kind === "bubblewrap" ? `ok    ${r.sandbox.reason}` : `warn  none: ${r.sandbox.reason}; ${r.sandbox.effect}`;
  const rg = r.ripgrep.ok ? `ok    ${r.ripgrep.path} (${r.ripgrep.version ?? "unknown version"})` : `FAIL  ${r.ripgrep.path}: ${r.ripgrep.error ?? ""}`;
  const workspaceData = `${r.workspace.dataDir} (${r.workspace.exists ? "exists" : "not created yet"})`;
  const endpoint = r.endpoint ? `${r.endpoint.ok ? "ok  " : "FAIL"}  ${r.endpoint.detail}` : "skip  not checked: no model settings (see Model)";
  const workspace = r.workspace.writable ? `ok    ${r.workspace.path} is writable; data in ${workspaceData}` : `FAIL  ${r.workspace.error ?? ""}`;
  const lines = [
    "mini-cursor doctor",
    `  Node.js    ${r.node.ok ? "ok  " : "FAIL"}  ${r.node.version} (needs ${r.node.required})`,
    `  Sandbox    ${sandbox}`,
    `  Commands   info  read-only, run without asking in ask mode (any redirection into a file asks): ${indent(wrapList(r.commands.readOnly), "                  ")}`,
    `  ripgrep    ${rg}`,
    `  Config     ${renderConfig(r.config)}`,
    `  Model      ${renderModel(r.model)}`,
    `  Endpoint   ${endpoint}`,
    `  Memory     ${renderMemory(r.memory)}`,
    `  Index      ${r.index.enabled ? "ok  " : "off "}  ${r.index.detail}`,
    `  MCP        ${renderMcp(r.mcp)}`,
    `  Skills     ${renderSkills(r.skills)}`,
    `  Web        ${renderWeb(r.web)}`,
    `  Sessions   ${renderSessions(r.sessions)}`,
    `  Workspace  ${workspace}`,
    r.ok ? "Everything required works." : "A session cannot run here: fix what says FAIL above.",
  ];
  return lines.join("\n");
}

export async function doctorCommand(argv: string[], io: CliIo, _clock: Clock): Promise<number> {
  const { values, positionals } = parse(argv, COMMON_OPTIONS);
  if (values.help) {
    io.stdout.write(`${DOCTOR_HELP}\n`);
    return EXIT.done;
  }
  if (positionals.length > 0) throw new UsageError(`doctor takes no arguments, got "${positionals[0]}"`);
  const workspace = resolveWorkspace(values.workspace, io.cwd);
  const report = await collectDoctorReport(workspace, io.env);
  io.stdout.write(values.json ? `${JSON.stringify(report)}\n` : `${renderDoctorReport(report)}\n`);
  return report.ok ? EXIT.done : EXIT.failed;
}
