// `memory list` on its own: main.ts runs it without the ES module part of the build (no chromadb client, embedder
// or zod; listing reads text and metadata, never vectors). memory.ts shares its options and output helpers.
import { resolveMemoryStoreConfig, type MemoryStoreSettings } from "../../../platform/config/memory-settings.js";
import { verifyAccess } from "../../../memory/chroma/access.js";
import { readCollection } from "../../../memory/chroma/rest.js";
import { ensureChromaServer, peekLocalServer, remoteEndpoint } from "../../../memory/chroma/server.js";
import { hasLocalData } from "../../../memory/chroma/state-file.js";
import { ChromaUnavailableError, type ChromaEndpoint } from "../../../memory/chroma/types.js";
import { listMemories, type ListFilter } from "../../../memory/list.js";
import { DEFAULT_COLLECTION, MEMORY_KINDS, type MemoryKind, type MemoryRecord } from "../../../memory/types.js";
import { COMMON_OPTIONS, parse, positiveInt, resolveWorkspace } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { MEMORY_HELP } from "../help.js";
import type { CliIo } from "../io.js";

export const MEMORY_OPTIONS = {
  ...COMMON_OPTIONS,
  all: { type: "boolean" },
  kind: { type: "string" },
  limit: { type: "string" },
} as const;

export function kindOption(value: string | undefined): MemoryKind | undefined {
  if (value === undefined) return undefined;
  const kind = MEMORY_KINDS.find((k) => k === value);
  if (!kind) throw new UsageError(`--kind must be one of ${MEMORY_KINDS.join(", ")}, got "${value}"`);
  return kind;
}

/** What an empty answer says there is none of: "No lessons match", not "No memories match", under --kind lesson. */
const KIND_PLURAL: Record<MemoryKind, string> = {
  summary: "session summaries",
  decision: "decisions",
  lesson: "lessons",
  finding: "findings",
  file: "file memories",
  command: "command memories",
  note: "notes",
};

export function noneOf(kind: MemoryKind | undefined): string {
  return kind ? KIND_PLURAL[kind] : "memories";
}

export function write(io: CliIo, json: boolean, data: unknown, text: string): void {
  io.stdout.write(json ? `${JSON.stringify(data)}\n` : `${text}\n`);
}

/** `mini-cursor memory list [--all] [--kind K] [--limit N]`: `argv` is what follows `list`. */
export async function memoryListCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, MEMORY_OPTIONS, "memory list");
  if (values.help) {
    io.stdout.write(`${MEMORY_HELP}\n`);
    return EXIT.done;
  }
  const workspace = resolveWorkspace(values.workspace, io.cwd);
  const limit = positiveInt(values.limit, "--limit");
  const kind = kindOption(values.kind);
  // The memory commands work even when sessions have memory off (MINI_CURSOR_MEMORY=off); a bad setting is exit 2.
  const settings = resolveMemoryStoreConfig(io.env);
  const filter: ListFilter = { ...(values.all ? {} : { workspace }), ...(kind ? { kind } : {}), limit: limit ?? 50 };
  let records: MemoryRecord[];
  try {
    records = await listStored(settings, filter, io.env);
  } catch (error) {
    if (!(error instanceof ChromaUnavailableError)) throw error;
    io.stderr.write(`mini-cursor: memory is unavailable: ${error.message}\n`);
    return EXIT.failed;
  }
  const lines = records.map(
    (r) => `${r.id}  ${new Date(r.updatedAt).toISOString().slice(0, 10)}  [${r.kind}]${values.all ? ` ${r.workspace}` : ""}  ${r.text}`,
  );
  write(io, values.json ?? false, records, records.length === 0 ? `No ${noneOf(kind)}${values.all ? "" : ` for ${workspace}`} yet.` : lines.join("\n"));
  return EXIT.done;
}

/**
 * Lists memories without the chromadb client or an embedder. With no CHROMA_URL and no local Chroma database yet
 * there is nothing to list, so no server is started.
 */
async function listStored(settings: MemoryStoreSettings, filter: ListFilter, env: NodeJS.ProcessEnv): Promise<MemoryRecord[]> {
  if (!settings.chromaUrl && !hasLocalData(settings.dataDir)) return [];
  /** The rows, or null when the server has no such collection. */
  const list = async (endpoint: ChromaEndpoint): Promise<MemoryRecord[] | null> => {
    const source = await readCollection(endpoint, settings.collection ?? DEFAULT_COLLECTION);
    return source ? await listMemories(source, filter) : null;
  };
  if (settings.chromaUrl) {
    // Two requests instead of four (no heartbeat, no access check up front): each is a round trip to a remote server.
    const endpoint = remoteEndpoint(settings.chromaUrl, settings.chromaAccess);
    const rows = await list(endpoint);
    if (rows) return rows;
    // "No such collection" also comes from a database that does not exist: say so rather than list nothing.
    await verifyAccess(endpoint, endpoint);
    return [];
  }
  const running = peekLocalServer(settings.dataDir);
  if (running) {
    try {
      return (await list(running)) ?? [];
    } catch (error) {
      // Stopped or restarted meanwhile: the full path below finds or starts the server.
      if (!(error instanceof ChromaUnavailableError)) throw error;
    }
  }
  const endpoint = await ensureChromaServer({ dataDir: settings.dataDir, env, idleSeconds: settings.chromaIdleSeconds });
  try {
    return (await list(endpoint)) ?? [];
  } finally {
    await endpoint.stop();
  }
}
