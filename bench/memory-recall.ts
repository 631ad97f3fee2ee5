import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";
import { cosineSimilarity, createLocalHashEmbedder, EmbedderError, resolveEmbedder, type Embedder } from "../src/memory/embeddings/index.js";
import { mean, ms, printTable } from "./stats.js";

/**
 * Benchmark 4: how well each embedder recalls the right memory for a question, on the labeled set in
 * bench/data/memory-recall.json (60 developer memories, 44 questions, a third of them paraphrased). Ranking is
 * in-process cosine similarity over all memories, which is what Chroma's exact search returns at this size.
 * Two baselines give the figures a scale: random vectors (chance) and a plain bag of words.
 */

const K = 5;
const dataFile = path.join(path.dirname(fileURLToPath(import.meta.url)), "data", "memory-recall.json");

const RecallSet = z.object({
  memories: z.array(z.object({ id: z.string(), kind: z.string(), text: z.string() })),
  questions: z.array(
    z.object({
      id: z.string(),
      style: z.enum(["literal", "paraphrase"]),
      text: z.string(),
      answers: z.array(z.string()).min(1),
    }),
  ),
});
type RecallSet = z.infer<typeof RecallSet>;

export function loadRecallSet(): RecallSet {
  const set = RecallSet.parse(JSON.parse(readFileSync(dataFile, "utf8")));
  const ids = new Set(set.memories.map((m) => m.id));
  for (const q of set.questions) {
    const unknown = q.answers.filter((a) => !ids.has(a));
    if (unknown.length > 0) throw new Error(`${dataFile}: question ${q.id} names unknown memories ${unknown.join(", ")}`);
  }
  return set;
}

function seededUnitVector(text: string, dimension: number): number[] {
  // xorshift32 seeded from the text: the same text always gets the same vector, unrelated to its meaning.
  let state = 2166136261;
  for (let i = 0; i < text.length; i++) state = Math.imul(state ^ text.charCodeAt(i), 16777619) >>> 0;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000 - 0.5;
  };
  const v = Array.from({ length: dimension }, next);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** Baseline: chance level. */
function randomEmbedder(dimension = 64): Embedder {
  return {
    id: "baseline:random",
    dimension: async () => dimension,
    embedDocuments: async (texts) => texts.map((t) => seededUnitVector(t, dimension)),
    embedQuery: async (text) => seededUnitVector(text, dimension),
  };
}

/** Baseline: lowercase words split on non-alphanumerics, raw counts, one slot per distinct word (no hashing). */
function bagOfWordsEmbedder(dimension = 8192): Embedder {
  const vocabulary = new Map<string, number>();
  const embed = (text: string): number[] => {
    const v = new Array<number>(dimension).fill(0);
    for (const word of text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean)) {
      let slot = vocabulary.get(word);
      if (slot === undefined) {
        slot = vocabulary.size % dimension;
        vocabulary.set(word, slot);
      }
      v[slot] = (v[slot] ?? 0) + 1;
    }
    return v;
  };
  return {
    id: "baseline:bag-of-words",
    dimension: async () => dimension,
    embedDocuments: async (texts) => texts.map(embed),
    embedQuery: async (text) => embed(text),
  };
}

interface QuestionResult {
  id: string;
  style: "literal" | "paraphrase";
  recall: number;
  reciprocalRank: number;
  firstRank: number;
}

interface EmbedderResult {
  id: string;
  results: QuestionResult[];
  embedMs: number;
}

