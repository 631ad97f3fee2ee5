/**
 * The one logger. Library code logs here (stderr), never with console.log, so stdout stays clean
 * for the CLI's progress output and `--json` event lines.
 */
export type LogLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

function threshold(): number {
  const level = (process.env.MINI_CURSOR_LOG_LEVEL ?? "warn") as LogLevel;
  return ORDER[level] ?? ORDER.warn;
}

function write(level: LogLevel, message: string): void {
  if (ORDER[level] < threshold()) return;
  process.stderr.write(`[mini-cursor ${level}] ${message}\n`);
}

export const logger: Logger = {
  debug: (m) => write("debug", m),
  info: (m) => write("info", m),
  warn: (m) => write("warn", m),
  error: (m) => write("error", m),
};
