import fs from "node:fs";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import Database from "better-sqlite3";
import { sqliteAddonPath } from "../../platform/sqlite-addon.js";
import { codeCollectionName } from "./code-collection.js";
import type { Fingerprint } from "./file-fingerprint.js";
import { lexicalTerms } from "./lexical.js";
import type { ChunkKind, StoredChunk } from "./types.js";
import { errorMessage } from "../../platform/error-info.js";

export interface LexicalHit {
  id: string;
  score: number;
}

/** Field weights (symbol, path, text): a name query counts a symbol or path hit more than a word deep in a body. */
const NAME_BOOST = [3, 2, 1] as const;
const PLAIN_WORDS_BOOST = [1, 1, 1] as const;
/**
 * Chunks written per transaction while the store is rebuilt from Chroma, with a turn of the event loop between two:
 * a session rebuilding the store of a large repository must not freeze its own model calls, output and Ctrl-C.
 */
const REBUILD_SLICE = 200;

/**
 * A term as FTS5's tokenizer keeps it whole: our terms are already split and stemmed (lexicalTerms), so the
 * tokenizer must not split them again; letters and digits pass, anything else is spelled out in hex.
 */
export function ftsToken(term: string): string {
  return /^[a-z0-9]+$/.test(term) ? term : `x${Buffer.from(term, "utf8").toString("hex")}`;
}

const termsOf = (text: string): string => lexicalTerms(text).map(ftsToken).join(" ");

/**
 * Where a workspace's store lives: next to the Chroma data of the memory data dir, named like its collection (one
 * per workspace). Runtime data of mini-cursor's own, outside the workspace and its tools' reach.
 */
export function indexStoreFile(dataDir: string, root: string): string {
  return path.join(dataDir, "code-index", `${codeCollectionName(root)}.sqlite`);
}

