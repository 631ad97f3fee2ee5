/**
 * Long-term memory seam. The planner recalls memories for the task before planning and the finish node
 * stores what the session learned. The Chroma-backed store plugs in here; without one, memory is off.
 */
export interface SessionOutcome {
  sessionId: string;
  workspace: string;
  task: string;
  status: string;
  report: string;
}

export interface MemoryStore {
  readonly enabled: boolean;
  recall(query: { task: string; workspace: string; limit: number }): Promise<string[]>;
  remember(outcome: SessionOutcome): Promise<void>;
}

export const memoryOff: MemoryStore = {
  enabled: false,
  recall: async () => [],
  remember: async () => undefined,
};
