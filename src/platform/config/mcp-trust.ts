import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ConfigError, parseConfigJson } from "../config-file.js";
import { worktreeHome } from "../worktree-home.js";
import { userConfigPath } from "./env.js";
import type { McpServerEntry } from "./mcp-schema.js";
import { replaceFileSync } from "../replace-file.js";

/**
 * Which MCP servers declared by a project (its `.mcp.json` or `mini-cursor.json`) the person has trusted. Such a
 * server runs outside the sandbox with the person's rights and may be given any of their environment variables, so a
 * cloned repository must not start one by itself (as Claude Code asks before a project's servers). The trust lives
 * beside the user config, where neither the project nor a sandboxed command can write, per workspace and per
 * declaration: a server whose command, arguments, environment, folder, URL or headers change is not trusted any more.
 */

const trustFileSchema = z.object({
  version: z.literal(1),
  /** Workspace (real path) → server name → declaration hash. */
  workspaces: z.record(z.string(), z.record(z.string(), z.string())),
});
type TrustFile = z.infer<typeof trustFileSchema>;

export function mcpTrustPath(env: NodeJS.ProcessEnv): string {
  return path.join(path.dirname(userConfigPath(env)), "trusted-mcp.json");
}

function sortedEntries(record: Record<string, string> | undefined): [string, string][] {
  return Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What a declaration runs or reaches, as written (variables not filled in, so a new token value needs no new trust). */
export function declarationHash(entry: McpServerEntry): string {
  const what = [entry.command ?? null, entry.args ?? [], sortedEntries(entry.env), entry.cwd ?? null, entry.url ?? null, sortedEntries(entry.headers)];
  return createHash("sha256").update(JSON.stringify(what)).digest("hex").slice(0, 32);
}

function readTrustFile(env: NodeJS.ProcessEnv): TrustFile {
  const file = mcpTrustPath(env);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { version: 1, workspaces: {} };
    throw new ConfigError(`${file} cannot be read (${code ?? "unknown error"})`);
  }
  return parseConfigJson(file, text, trustFileSchema);
}

/**
 * Whose trust a workspace has: its own, or for a `run --worktree` session's folder the checkout it was made from
 * (the worktree holds that checkout's files: trusted there, trusted in its worktrees).
 */
function trustKey(workspace: string): string {
  return worktreeHome(workspace)?.home ?? workspace;
}

/** The trusted declarations of a workspace's servers: name → declaration hash. */
export function trustedMcpServers(env: NodeJS.ProcessEnv, workspace: string): Readonly<Record<string, string>> {
  return readTrustFile(env).workspaces[trustKey(workspace)] ?? {};
}

/**
 * Changes a workspace's trusted servers (`change` gets a copy and returns the new map) and writes the file atomically
 * (a temporary file renamed over it), readable by its owner only.
 */
export function updateTrustedMcpServers(env: NodeJS.ProcessEnv, workspace: string, change: (trusted: Record<string, string>) => Record<string, string>): void {
  const file = mcpTrustPath(env);
  const key = trustKey(workspace);
  const current = readTrustFile(env);
  const next = change({ ...(current.workspaces[key] ?? {}) });
  const workspaces = { ...current.workspaces };
  if (Object.keys(next).length > 0) workspaces[key] = next;
  else delete workspaces[key];
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    replaceFileSync(file, `${JSON.stringify({ version: 1, workspaces }, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    throw new ConfigError(`${file} cannot be written (${(error as NodeJS.ErrnoException).code ?? "unknown error"})`);
  }
}
