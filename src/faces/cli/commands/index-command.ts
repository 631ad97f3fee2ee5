import { resolveMemoryStoreConfig } from "../../../platform/config/memory-settings.js";
import type { Clock } from "../../../platform/clock.js";
import type { BuildProgress, BuildResult } from "../../../memory/retrieval/types.js";
import { COMMON_OPTIONS, parse, positiveInt, resolveWorkspace } from "../args.js";
import { closest } from "../did-you-mean.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { INDEX_HELP } from "../help.js";
import type { CliIo } from "../io.js";
import { errorMessage } from "../../../platform/error-info.js";

const INDEX_OPTIONS = {
  ...COMMON_OPTIONS,
  path: { type: "string" },
  limit: { type: "string" },
  "time-limit": { type: "string" },
} as const;

const INDEX_COMMANDS = ["build", "search", "status", "clear"];

/** A full build stops embedding after this long by default (what is left is embedded by the next update). */
const DEFAULT_BUILD_SECONDS = 300;

function write(io: CliIo, json: boolean, data: unknown, text: string): void {
  io.stdout.write(json ? `${JSON.stringify(data)}\n` : `${text}\n`);
}

/** A wait as people say it: "0.5 s", "20 s", "60 min". */
function duration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.ceil(ms / 60_000)} min`;
}

/** Why a build stopped early, and what to do about it. */
function stopNote(r: BuildResult): string {
  switch (r.stopped?.reason) {
    case undefined:
      return "";
    case "rate-limit":
      return `; the embeddings server asked to wait ${duration(r.stopped.retryAfterMs)} (${r.stopped.detail}): run it again then to embed the rest`;
    case "stop":
      return "; it was stopped: run it again to embed the rest";
    case "time":
      return "; the time limit ran out: run it again to embed the rest";
  }
}

/** "1 file", "2 files". */
function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function summary(r: BuildResult): string {
  return `Indexed ${count(r.files, "file")} (${count(r.chunks, "chunk")}): ${r.changed} embedded, ${r.removed} removed, in ${(r.durationMs / 1000).toFixed(1)} s${stopNote(r)}.`;
}

/**
 * Progress on stderr at most every half second, so a long build shows it is moving and a short one stays quiet;
 * every wait for the embeddings server is said at once (a build that sits still for a minute must say why).
 */
function progressLine(io: CliIo, clock: Clock): (p: BuildProgress) => void {
  let last = clock.now();
  return (p) => {
    if (p.phase === "wait" && p.wait) {
      const { waitMs, attempt, attempts, reason } = p.wait;
      io.stderr.write(`indexing: ${reason}; trying again in ${duration(waitMs)} (attempt ${attempt + 1} of ${attempts})\n`);
      return;
    }
    if (p.phase !== "embed" || clock.now() - last < 500) return;
    last = clock.now();
    io.stderr.write(`indexing: ${p.filesDone}/${count(p.filesTotal, "file")}\n`);
  };
}

/** `mini-cursor index build|search|status|clear`. */
export async function indexCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h") {
    io.stdout.write(`${INDEX_HELP}\n`);
    return sub === undefined ? EXIT.usage : EXIT.done;
  }
  if (!INDEX_COMMANDS.includes(sub)) {
    const suggestion = closest(sub, INDEX_COMMANDS);
    throw new UsageError(`unknown index command "${sub}"; ${suggestion ? `did you mean ${suggestion}?` : `commands: ${INDEX_COMMANDS.join(", ")}`}`);
  }
  const { values, positionals } = parse(rest, INDEX_OPTIONS, `index ${sub}`);
  if (values.help) {
    io.stdout.write(`${INDEX_HELP}\n`);
    return EXIT.done;
  }
  const json = values.json ?? false;
  const root = resolveWorkspace(values.workspace, io.cwd);
  const limit = positiveInt(values.limit, "--limit");
  const timeLimit = positiveInt(values["time-limit"], "--time-limit") ?? DEFAULT_BUILD_SECONDS;
  const query = positionals.join(" ").trim();
  if (sub === "search" && !query) throw new UsageError('missing query: mini-cursor index search "<query>"');
  const settings = resolveMemoryStoreConfig(io.env);

  const [{ openCodeIndex, connectIndexStore }, collections, { createCodeEmbedder }, { deleteIndexStore }] = await Promise.all([
    import("../../../memory/retrieval/open-index.js"),
    import("../../../memory/retrieval/code-collection.js"),
    import("../../../memory/retrieval/code-embedder.js"),
    import("../../../memory/retrieval/index-store.js"),
  ]);
  const unavailable = (error: unknown): number => {
    io.stderr.write(`mini-cursor: the index is unavailable: ${errorMessage(error)}\n`);
    return EXIT.failed;
  };
  if (sub === "clear" || sub === "status") {
    // Read or delete what is there: Chroma only, no embedder, nothing created or rebuilt.
    let store;
    try {
      store = await connectIndexStore({ env: io.env, settings });
    } catch (error) {
      return unavailable(error);
    }
    try {
      if (sub === "clear") {
        // The collection first: the store is derived from it (and rebuilt from it if it were left alone).
        const removed = await collections.deleteCodeCollection(store.client, root);
        deleteIndexStore(settings.dataDir, root);
        write(io, json, { workspace: root, removed }, removed ? `Cleared the index of ${root}.` : `${root} had no index.`);
        return EXIT.done;
      }
      const collection = await collections.readCodeCollection(store.client, root);
      const stats = collection ? await collections.indexCounts(collection) : { files: 0, chunks: 0 };
      const builtWith = typeof collection?.metadata?.embedder === "string" ? collection.metadata.embedder : undefined;
      const current = createCodeEmbedder(settings.embeddings).id;
      const data = { workspace: root, collection: collections.codeCollectionName(root), embedder: builtWith ?? current, server: store.endpoint.url, ...stats };
      const text = stats.files === 0 ? `No index for ${root} yet (mini-cursor index build).` : `${count(stats.files, "file")}, ${count(stats.chunks, "chunk")}`;
      const stale = builtWith && builtWith !== current ? ` (now configured: ${current}; the next build or session rebuilds the index with it)` : "";
      write(io, json, data, `${text}\nCollection ${data.collection} on Chroma at ${store.endpoint.url}, embedder ${builtWith ?? current}${stale}`);
      return EXIT.done;
    } finally {
      await store.close();
    }
  }
  let opened;
  try {
    opened = await openCodeIndex({ root, env: io.env, clock, settings });
  } catch (error) {
    return unavailable(error);
  }
  const { index } = opened;
  try {
    // build, and search: search brings the index up to date first (only changed files are embedded).
    const question = { query, limit: limit ?? 10, ...(values.path ? { path: values.path } : {}) };
    // Ranked from the index as it is while git says what changed: when nothing did (most searches), the answer
    // below is this one, kept by the index for the store's version; a change makes it stale, and it is asked again.
    if (sub === "search") void index.answer(question).catch(() => undefined);
    const result = await index.update({ timeBudgetMs: timeLimit * 1000, onProgress: json ? undefined : progressLine(io, clock) });
    if (sub === "build") {
      write(io, json, { workspace: root, ...result }, summary(result));
      return EXIT.done;
    }
    const { hits, wordsOnly } = await index.answer(question);
    if (wordsOnly !== undefined) io.stderr.write(`mini-cursor: ranked by words only: the question could not be embedded (${wordsOnly})\n`);
    const text =
      hits.length === 0
        ? `Nothing in the index matches "${query}".`
        : hits.map((h) => `${h.path}:${h.startLine}-${h.endLine}  ${h.score.toFixed(3)}  ${h.symbol || `(${h.kind})`}`).join("\n");
    write(io, json, hits, text);
    return EXIT.done;
  } finally {
    await opened.close();
  }
}
