import type { CommandRecord, Review, StopReason } from "../core/index.js";

/**
 * Long-term memory seam. The planner recalls memories for the task before planning, the researcher searches
 * them with `memory_search`, and the finish node stores what the session learned.
 */
export const MEMORY_KINDS = ["summary", "decision", "lesson", "finding", "file", "command", "note"] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

/** The collection memory lives in unless MINI_CURSOR_MEMORY_COLLECTION names another. */
export const DEFAULT_COLLECTION = "mini-cursor-memory";

export interface MemoryRecord {
  id: string;
  text: string;
  kind: MemoryKind;
  workspace: string;
  session: string;
  /** Where a finding comes from (file:line, command), when known. */
  source: string;
  createdAt: number;
  updatedAt: number;
  /** How many near-duplicates were merged into this record. */
  mergedCount: number;
}

export interface MemoryHit extends MemoryRecord {
  /** Cosine similarity to the query, 0..1. */
  score: number;
  /** True when the memory belongs to the workspace the query came from. */
  sameWorkspace: boolean;
}

export interface MemoryQuery {
  query: string;
  workspace: string;
  limit: number;
  /** "workspace": only this workspace; "all": this workspace first, then the others. */
  scope?: "workspace" | "all";
  kinds?: MemoryKind[];
}

/** What the finish node hands to memory: the outcome and the small facts of the session. */
export interface SessionOutcome {
  sessionId: string;
  workspace: string;
  task: string;
  status: string;
  summary: string;
  stop: StopReason | null;
  plan: { id: string; agent: string; goal: string; status: string; result: string; fixesReview?: string }[];
  findings: { source: string; note: string }[];
  reviews: Review[];
  commands: CommandRecord[];
  filesChanged: string[];
}

export interface MemoryStore {
  readonly enabled: boolean;
  /**
   * How long a planner turn waits for a recall while memory is still opening (LazyMemory: MINI_CURSOR_MEMORY_WAIT);
   * a turn that waits longer goes on without memories and a later turn recalls. Absent: a recall is awaited.
   */
  readonly recallWaitMs?: number;
  /** Memory lines for the planner's context: this workspace first, then global, most relevant first. */
  recall(query: { task: string; workspace: string; limit: number }): Promise<string[]>;
  search(query: MemoryQuery): Promise<MemoryHit[]>;
  remember(outcome: SessionOutcome): Promise<void>;
}

export const memoryOff: MemoryStore = {
  enabled: false,
  recall: async () => [],
  search: async () => [],
  remember: async () => undefined,
};

/**
 * Recalls memories for a planner turn, waiting at most `memory.recallWaitMs` (a session starts opening memory as it
 * starts; a Chroma server that has to start first is not waited for): the lines, or "late" (a later turn recalls).
 */
export async function recallInTime(memory: MemoryStore, query: { task: string; workspace: string; limit: number }): Promise<string[] | "late"> {
  const recalling = memory.recall(query);
  const waitMs = memory.recallWaitMs;
  if (waitMs === undefined) return recalling;
  // A recall that comes too late is dropped; a failure then must not go unhandled.
  recalling.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), waitMs)));
  return Promise.race([recalling, late]).finally(() => clearTimeout(timer));
}
