import { createHash } from "node:crypto";

/**
 * Notices a sub-agent going round in circles: the same tool call with the same arguments again (with no file
 * change in between), or a run of tool calls that all fail. The agent is told once; if it keeps on, the run
 * stops and the planner decides what to do. A write that changed nothing (the same content again) is no change.
 */
export interface LoopGuardState {
  /** Identical calls since the last successful file change, by call signature. */
  callCounts: Record<string, number>;
  failStreak: number;
  warned: boolean;
}

export const REPEAT_WARN_AT = 2;
export const REPEAT_STOP_AT = 3;
export const FAIL_WARN_AT = 4;
export const FAIL_STOP_AT = 6;

/** The notes start like this; a replay of the transcript finds them to know the agent was told. */
const REPEAT_NOTE = "Note: you already made this exact";
const FAIL_NOTE = "Note: your last";

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

/** Arguments are signed once per call: the guard is replayed over the whole transcript at every reply. */
const signed = new WeakMap<object, string>();
const HASH_OVER = 256;

/** Name and arguments, whatever the key order; long arguments (a 1 MB file written) are hashed to keep keys small. */
export function callSignature(name: string, args: unknown): string {
  const key = typeof args === "object" && args !== null ? args : undefined;
  let signature = key ? signed.get(key) : undefined;
  if (signature === undefined) {
    const json = JSON.stringify(canonical(args)) ?? "";
    signature = json.length > HASH_OVER ? `sha256:${createHash("sha256").update(json).digest("hex")}` : json;
    if (key) signed.set(key, signature);
  }
  return `${name}:${signature}`;
}

export interface CallOutcome {
  ok: boolean;
  changedFiles: boolean;
}

export type GuardVerdict = { kind: "ok" } | { kind: "warn"; note: string } | { kind: "stop"; reason: string };

/** Counts a call before it runs: a third identical call stops the run, the second gets a warning. */
export function beforeCall(guard: LoopGuardState, name: string, args: unknown): GuardVerdict {
  const signature = callSignature(name, args);
  const count = (guard.callCounts[signature] ?? 0) + 1;
  guard.callCounts[signature] = count;
  if (count >= REPEAT_STOP_AT && guard.warned) {
    return { kind: "stop", reason: `repeated ${name} with the same arguments ${count} times without changing anything` };
  }
  if (count >= REPEAT_WARN_AT && !guard.warned) {
    guard.warned = true;
    return {
      kind: "warn",
      note: `${REPEAT_NOTE} ${name} call and nothing has changed since; repeating it will give the same result. Change your approach, or finish and report what blocks you.`,
    };
  }
  return { kind: "ok" };
}

/**
 * Records a call's outcome: failures in a row build a streak; a call that changed files resets the repeat counts of
 * every other call (running the tests again after a fix is progress) but not its own: the same write again changes
 * nothing. `changedFiles` comes from the tool's result (write_file reports no change when the content was the same).
 */
export function afterCall(guard: LoopGuardState, name: string, args: unknown, { ok, changedFiles }: CallOutcome): GuardVerdict {
  if (ok && changedFiles) {
    const signature = callSignature(name, args);
    guard.callCounts = { [signature]: guard.callCounts[signature] ?? 1 };
  }
  guard.failStreak = ok ? 0 : guard.failStreak + 1;
  if (guard.failStreak >= FAIL_STOP_AT && guard.warned) {
    return { kind: "stop", reason: `${guard.failStreak} tool calls in a row failed` };
  }
  if (guard.failStreak >= FAIL_WARN_AT && !guard.warned) {
    guard.warned = true;
    return { kind: "warn", note: `${FAIL_NOTE} ${guard.failStreak} tool calls all failed. Stop and rethink: read the errors, check paths with list_directory, or finish and report what blocks you.` };
  }
  return { kind: "ok" };
}

export function newGuard(): LoopGuardState {
  return { callCounts: {}, failStreak: 0, warned: false };
}

/** Whether a tool result carries one of the guard's notes (the agent was told). */
export function hasGuardNote(content: string): boolean {
  return content.includes(REPEAT_NOTE) || content.includes(FAIL_NOTE);
}
