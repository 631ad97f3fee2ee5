import type { Collection, Metadata } from "chromadb";
import type { VectorWriter } from "../chroma/record-writes.js";
import type { Embedder } from "../embeddings/types.js";
import type { Clock } from "../../platform/clock.js";
import { sharedAttempt } from "../../platform/shared-attempt.js";
import { batchesOf } from "./batches.js";
import { chunkFile } from "./chunk-file.js";
import { chunkId } from "./chunk-id.js";
import { indexablePaths, listIndexableFiles } from "./file-walk.js";
import { gitCandidates, gitSnapshot, NO_GIT } from "./git-changes.js";
import { rankChunks, type SearchAnswer, type SearchMode } from "./code-ranking.js";
import { mayIndex, readIfChanged, type Fingerprint } from "./file-fingerprint.js";
import { IndexStore } from "./index-store.js";
import { embeddingText, MAX_CHUNK_CHARS } from "./chunk-text.js";
import { DEFAULT_RETRY, embedWithRetries, type RetryContext, type RetryPolicy } from "./embed-retry.js";
import type { BuildProgress, BuildResult, Chunk, ChunkKind, CodeHit, CodeSearchQuery, EmbedWait, StoredChunk, UpdateStop } from "./types.js";

export type { SearchAnswer, SearchMode } from "./code-ranking.js";

export interface CodeIndexOptions {
  /** The workspace's real path. */
  root: string;
  collection: Collection;
  /** Writes the chunks' vectors (base64, as Chroma reads them fastest). */
  writer: VectorWriter;
  embedder: Embedder;
  clock: Clock;
  allowCredentialFiles: boolean;
  home?: string;
  /** How batches a remote embedder turns away for now are retried (default DEFAULT_RETRY). */
  retry?: RetryPolicy;
  /** The SQLite file of the index's chunks and lexical side (index-store.ts); in memory when absent. */
  storeFile?: string;
  /** The environment git runs with: given, an update in a git repository asks git what changed instead of walking. */
  gitEnv?: NodeJS.ProcessEnv;
}

export interface UpdateOptions {
  /** Stop embedding after this long (the rest is left for the next update); no limit when absent. */
  timeBudgetMs?: number;
  onProgress?: (progress: BuildProgress) => void;
  /** Checked between batches: true stops the update (e.g. the session is ending); the next one continues. */
  shouldStop?: () => boolean;
}

/** A changed file ready to embed: its new fingerprint and chunks. */
interface ChangedFile {
  path: string;
  entry: Fingerprint;
  chunks: Chunk[];
}

/** A batch ready to write: its files, their chunks with ids, and the chunks' vectors. */
interface EmbeddedBatch {
  files: ChangedFile[];
  chunks: (StoredChunk & { file: ChangedFile })[];
  vectors: number[][];
}

/** Chunks embedded per request: big enough to amortize a remote embedder's round trip, small enough to time-box. */
const EMBED_BATCH = 96;
/** Answers kept for repeated questions (the planner's, an agent asking again). */
const MAX_ANSWERS = 16;

/** Files looked at at once in an update's scan (their stats and, when changed, reads overlap). */
const LOOK_AHEAD = 32;

/** The store's key for the git snapshot of the last complete update. */
const GIT_META = "git";

const copyOf = (a: SearchAnswer): SearchAnswer => ({ ...a, hits: a.hits.map((h) => ({ ...h })) });

/**
 * The index of one workspace: its chunks in a Chroma collection (vectors, text and a metadata row per chunk that
 * names the file's content hash), and the same chunks, the files' fingerprints and a BM25 index over them in a
 * SQLite file derived from the collection (index-store.ts). An update re-embeds only files whose size/mtime changed
 * and whose hash then differs, and removes the chunks of files that are gone or now skipped; Chroma is written
 * first, so the store never names a chunk Chroma lacks for long: a store that disagrees is rebuilt from Chroma.
 */
export class CodeIndex {
  private readonly store: IndexStore;
  private running: Promise<BuildResult> | undefined;
  /**
   * Recent answers, with the store's version they were computed at: the planner asks the same question (the task)
   * on every turn, and between two coder steps nothing changes; an answer costs an embedding, a Chroma query and
   * the ranking (tens of ms).
   */
  private readonly answers = new Map<string, { version: string; answer: Promise<SearchAnswer> }>();

