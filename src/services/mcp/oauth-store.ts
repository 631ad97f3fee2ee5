import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  OAuthClientInformationFullSchema,
  OAuthClientInformationSchema,
  OAuthTokensSchema,
  type OAuthClientInformationMixed,
  type OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { userConfigPath } from "../../platform/config/index.js";
import { replaceFileSync } from "../../platform/replace-file.js";

/**
 * What `mini-cursor mcp login` obtained for one remote MCP server: the client registration and the tokens, one file
 * per server URL in the user's config folder (never the workspace: a project or a sandboxed command must not read
 * them), owner-only, replaced atomically so a session refreshing tokens and another reading them never see half a file.
 */
export interface StoredOAuth {
  /** The server URL the file is for (the file name is its hash). */
  serverUrl: string;
  /** The dynamic registration's answer, as the SDK gave it (with its `issuer`). */
  clientInformation?: OAuthClientInformationMixed;
  /** The tokens, as the SDK gave them (access, refresh, `expires_in`, `issuer`). */
  tokens?: OAuthTokens;
  /** When `tokens` were saved (ms since the epoch): with `expires_in`, when the access token expires. */
  tokensSavedAt?: number;
}

/** `${XDG_CONFIG_HOME or ~/.config}/mini-cursor/mcp-oauth`, beside the user config. */
export function oauthFolder(env: NodeJS.ProcessEnv): string {
  return path.join(path.dirname(userConfigPath(env)), "mcp-oauth");
}

/** The file of one server URL: the first 16 hex digits of its SHA-256, so the URL itself is not a file name. */
export function oauthFile(env: NodeJS.ProcessEnv, serverUrl: string): string {
  return path.join(oauthFolder(env), `${createHash("sha256").update(serverUrl).digest("hex").slice(0, 16)}.json`);
}

function parsed<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, value: unknown): T | undefined {
  if (value === undefined) return undefined;
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

/**
 * The stored sign-in of a server URL; empty when there is none. A damaged file (or one for another URL, a hash
 * collision) reads as empty too: the server then needs a new sign-in, which replaces it.
 */
export function readOAuth(env: NodeJS.ProcessEnv, serverUrl: string): StoredOAuth {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(oauthFile(env, serverUrl), "utf8"));
  } catch {
    return { serverUrl };
  }
  if (typeof raw !== "object" || raw === null) return { serverUrl };
  const record = raw as Record<string, unknown>;
  if (record.serverUrl !== serverUrl) return { serverUrl };
  const clientInformation =
    parsed(OAuthClientInformationFullSchema, record.clientInformation) ?? parsed(OAuthClientInformationSchema, record.clientInformation);
  const tokens = parsed(OAuthTokensSchema, record.tokens);
  const savedAt = typeof record.tokensSavedAt === "number" ? record.tokensSavedAt : undefined;
  return {
    serverUrl,
    ...(clientInformation ? { clientInformation } : {}),
    ...(tokens ? { tokens, ...(savedAt !== undefined ? { tokensSavedAt: savedAt } : {}) } : {}),
  };
}

/** Writes the whole record: folder 0700, file 0600, through a temporary file renamed over the old one. */
export function writeOAuth(env: NodeJS.ProcessEnv, stored: StoredOAuth): string {
  const folder = oauthFolder(env);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  // mkdir leaves an existing folder's mode (and applies the umask): ours holds secrets, so it is made owner-only.
  fs.chmodSync(folder, 0o700);
  const file = oauthFile(env, stored.serverUrl);
  replaceFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600, exactMode: true });
  return file;
}

/** Reads, changes and writes back one server's record (re-read first: another process may have written since). */
export function updateOAuth(env: NodeJS.ProcessEnv, serverUrl: string, change: (stored: StoredOAuth) => StoredOAuth): string {
  return writeOAuth(env, { ...change(readOAuth(env, serverUrl)), serverUrl });
}

/** Removes a server's stored sign-in; true when there was one. */
export function deleteOAuth(env: NodeJS.ProcessEnv, serverUrl: string): boolean {
  try {
    fs.unlinkSync(oauthFile(env, serverUrl));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
