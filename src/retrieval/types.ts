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

/** Progress of a build, for a bar or a log line. */
export interface BuildProgress {
  phase: "scan" | "embed" | "done";
  filesDone: number;
  filesTotal: number;
}

export interface BuildResult {
  files: number;
  /** Files whose chunks were (re-)embedded. */
  changed: number;
  /** Files that left the index (deleted, or now skipped). */
  removed: number;
  chunks: number;
  durationMs: number;
  /** True when the time box ran out before every changed file was embedded; a later update continues. */
  partial: boolean;
}