  constructor(private readonly o: CodeIndexOptions) {
    this.store = new IndexStore(o.storeFile ?? ":memory:");
  }

  get root(): string {
    return this.o.root;
  }

  get embedderId(): string {
    return this.o.embedder.id;
  }

  stats(): { files: number; chunks: number } {
    return this.store.counts();
  }

  /**
   * Checks once that the store matches the collection (the same collection, as many chunks) and rebuilds it from
   * Chroma when not: the first time, after the collection was replaced, or after a crash between the two writes.
   * Concurrent callers share the one check; a failed one is tried again by the next caller.
   */
  readonly load: () => Promise<void> = sharedAttempt(() => this.readAll());

  private async readAll(): Promise<void> {
    const { collection } = this.o;
    if (this.store.collectionId() === collection.id && this.store.counts().chunks === (await collection.count())) return;
    this.store.reset(collection.id);
    // Pages of 1,000: each answer is parsed in one go (about 50 ms of the event loop for 1,000 chunks here).
    const page = 1_000;
    for (let offset = 0; ; offset += page) {
      const got = await collection.get({ include: ["documents", "metadatas"], limit: page, offset });
      // The text is a metadata field; indexes written before that kept it as the document.
      await this.store.addFromCollection(
        got.ids.flatMap((id, i) => {
          const meta = got.metadatas[i] ?? null;
          return fromMetadata(id, meta, typeof meta?.text === "string" ? meta.text : (got.documents[i] ?? ""));
        }),
      );
      if (got.ids.length < page) break;
    }
  }

  /** Settles when no update is running. */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  /** Brings the index up to date with the workspace. Concurrent calls share one run and then run once more. */
  update(options: UpdateOptions = {}): Promise<BuildResult> {
    const previous = this.running ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(() => this.runUpdate(options));
    this.running = next;
    void next
      .finally(() => {
        if (this.running === next) this.running = undefined;
      })
      .catch(() => undefined);
    return next;
  }

