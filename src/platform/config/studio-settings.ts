import { ConfigError, envValue } from "./sources.js";

/** Fifteen minutes: longer than any one command (its timeout) or process wait (five minutes at most) may take. */
export const DEFAULT_STUDIO_PROCESS_IDLE_SECONDS = 900;

/**
 * MINI_CURSOR_STUDIO_PROCESS_IDLE: how long a Studio thread's background processes run after its last process tool
 * or command (the server has no session end to stop them at); whole seconds from 1 to a day.
 */
export function resolveStudioProcessIdle(env: NodeJS.ProcessEnv): number {
  const raw = envValue(env, "MINI_CURSOR_STUDIO_PROCESS_IDLE");
  if (raw === undefined) return DEFAULT_STUDIO_PROCESS_IDLE_SECONDS;
  const seconds = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > 86_400) {
    throw new ConfigError(`MINI_CURSOR_STUDIO_PROCESS_IDLE must be whole seconds from 1 to 86400, got "${raw}"`);
  }
  return seconds;
}
