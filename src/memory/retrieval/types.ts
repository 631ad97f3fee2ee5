/** One piece of a file the index embeds and ranks: a function, class, method, type, or a window of plain text. */
export interface Chunk {
  /** Workspace-relative, forward slashes. */
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** `debounce`, `Store.get`; empty for text windows and top-level statements. */
  symbol: string;
  kind: ChunkKind;
  /** The source of the chunk, with its leading doc comment. */
  text: string;
}

/** A chunk as the index stores it, with its id (src/memory/retrieval/chunk-id.ts). */
export interface StoredChunk extends Chunk {
  id: string;
}

export type ChunkKind = "function" | "class" | "method" | "type" | "variable" | "module" | "text";

/** A ranked search answer. */
export interface CodeHit {
  path: string;
  startLine: number;
  endLine: number;
  symbol: string;
  kind: ChunkKind;
  /** Hybrid score in [0, 1]: higher is better. */
  score: number;
  /** The first lines of the chunk. */
  snippet: string;
}

export interface CodeSearchQuery {
  query: string;
  /** Only paths under this folder or matching this prefix (workspace-relative). */
  path?: string;
  /** How many hits (default 8). */
  limit?: number;
}

/** A wait before a batch is tried again (the embeddings server turned it away for now), for progress output. */
export interface EmbedWait {
  waitMs: number;
  /** The attempt that failed (1-based), and how many there may be. */
  attempt: number;
  attempts: number;
  /** The embedder's error message. */
  reason: string;
}

/** Progress of a build, for a bar or a log line; "wait" comes with the wait before a batch is tried again. */
export interface BuildProgress {
  phase: "scan" | "embed" | "wait" | "done";
  filesDone: number;
  filesTotal: number;
  wait?: EmbedWait;
}

/**
 * Why an update stopped before every changed file was embedded: its time box ran out ("time"), it was asked to
 * stop ("stop": the session is ending), or the embeddings server asked for a longer wait than an update makes
 * ("rate-limit", e.g. a daily quota). The next update continues where it stopped.
 */
export type UpdateStop = { reason: "time" | "stop" } | { reason: "rate-limit"; retryAfterMs: number; detail: string };

export interface BuildResult {
  files: number;
  /** Files whose chunks were (re-)embedded. */
  changed: number;
  /** Files that left the index (deleted, or now skipped). */
  removed: number;
  chunks: number;
  durationMs: number;
  /** True when the update stopped before every changed file was embedded (see `stopped`); a later one continues. */
  partial: boolean;
  stopped?: UpdateStop;
  /** How changed files were found: git named them (a few processes), or the whole tree was walked and stat'ed. */
  scan: "git" | "walk";
}