async function evaluate(embedder: Embedder, set: RecallSet): Promise<EmbedderResult> {
  const started = performance.now();
  const memoryVectors = await embedder.embedDocuments(set.memories.map((m) => m.text));
  const results: QuestionResult[] = [];
  for (const q of set.questions) {
    const query = await embedder.embedQuery(q.text);
    const ranked = set.memories
      .map((m, i) => ({ id: m.id, score: cosineSimilarity(query, memoryVectors[i] ?? []) }))
      .sort((a, b) => b.score - a.score)
      .map((r) => r.id);
    const top = new Set(ranked.slice(0, K));
    const firstRank = Math.min(...q.answers.map((a) => ranked.indexOf(a) + 1));
    results.push({
      id: q.id,
      style: q.style,
      recall: q.answers.filter((a) => top.has(a)).length / q.answers.length,
      reciprocalRank: 1 / firstRank,
      firstRank,
    });
  }
  return { id: embedder.id, results, embedMs: performance.now() - started };
}

const pct = (value: number) => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : "n/a");

function row(r: EmbedderResult): string[] {
  const of = (style?: QuestionResult["style"]) => r.results.filter((q) => style === undefined || q.style === style);
  return [
    r.id,
    pct(mean(of().map((q) => q.recall))),
    pct(mean(of("literal").map((q) => q.recall))),
    pct(mean(of("paraphrase").map((q) => q.recall))),
    mean(of().map((q) => q.reciprocalRank)).toFixed(3),
    ms(r.embedMs, 1),
  ];
}

/** The configured remote embedder, or why there is none. Never throws. */
function remoteEmbedder(env: NodeJS.ProcessEnv): Embedder | string {
  const howTo =
    "set MINI_CURSOR_EMBEDDINGS=openai OPENAI_API_KEY=... MINI_CURSOR_EMBEDDING_MODEL=text-embedding-3-small, " +
    "or MINI_CURSOR_EMBEDDING_BASE_URL=http://127.0.0.1:11434/v1 MINI_CURSOR_EMBEDDING_MODEL=nomic-embed-text";
  const wantsOpenAI = env.MINI_CURSOR_EMBEDDINGS?.trim().toLowerCase() === "openai" && Boolean(env.OPENAI_API_KEY);
  if (!env.MINI_CURSOR_EMBEDDING_BASE_URL?.trim() && !wantsOpenAI) return `not configured; to include it, ${howTo}`;
  try {
    return resolveEmbedder({ ...env, MINI_CURSOR_EMBEDDINGS: "openai" });
  } catch (error) {
    if (error instanceof EmbedderError) return error.message;
    throw error;
  }
}

export async function benchRecall(): Promise<void> {
  const set = loadRecallSet();
  const paraphrased = set.questions.filter((q) => q.style === "paraphrase").length;
  const embedders: Embedder[] = [randomEmbedder(), bagOfWordsEmbedder(), createLocalHashEmbedder()];
  const remote = remoteEmbedder(process.env);
  if (typeof remote !== "string") embedders.push(remote);

  const results: EmbedderResult[] = [];
  for (const embedder of embedders) {
    try {
      results.push(await evaluate(embedder, set));
    } catch (error) {
      if (!(error instanceof EmbedderError)) throw error;
      console.log(`\n${embedder.id} failed, left out: ${error.message}`);
    }
  }
  printTable(
    `Memory recall: ${set.memories.length} memories, ${set.questions.length} questions ` +
      `(${set.questions.length - paraphrased} literal, ${paraphrased} paraphrased); Recall@${K} and MRR, cosine ranking`,
    ["embedder", `R@${K} all`, `R@${K} literal`, `R@${K} paraphrased`, "MRR", "embed time"],
    results.map(row),
  );
  if (typeof remote === "string") console.log(`openai-compatible embedder skipped: ${remote}`);
  for (const r of results.filter((x) => !x.id.startsWith("baseline:"))) {
    const missed = r.results.filter((q) => q.recall < 1).map((q) => `${q.id}@${q.firstRank}`);
    console.log(`${r.id}: questions not fully answered in the top ${K} (id@first rank): ${missed.join(" ") || "none"}`);
  }
}

const invokedAs = process.argv[1];
if (invokedAs !== undefined && import.meta.url === pathToFileURL(realpathSync(invokedAs)).href) {
  await benchRecall();
}
