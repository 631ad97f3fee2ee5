import fs from "node:fs";
import path from "node:path";
import { dataDir } from "../sessions/paths.js";
import type { ProcessSummary } from "../tools/index.js";
import { logger } from "../platform/logger.js";
import { replaceFileSync } from "../platform/replace-file.js";

/**
 * Which background processes of a session were running, kept in a small file beside the session database
 * (`.mini-cursor/processes/<session>.json`), so that a resume can say which ones are gone: they never outlive the
 * process that started them (a hard kill included), and the graph state holds none of them.
 */
export interface RecordedProcess {
  id: string;
  name: string;
  command: string;
}

function recordPath(workspace: string, sessionId: string): string {
  return path.join(dataDir(workspace), "processes", `${sessionId}.json`);
}

/** Rewrites the record (removes it when nothing runs); a failure is logged, never fatal. */
export function recordRunning(workspace: string, sessionId: string, running: readonly ProcessSummary[]): void {
  const file = recordPath(workspace, sessionId);
  try {
    if (running.length === 0) {
      fs.rmSync(file, { force: true });
      return;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const rows: RecordedProcess[] = running.map(({ id, name, command }) => ({ id, name, command }));
    replaceFileSync(file, JSON.stringify(rows));
  } catch (error) {
    logger.warn(`could not record the background processes: ${String(error)}`);
  }
}

/** The processes an earlier run left recorded as running (they are gone now), and forgets them. */
export function takeEarlierProcesses(workspace: string, sessionId: string): RecordedProcess[] {
  const file = recordPath(workspace, sessionId);
  let rows: RecordedProcess[] = [];
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    if (Array.isArray(parsed)) {
      rows = parsed.filter(
        (r): r is RecordedProcess =>
          typeof r === "object" && r !== null && typeof (r as RecordedProcess).name === "string" && typeof (r as RecordedProcess).command === "string",
      );
    }
  } catch {
    return [];
  }
  fs.rmSync(file, { force: true });
  return rows;
}

/** One line for the report: which processes the end of the session stopped, or an earlier run lost. */
export function processesLine(verb: "stopped" | "gone", processes: readonly Pick<RecordedProcess, "name" | "command">[]): string {
  if (processes.length === 0) return "";
  const list = processes.map((p) => `${p.name} (\`${p.command.length > 80 ? `${p.command.slice(0, 77)}...` : p.command}\`)`).join(", ");
  return verb === "stopped"
    ? `Background processes stopped at the end of the session: ${list}.`
    : `Background processes of the earlier run are gone (they stopped with it): ${list}.`;
}