/** Deletes a workspace's store (with SQLite's side files); false when there was none. */
export function deleteIndexStore(dataDir: string, root: string): boolean {
  const file = indexStoreFile(dataDir, root);
  const existed = fs.existsSync(file);
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${file}${suffix}`, { force: true });
  return existed;
}

/** The store's file cannot be opened or created (a data dir that is not writable, say): the index is unavailable. */
export class IndexStoreError extends Error {}

interface ChunkRow {
  id: string;
  path: string;
  start_line: number;
  end_line: number;
  symbol: string;
  kind: string;
  text: string;
}

const toChunk = (r: ChunkRow): StoredChunk => ({
  id: r.id,
  path: r.path,
  startLine: r.start_line,
  endLine: r.end_line,
  symbol: r.symbol,
  kind: r.kind as ChunkKind,
  text: r.text,
});

/**
 * The index's chunks and manifest on disk, in SQLite, with an FTS5 table for the lexical side of the ranking (BM25
 * over identifiers split the way a developer reads them, comments and code; SQLite's own bm25() with field weights).
 * It is derived from the Chroma collection, which stays the truth: written after Chroma, and rebuilt from it when it
 * names another collection or holds another number of chunks (a crash between the two writes). A session opens it
 * instead of reading every chunk back from Chroma and indexing it again in memory (a 49,905-chunk index: 11 s and
 * 355 MB per session before), and sessions on one workspace see each other's updates.
 */
export class IndexStore {
  private readonly db: Database.Database;
  /** The path filter of the query running now (queries are synchronous): SQLite calls path_allowed() with it. */
  private allow: ((path: string) => boolean) | undefined;
  /** Bumped by every write through this connection; with SQLite's data_version, whether answers are stale. */
  private writes = 0;
  /** The counts as last read, kept while nobody has written since (counting 20,000 chunks takes 10 ms). */
  private countsRead: { version: string; value: { files: number; chunks: number } } | undefined;

  constructor(file: string) {
    const addon = sqliteAddonPath();
    try {
      if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
      this.db = new Database(file, addon ? { nativeBinding: addon } : {});
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? errorMessage(error);
      throw new IndexStoreError(`cannot open the index's store ${file} (${reason})`);
    }
    try {
      this.db.pragma("journal_mode = WAL");
      this.db.pragma("synchronous = NORMAL");
      // Two sessions updating one workspace's index take turns.
      this.db.pragma("busy_timeout = 10000");
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, hash TEXT NOT NULL, size INTEGER NOT NULL, mtime_ms REAL NOT NULL);
        CREATE TABLE IF NOT EXISTS chunks (row INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, path TEXT NOT NULL, start_line INTEGER NOT NULL,
          end_line INTEGER NOT NULL, symbol TEXT NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS chunks_by_path ON chunks (path);
        CREATE VIRTUAL TABLE IF NOT EXISTS terms USING fts5 (symbol, path, body, tokenize = 'unicode61 remove_diacritics 0');
      `);
      this.db.function("path_allowed", { deterministic: false }, (p: unknown) =>
        this.allow === undefined || (typeof p === "string" && this.allow(p)) ? 1 : 0,
      );
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  /** Changes anyone made (this connection or another session's), for caching answers. */
  version(): string {
    return `${this.writes}:${String(this.db.pragma("data_version", { simple: true }))}`;
  }

  /** A value the index keeps beside its chunks (the git snapshot of its last full update), or undefined. */
  meta(key: string): string | undefined {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string | undefined): void {
    // Unchanged (a no-op update's git snapshot): nothing written, so closing has no log to fold back (tens of ms).
    if (this.meta(key) === value) return;
    if (value === undefined) this.db.prepare("DELETE FROM meta WHERE key = ?").run(key);
    else this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(key, value);
  }

  /** The Chroma collection this store was built from ("" when new). */
  collectionId(): string {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'collection'").get() as { value: string } | undefined;
    return row?.value ?? "";
  }

  counts(): { files: number; chunks: number } {
    const version = this.version();
    if (this.countsRead?.version === version) return { ...this.countsRead.value };
    const files = this.db.prepare("SELECT count(*) AS n FROM files").get() as { n: number };
    const chunks = this.db.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number };
    this.countsRead = { version, value: { files: files.n, chunks: chunks.n } };
    return { ...this.countsRead.value };
  }

  files(): Map<string, Fingerprint> {
    const rows = this.db.prepare("SELECT path, hash, size, mtime_ms FROM files").all() as { path: string; hash: string; size: number; mtime_ms: number }[];
    return new Map(rows.map((r) => [r.path, { hash: r.hash, size: r.size, mtimeMs: r.mtime_ms }]));
  }

  file(rel: string): Fingerprint | undefined {
    const r = this.db.prepare("SELECT hash, size, mtime_ms FROM files WHERE path = ?").get(rel) as { hash: string; size: number; mtime_ms: number } | undefined;
    return r ? { hash: r.hash, size: r.size, mtimeMs: r.mtime_ms } : undefined;
  }

  /** Chunks by id, for the candidates of a ranking and the hits it shows. */
  chunks(ids: readonly string[]): Map<string, StoredChunk> {
    const out = new Map<string, StoredChunk>();
    const one = this.db.prepare("SELECT id, path, start_line, end_line, symbol, kind, text FROM chunks WHERE id = ?");
    for (const id of new Set(ids)) {
      const row = one.get(id) as ChunkRow | undefined;
      if (row) out.set(id, toChunk(row));
    }
    return out;
  }

  /** A file touched but not changed: its new size and mtime, so the next update need not hash it again. */
  touchFile(rel: string, file: Fingerprint): void {
    this.db.prepare("UPDATE files SET size = ?, mtime_ms = ? WHERE path = ? AND hash = ?").run(file.size, file.mtimeMs, rel, file.hash);
  }

  /** Forgets everything and records the collection it will be built from. */
  reset(collectionId: string): void {
    this.db.transaction(() => {
      // Everything it knew goes, what git said of the files then too.
      this.db.exec("DELETE FROM files; DELETE FROM chunks; DELETE FROM terms; DELETE FROM meta WHERE key <> 'collection';");
      this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('collection', ?)").run(collectionId);
    })();
    this.writes++;
  }

  /** Adds chunks read back from Chroma (a rebuild), with the files they name; a slice per transaction. */
  async addFromCollection(rows: readonly { chunk: StoredChunk; file: Fingerprint }[]): Promise<void> {
    for (let i = 0; i < rows.length; i += REBUILD_SLICE) {
      if (i > 0) await nextTurn();
      const slice = rows.slice(i, i + REBUILD_SLICE);
      this.db.transaction(() => {
        for (const { chunk, file } of slice) {
          this.db.prepare("INSERT OR IGNORE INTO files (path, hash, size, mtime_ms) VALUES (?, ?, ?, ?)").run(chunk.path, file.hash, file.size, file.mtimeMs);
          this.insertChunk(chunk);
        }
      })();
    }
    this.writes++;
  }

  /** Replaces a file's chunks (none: the file left the index) in one transaction. */
  replaceFile(rel: string, file: Fingerprint | undefined, chunks: readonly StoredChunk[]): void {
    this.db.transaction(() => {
      this.deleteFile(rel);
      if (file) this.db.prepare("INSERT INTO files (path, hash, size, mtime_ms) VALUES (?, ?, ?, ?)").run(rel, file.hash, file.size, file.mtimeMs);
      for (const chunk of chunks) this.insertChunk(chunk);
    })();
    this.writes++;
  }

  private insertChunk(c: StoredChunk): void {
    const info = this.db
      .prepare("INSERT OR IGNORE INTO chunks (id, path, start_line, end_line, symbol, kind, text) VALUES (?, ?, ?, ?, ?, ?, ?)")
      .run(c.id, c.path, c.startLine, c.endLine, c.symbol, c.kind, c.text);
    if (info.changes === 0) return;
    this.db
      .prepare("INSERT INTO terms (rowid, symbol, path, body) VALUES (?, ?, ?, ?)")
      .run(info.lastInsertRowid, termsOf(c.symbol), termsOf(c.path), termsOf(c.text));
  }

  private deleteFile(rel: string): void {
    const rows = this.db.prepare("SELECT row FROM chunks WHERE path = ?").all(rel) as { row: number }[];
    const dropTerms = this.db.prepare("DELETE FROM terms WHERE rowid = ?");
    for (const { row } of rows) dropTerms.run(row);
    this.db.prepare("DELETE FROM chunks WHERE path = ?").run(rel);
    this.db.prepare("DELETE FROM files WHERE path = ?").run(rel);
  }

  /**
   * Chunk ids with their BM25 scores (higher is better), best first; `allow` filters by path. `namesCountMore:
   * false` (a question in plain words) weighs a match in a symbol or path like any other word: there a common word
   * that happens to be some symbol's part ("empty", "string") is a false lead that outscored the chunk whose comment
   * holds the rare words.
   */
  query(terms: readonly string[], limit: number, allow?: (path: string) => boolean, options: { namesCountMore?: boolean } = {}): LexicalHit[] {
    // A term the question repeats counts again, as it did with the in-memory BM25 before.
    const tokens = terms.map(ftsToken);
    if (tokens.length === 0) return [];
    const [s, p, b] = options.namesCountMore === false ? PLAIN_WORDS_BOOST : NAME_BOOST;
    const match = tokens.map((t) => `"${t}"`).join(" OR ");
    this.allow = allow;
    try {
      const rows = this.db
        .prepare(
          `SELECT chunks.id AS id, bm25(terms, ?, ?, ?) AS rank FROM terms JOIN chunks ON chunks.row = terms.rowid
           WHERE terms MATCH ? AND path_allowed(chunks.path) ORDER BY rank LIMIT ?`,
        )
        .all(s, p, b, match, limit) as { id: string; rank: number }[];
      // SQLite's bm25() is lower-is-better (negative); the ranking wants higher-is-better.
      return rows.map((r) => ({ id: r.id, score: -r.rank }));
    } finally {
      this.allow = undefined;
    }
  }

  close(): void {
    this.db.close();
  }
}
