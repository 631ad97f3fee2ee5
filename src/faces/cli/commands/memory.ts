// Only light modules load up front: help and usage errors must not pay for the chromadb client, embedders or zod
// (several times a bare node start). The other subcommands import those when they run; `memory list` is its own
// module, which main.ts also runs directly.
import { resolveMemoryStoreConfig, type MemoryStoreSettings } from "../../../platform/config/memory-settings.js";
import type { ChromaMemory } from "../../../memory/chroma-memory.js";
import { ensureChromaServer, stopLocalServerNow } from "../../../memory/chroma/server.js";
import { formatHit } from "../../../memory/format.js";
import { DEFAULT_COLLECTION } from "../../../memory/types.js";
import type { Clock } from "../../../platform/clock.js";
import { parse, positiveInt, resolveWorkspace } from "../args.js";
import { closest } from "../did-you-mean.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { MEMORY_HELP } from "../help.js";
import type { CliIo } from "../io.js";
import { kindOption, MEMORY_OPTIONS, memoryListCommand, noneOf, write } from "./memory-list.js";

const MEMORY_COMMANDS = ["search", "list", "add", "forget", "stats", "reindex", "stop"];

class MemoryUnavailableError extends Error {}

/** `mini-cursor memory search|list|add|forget|stats|reindex|stop`. */
export async function memoryCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h") {
    io.stdout.write(`${MEMORY_HELP}\n`);
    return sub === undefined ? EXIT.usage : EXIT.done;
  }
  if (sub.startsWith("-")) throw new UsageError(`the memory command comes first: mini-cursor memory <${MEMORY_COMMANDS.join("|")}> [options], got ${sub}`);
  if (!MEMORY_COMMANDS.includes(sub)) {
    const suggestion = closest(sub, MEMORY_COMMANDS);
    throw new UsageError(`unknown memory command "${sub}"; ${suggestion ? `did you mean ${suggestion}?` : `commands: ${MEMORY_COMMANDS.join(", ")}`}`);
  }
  if (sub === "list") return memoryListCommand(rest, io);
  const { values, positionals } = parse(rest, MEMORY_OPTIONS, `memory ${sub}`);
  if (values.help) {
    io.stdout.write(`${MEMORY_HELP}\n`);
    return EXIT.done;
  }
  const json = values.json ?? false;
  const workspace = resolveWorkspace(values.workspace, io.cwd);
  const limit = positiveInt(values.limit, "--limit");
  const kind = kindOption(values.kind);
  const text = positionals.join(" ").trim();
  // The memory commands work even when sessions have memory off (MINI_CURSOR_MEMORY=off); a bad setting is exit 2.
  const settings = resolveMemoryStoreConfig(io.env);

  if (sub === "reindex") return reindex(io, json, clock, settings);
  if (sub === "stop") return stopServer(io, json, settings);
  const handlers: Record<string, (runtime: { chroma: ChromaMemory; status: string }) => Promise<number>> = {
    async search({ chroma }) {
      if (!text) throw new UsageError('missing query: mini-cursor memory search "<query>"');
      const hits = await chroma.search({ query: text, workspace, limit: limit ?? 8, scope: "all", ...(kind ? { kinds: [kind] } : {}) });
      write(io, json, hits, hits.length === 0 ? `No ${noneOf(kind)} match.` : hits.map((h) => `${h.id}  ${h.score.toFixed(2)}  ${formatHit(h)}`).join("\n"));
      return EXIT.done;
    },
    async add({ chroma }) {
      if (!text) throw new UsageError('missing note: mini-cursor memory add "<note>"');
      const [result] = await chroma.add([{ kind: kind ?? "note", text, source: "user" }], { workspace, session: "user" });
      write(io, json, result, result?.merged ? `Merged into the similar memory ${result.id}.` : `Added ${result?.id}.`);
      return EXIT.done;
    },
    async forget({ chroma }) {
      if (!text || positionals.length !== 1) throw new UsageError("usage: mini-cursor memory forget <id> (ids are shown by memory list and memory search)");
      const removed = await chroma.forget(text);
      write(io, json, { id: text, removed }, removed ? `Forgot ${text}.` : `No memory with id ${text}.`);
      return removed ? EXIT.done : EXIT.failed;
    },
    async stats({ chroma, status }) {
      const stats = await chroma.stats();
      const kinds = Object.entries(stats.byKind)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ");
      const here = stats.byWorkspace[workspace] ?? 0;
      write(io, json, { ...stats, server: status }, `${stats.count} memories (${here} for this workspace)${kinds ? `: ${kinds}` : ""}\n${status}`);
      return EXIT.done;
    },
  };
  const handler = handlers[sub];
  if (!handler) throw new UsageError(`unknown memory command "${sub}" (${MEMORY_COMMANDS.join(", ")})`);

  const [{ openMemory }, { EmbedderMismatchError }] = await Promise.all([import("../../../memory/open-memory.js"), import("../../../memory/collection.js")]);
  const runtime = await openMemory({ env: io.env, settings: { enabled: true, ...settings }, clock });
  try {
    const { chroma } = runtime;
    if (runtime.failure instanceof EmbedderMismatchError) throw new UsageError(runtime.status);
    if (!chroma) throw new MemoryUnavailableError(`memory is unavailable: ${runtime.status}`);
    return await handler({ chroma, status: runtime.status });
  } catch (error) {
    if (error instanceof MemoryUnavailableError) {
      io.stderr.write(`mini-cursor: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  } finally {
    await runtime.close();
  }
}

/** Ends the local server now rather than after MINI_CURSOR_CHROMA_IDLE; one in use by a session is left alone (exit 1). */
async function stopServer(io: CliIo, json: boolean, settings: MemoryStoreSettings): Promise<number> {
  if (settings.chromaUrl) throw new UsageError("memory stop stops the local Chroma server; the one at CHROMA_URL is not mini-cursor's to stop");
  const outcome = await stopLocalServerNow(settings.dataDir);
  if (outcome.kind === "none") {
    write(io, json, { status: "not_running" }, `No local Chroma server is running for ${settings.dataDir}.`);
    return EXIT.done;
  }
  if (outcome.kind === "in_use") {
    const who = outcome.sessions === 1 ? "1 session" : `${outcome.sessions} sessions`;
    write(
      io,
      json,
      { status: "in_use", pid: outcome.pid, sessions: outcome.sessions },
      `The local Chroma server (pid ${outcome.pid}) is in use by ${who}; left running (it stops by itself once idle after they end).`,
    );
    return EXIT.failed;
  }
  write(io, json, { status: "stopped", pid: outcome.pid }, `Stopped the local Chroma server (pid ${outcome.pid}).`);
  return EXIT.done;
}

async function reindex(io: CliIo, json: boolean, clock: Clock, settings: MemoryStoreSettings): Promise<number> {
  const [{ createEmbedder }, { chromaClient, reindexCollection, VectorWriter }] = await Promise.all([
    import("../../../memory/embeddings/index.js"),
    import("../../../memory/collection.js"),
  ]);
  const embedder = createEmbedder(settings.embeddings);
  const endpoint = await ensureChromaServer({
    dataDir: settings.dataDir,
    chromaUrl: settings.chromaUrl,
    access: settings.chromaAccess,
    env: io.env,
    idleSeconds: settings.chromaIdleSeconds,
  });
  try {
    const name = settings.collection ?? DEFAULT_COLLECTION;
    const client = chromaClient(endpoint);
    const count = await reindexCollection(client, new VectorWriter(client, endpoint), name, embedder, clock.now());
    write(io, json, { collection: name, embedder: embedder.id, count }, `Re-embedded ${count} memories of ${name} with ${embedder.id}.`);
    return EXIT.done;
  } finally {
    await endpoint.stop();
  }
}