  private async runUpdate(options: UpdateOptions): Promise<BuildResult> {
    const started = this.o.clock.now();
    const { gitEnv } = this.o;
    // git is asked while the store is checked against Chroma: both wait on other processes.
    const asking = gitEnv ? gitSnapshot(this.o.root, gitEnv) : undefined;
    asking?.catch(() => undefined);
    await this.load();
    const walk = { allowCredentialFiles: this.o.allowCredentialFiles, ...(this.o.home ? { home: this.o.home } : {}) };
    const { candidates, snapshot } = gitEnv && asking ? await gitCandidates(this.o.root, gitEnv, this.store.meta(GIT_META), await asking) : NO_GIT;
    // From git: only the paths it names, each checked against the walk's rules, with their own fingerprints (one
    // row each): the other known files stay as they are, and nothing here grows with the repository.
    const files = candidates ? undefined : this.store.files();
    const indexable = candidates ? indexablePaths(this.o.root, walk) : undefined;
    const paths = candidates ?? (await listIndexableFiles(this.o.root, walk));
    // Only the names: a first build of a large repository must not hold every file's text and chunks at once
    // (7,000 files: 1 GB); each is read when its batch is embedded.
    const pending: string[] = [];
    let filesDone = 0;
    const progress = (phase: BuildProgress["phase"]): void => options.onProgress?.({ phase, filesDone, filesTotal: paths.length });
    // A file the index knows is read when its size or mtime moved (a touched file keeps its vectors); a new one
    // is read once, when its batch is embedded. Looked at a slice at a time (the stats overlap), kept in order.
    const look = async (rel: string) => {
      const known = files ? files.get(rel) : this.store.file(rel);
      if (indexable && !(await indexable(rel))) return { rel, file: "skip" as const, known };
      const before = known && { ...known };
      const file = known ? await readIfChanged(this.o.root, rel, known) : (await mayIndex(this.o.root, rel)) ? ("new" as const) : ("skip" as const);
      return { rel, file, known, before };
    };
    // Known files that leave the index: gone, now skipped, or (a walk) not listed any more.
    const leaving = new Set<string>();
    const listed = new Set<string>();
    for (let i = 0; i < paths.length; i += LOOK_AHEAD) {
      for (const { rel, file, known, before } of await Promise.all(paths.slice(i, i + LOOK_AHEAD).map(look))) {
        if (file === "same" && known && before && (known.size !== before.size || known.mtimeMs !== before.mtimeMs)) this.store.touchFile(rel, known);
        if (file === "skip") {
          if (known) leaving.add(rel);
          continue;
        }
        listed.add(rel);
        if (file !== "same") pending.push(rel);
      }
    }
    if (files) for (const rel of files.keys()) if (!listed.has(rel)) leaving.add(rel);
    for (const rel of leaving) await this.drop(rel);
    const removed = leaving.size;
    progress("scan");
    let changed = 0;
    filesDone = paths.length - pending.length;
    const deadline = options.timeBudgetMs === undefined ? undefined : started + options.timeBudgetMs;
    const retry = {
      clock: this.o.clock,
      policy: this.o.retry ?? DEFAULT_RETRY,
      ...(deadline !== undefined ? { deadline } : {}),
      ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}),
      onWait: (wait: EmbedWait) => options.onProgress?.({ phase: "wait", filesDone, filesTotal: paths.length, wait }),
    };
    const stopped = await this.embedAll(pending, retry, deadline, options.shouldStop, (files) => {
      changed += files;
      filesDone += files;
      progress("embed");
    });
    progress("done");
    // Kept only once everything is in: a partial update leaves the old snapshot, so the next one looks again.
    if (snapshot && stopped === undefined) this.store.setMeta(GIT_META, JSON.stringify(snapshot));
    return {
      ...this.store.counts(),
      changed,
      removed,
      durationMs: this.o.clock.now() - started,
      partial: stopped !== undefined,
      scan: candidates ? "git" : "walk",
      ...(stopped ? { stopped } : {}),
    };
  }

  /**
   * Embeds and writes the changed files, batch by batch, until all are in or the time box, a stop or a long wait
   * ends the update (which it returns). A batch is embedded while the one before it is written: the embedder (this
   * process's CPU, or a remote server) and Chroma (its own process) work at the same time; writes stay one at a
   * time and in order, and none is left running when this returns or throws.
   */
  private async embedAll(
    pending: readonly string[],
    retry: RetryContext,
    deadline: number | undefined,
    shouldStop: (() => boolean) | undefined,
    onBatch: (files: number) => void,
  ): Promise<UpdateStop | undefined> {
    let writing: Promise<void> | undefined;
    try {
      for await (const batch of batchesOf(this.changedFiles(pending), (f) => f.chunks.length, EMBED_BATCH)) {
        const stop: UpdateStop | undefined = shouldStop?.()
          ? { reason: "stop" }
          : deadline !== undefined && this.o.clock.now() > deadline
            ? { reason: "time" }
            : undefined;
        const embedded = stop ?? (await this.embed(batch, retry));
        await writing;
        if (!("vectors" in embedded)) return embedded;
        writing = this.write(embedded);
        // Awaited before the next write or at the end; until then its failure must not count as unhandled.
        writing.catch(() => undefined);
        onBatch(batch.length);
      }
      await writing;
      return undefined;
    } finally {
      await writing?.catch(() => undefined);
    }
  }

  /**
   * The changed files' chunks, each file read again as its turn comes. One that changed again since the scan is
   * taken as it is now; one that is gone, or back to what the index has, is passed over (the next update sees it).
   */
  private async *changedFiles(paths: readonly string[]): AsyncGenerator<ChangedFile> {
    for (const rel of paths) {
      const file = await readIfChanged(this.o.root, rel, this.store.file(rel));
      if (file === "same" || file === "skip") continue;
      yield { path: rel, entry: file.entry, chunks: chunkFile(rel, file.text) };
    }
  }

  /** Removes a file that left the workspace (or is now skipped): from Chroma first, then from the store. */
  private async drop(rel: string): Promise<void> {
    await this.o.collection.delete({ where: { path: rel } });
    this.store.replaceFile(rel, undefined, []);
  }

  /** A batch's chunks (ids given) with their vectors; or why the update stops before it. */
  private async embed(batch: ChangedFile[], retry: RetryContext): Promise<EmbeddedBatch | UpdateStop> {
    const chunks = batch.flatMap((f) =>
      f.chunks.map((c, n) => ({ ...c, text: c.text.slice(0, MAX_CHUNK_CHARS), id: chunkId(f.path, f.entry.hash, n), file: f })),
    );
    const vectors = chunks.length > 0 ? await embedWithRetries(this.o.embedder, chunks.map(embeddingText), retry) : [];
    return Array.isArray(vectors) ? { files: batch, chunks, vectors } : vectors;
  }

  /** Replaces the batch's files' chunks in Chroma, then in the store. */
  private async write({ files, chunks, vectors }: EmbeddedBatch): Promise<void> {
    for (const f of files) if (this.store.file(f.path)) await this.o.collection.delete({ where: { path: f.path } });
    if (chunks.length > 0) {
      // upsert: another session updating the same file at the same moment writes the same ids.
      await this.o.writer.write(this.o.collection, "upsert", {
        ids: chunks.map((c) => c.id),
        embeddings: vectors,
        // The chunk's text as metadata, not as Chroma's document: a document is also indexed for full-text search
        // (trigrams), which doubled the server's CPU per upsert, and the ranking's lexical part is ours (BM25).
        metadatas: chunks.map((c) => ({
          text: c.text,
          path: c.path,
          startLine: c.startLine,
          endLine: c.endLine,
          symbol: c.symbol,
          kind: c.kind,
          fileHash: c.file.entry.hash,
          size: c.file.entry.size,
          mtimeMs: c.file.entry.mtimeMs,
        })),
      });
    }
    for (const f of files) {
      const own = chunks.filter((c) => c.file === f).map(({ file: _file, ...chunk }) => chunk);
      this.store.replaceFile(f.path, f.entry, own);
    }
  }

  /** The best chunks for a question or an identifier, hybrid-ranked. */
  async search(q: CodeSearchQuery, mode: SearchMode = "hybrid"): Promise<CodeHit[]> {
    return (await this.answer(q, mode)).hits;
  }

  /** The best chunks, and whether they were ranked by words alone (the question could not be embedded). */
  async answer(q: CodeSearchQuery, mode: SearchMode = "hybrid"): Promise<SearchAnswer> {
    await this.load();
    const key = JSON.stringify([q.query, q.path ?? "", q.limit ?? 8, mode]);
    const version = this.store.version();
    const cached = this.answers.get(key);
    if (cached?.version === version) return copyOf(await cached.answer);
    // Labelled with the version it started from: a change while it runs (here or by another session) makes it stale.
    const answer = rankChunks({ store: this.store, collection: this.o.collection, embedder: this.o.embedder }, q, mode);
    this.answers.delete(key);
    const oldest = this.answers.keys().next().value;
    if (this.answers.size >= MAX_ANSWERS && oldest !== undefined) this.answers.delete(oldest);
    this.answers.set(key, { version, answer });
    // A failed answer, or one by words alone, is not kept: the next time the embedder may answer.
    const forget = () => {
      if (this.answers.get(key)?.answer === answer) this.answers.delete(key);
    };
    void answer.then((a) => a.wordsOnly !== undefined && forget(), forget);
    return copyOf(await answer);
  }

  /** Closes the store once no update is running. */
  async close(): Promise<void> {
    await this.idle();
    this.store.close();
  }
}

/** A chunk and its file's fingerprint from the metadata row Chroma keeps for it; none for a row that is not ours. */
function fromMetadata(id: string, meta: Metadata | null, text: string): { chunk: StoredChunk; file: Fingerprint }[] {
  if (!meta || typeof meta.path !== "string") return [];
  const chunk: StoredChunk = {
    id,
    path: meta.path,
    startLine: Number(meta.startLine),
    endLine: Number(meta.endLine),
    symbol: typeof meta.symbol === "string" ? meta.symbol : "",
    kind: (typeof meta.kind === "string" ? meta.kind : "text") as ChunkKind,
    text,
  };
  return [{ chunk, file: { hash: String(meta.fileHash), size: Number(meta.size), mtimeMs: Number(meta.mtimeMs) } }];
}
