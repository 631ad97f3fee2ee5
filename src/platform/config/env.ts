import os from "node:os";
import path from "node:path";

/* Environment-only lookups with no schema behind them, so the commands that need just these (e.g. `memory list`) load no zod. */

/** A variable's value, trimmed; empty counts as unset (`FOO= cmd` is a common way to clear one). */
export function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** Where the local Chroma keeps its data: `$MINI_CURSOR_DATA_DIR`, else `$XDG_DATA_HOME/mini-cursor`, else `~/.local/share/mini-cursor`. */
export function memoryDataDir(env: NodeJS.ProcessEnv): string {
  const explicit = envValue(env, "MINI_CURSOR_DATA_DIR");
  if (explicit) return path.resolve(explicit);
  const xdg = envValue(env, "XDG_DATA_HOME");
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "mini-cursor");
  return path.join(envValue(env, "HOME") ?? os.homedir(), ".local", "share", "mini-cursor");
}

/**
 * Where a local embedding model is kept once downloaded: `$MINI_CURSOR_EMBEDDING_CACHE`, else
 * `$XDG_CACHE_HOME/mini-cursor/models`, else `~/.cache/mini-cursor/models`. A cache: deleting it costs a download.
 */
export function modelCacheDir(env: NodeJS.ProcessEnv): string {
  const explicit = envValue(env, "MINI_CURSOR_EMBEDDING_CACHE");
  if (explicit) return path.resolve(explicit);
  const xdg = envValue(env, "XDG_CACHE_HOME");
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "mini-cursor", "models");
  return path.join(envValue(env, "HOME") ?? os.homedir(), ".cache", "mini-cursor", "models");
}

/** `$XDG_CONFIG_HOME/mini-cursor/config.json`, default `~/.config/mini-cursor/config.json`. */
export function userConfigPath(env: NodeJS.ProcessEnv): string {
  const xdg = envValue(env, "XDG_CONFIG_HOME");
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(envValue(env, "HOME") ?? os.homedir(), ".config");
  return path.join(base, "mini-cursor", "config.json");
}

/** `<workspace>/mini-cursor.json`. */
export function projectConfigPath(workspace: string): string {
  return path.join(workspace, "mini-cursor.json");
}

/** Who the commits of a `run --worktree` session are by: `$MINI_CURSOR_GIT_NAME` / `$MINI_CURSOR_GIT_EMAIL`, else mini-cursor. */
export function worktreeGitIdentity(env: NodeJS.ProcessEnv): { name: string; email: string } {
  return { name: envValue(env, "MINI_CURSOR_GIT_NAME") ?? "mini-cursor", email: envValue(env, "MINI_CURSOR_GIT_EMAIL") ?? "mini-cursor@localhost" };
}
