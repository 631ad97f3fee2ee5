import fs from "node:fs";
import path from "node:path";
import { ConfigError, parseConfigJson } from "../config-file.js";
import { mcpJsonSchema, type McpServerEntry } from "./mcp-schema.js";
import { declarationHash, trustedMcpServers } from "./mcp-trust.js";
import { loadConfigFiles, type ConfigFiles } from "./sources.js";

/**
 * MCP servers, in the `mcpServers` shape Claude Code and Cursor use: a stdio server (`command`, `args`, `env`, `cwd`)
 * or a streamable HTTP one (`url`, `headers`), plus our own `agents`, `disabled` and `timeoutMs`. Declared in the
 * user config, the workspace's `.mcp.json` and its `mini-cursor.json`; a later file replaces a server of the same
 * name (user < .mcp.json < mini-cursor.json), so the workspace decides.
 */

export const DEFAULT_MCP_CALL_TIMEOUT_MS = 60_000;

interface ServerCommon {
  name: string;
  /** The file it was declared in. */
  source: string;
  /** The person's own (the user config, or the editor's): always trusted. A project's (`.mcp.json`, `mini-cursor.json`): see `trusted`. */
  scope: "user" | "project";
  /** Runs only when true: a project's server the person trusted in this very form (src/platform/config/mcp-trust.ts). */
  trusted: boolean;
  /** The declaration's hash (what `mini-cursor mcp trust` records); "" for the person's own. */
  declaration: string;
  /** What it runs or reaches as declared, `${VAR}`s not filled in (so no secret is shown): the command line, or the URL. */
  runs: string;
  agents?: string[];
  disabled: boolean;
  timeoutMs: number;
  /** Why it cannot start as configured (a variable that is not set); it then fails with this reason. */
  problem?: string;
}
export type McpServerSettings =
  | (ServerCommon & { transport: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd: string })
  | (ServerCommon & { transport: "http"; url: string; headers: Record<string, string> });

/** `<workspace>/.mcp.json`. */
export function mcpJsonPath(workspace: string): string {
  return path.join(workspace, ".mcp.json");
}

function readMcpJson(file: string): Record<string, McpServerEntry> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return {};
    throw new ConfigError(`${file} cannot be read (${code ?? "unknown error"})`);
  }
  return parseConfigJson(file, text, mcpJsonSchema).mcpServers ?? {};
}

/** `${VAR}` and `${VAR:-default}` from the environment; the names of unset variables without a default go to `missing`. */
export function expandVariables(text: string, env: NodeJS.ProcessEnv, missing: string[]): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return "";
  });
}

function expandAll(record: Record<string, string> | undefined, env: NodeJS.ProcessEnv, missing: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, expandVariables(v, env, missing)]));
}

interface Origin {
  source: string;
  scope: "user" | "project";
  /** For a project's server: the trusted declaration hashes of the workspace. */
  trusted: Readonly<Record<string, string>>;
}

function settle(name: string, origin: Origin, entry: McpServerEntry, env: NodeJS.ProcessEnv, workspace: string): McpServerSettings {
  const missing: string[] = [];
  const { source, scope } = origin;
  const declaration = scope === "user" ? "" : declarationHash(entry);
  const trusted = scope === "user" || origin.trusted[name] === declaration;
  const runs = entry.url ?? [entry.command ?? "", ...(entry.args ?? [])].join(" ");
  const common = {
    name,
    source,
    scope,
    trusted,
    declaration,
    runs,
    disabled: entry.disabled ?? false,
    timeoutMs: entry.timeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS,
    ...(entry.agents ? { agents: entry.agents } : {}),
  };
  const withProblem = <T extends object>(s: T) =>
    missing.length > 0
      ? { ...s, problem: `${[...new Set(missing)].map((m) => `$${m}`).join(", ")} ${missing.length > 1 ? "are" : "is"} not set (${source})` }
      : s;
  if (entry.url !== undefined) {
    const url = expandVariables(entry.url, env, missing);
    return withProblem({ ...common, transport: "http" as const, url, headers: expandAll(entry.headers, env, missing) });
  }
  return withProblem({
    ...common,
    transport: "stdio" as const,
    command: entry.command ?? "",
    args: entry.args ?? [],
    env: expandAll(entry.env, env, missing),
    // Servers run in the workspace (as in Claude Code); a relative folder is the workspace's.
    cwd: path.resolve(workspace, entry.cwd ?? "."),
  });
}

/**
 * Every declared MCP server, the workspace's over the user's, each marked trusted or not (a project's server runs only
 * once trusted). Throws ConfigError naming the file (and through the path, the server) when one is malformed.
 */
export function resolveMcpConfig(env: NodeJS.ProcessEnv, workspace: string, files: ConfigFiles = loadConfigFiles(env, workspace)): McpServerSettings[] {
  const projectServers = { ...readMcpJson(mcpJsonPath(workspace)) };
  const trusted =
    Object.keys(projectServers).length > 0 || Object.keys(files.project?.contents?.mcpServers ?? {}).length > 0 ? trustedMcpServers(env, workspace) : {};
  const layers: { origin: Origin; servers: Record<string, McpServerEntry> }[] = [
    { origin: { source: files.user.path, scope: "user", trusted }, servers: files.user.contents?.mcpServers ?? {} },
    { origin: { source: mcpJsonPath(workspace), scope: "project", trusted }, servers: projectServers },
    ...(files.project
      ? [{ origin: { source: files.project.path, scope: "project" as const, trusted }, servers: files.project.contents?.mcpServers ?? {} }]
      : []),
  ];
  const byName = new Map<string, McpServerSettings>();
  for (const layer of layers) {
    for (const [name, entry] of Object.entries(layer.servers)) byName.set(name, settle(name, layer.origin, entry, env, workspace));
  }
  return [...byName.values()];
}
