/**
 * The offline default embedder: lexical feature hashing, in pure TypeScript. It downloads nothing, needs no
 * service, is deterministic across processes and machines, and embeds a note of a few sentences in about 0.1 ms.
 *
 * Each text becomes weighted features (see `tokenize.ts` for the splitting and stemming):
 * - word unigrams (stemmed) and whole identifiers/file names ("compounds"), full weight;
 * - unordered pairs of neighbouring words, lower weight (they reward shared phrases: "peer dependency");
 * - character trigrams of each word, low weight (they let "postgres"/"postgresql" and small typos still meet).
 * Counts are damped (1 + ln tf), every feature is hashed to a slot with a signed hash (collisions cancel out on
 * average instead of always adding up) and the vector is L2-normalized, so cosine similarity is a dot product.
 *
 * Good at: notes and questions that share words, identifiers, commands, error messages and paths, in any casing
 * or separator style, and inflections or small typos to a degree. Bad at: synonyms and paraphrases that share no
 * words ("the container quits" vs "the pod exits"), and languages other than English (no stemming or stopwords,
 * though exact words still match). There are no corpus statistics (no IDF): common developer words weigh as much
 * as rare ones.
 *
 * Bump the version in the id whenever features, weights or hashing change: stored vectors would no longer compare.
 */
import { tokenize } from "./tokenize.js";
import { EmbedderError, type Embedder } from "./types.js";

export const LOCAL_HASH_ID = "local-hash-v1";
export const LOCAL_HASH_DEFAULT_DIMENSION = 2048;

export interface LocalHashOptions {
  /**
   * Vector length. A note yields a few hundred features (mostly trigrams); at 512 slots their collisions cost
   * several points of recall on bench/memory-recall.ts, at 2048 little (8 KB per stored vector).
   */
  dimension?: number;
}

// Relative feature weights. Trigram weight is per word, spread over its trigrams so long words do not dominate.
const WEIGHT = { word: 1, compound: 1, pair: 0.5, trigramsPerWord: 0.7 } as const;

/** 32-bit FNV-1a followed by a murmur3 finalizer, so neighbouring strings land far apart. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Feature key → summed weight, and how many times it occurred (for tf damping). */
type Features = Map<string, { weight: number; count: number }>;

function add(features: Features, key: string, weight: number): void {
  const f = features.get(key);
  if (f) {
    f.count += 1;
    f.weight = Math.max(f.weight, weight);
  } else {
    features.set(key, { weight, count: 1 });
  }
}

function extractFeatures(text: string): Features {
  const { words, compounds } = tokenize(text);
  const features: Features = new Map();
  // Prefixes keep the feature kinds in separate hash namespaces ("w:ts" is not "c:ts").
  for (const word of words) {
    add(features, `w:${word.stem}`, WEIGHT.word);
    const padded = `<${word.surface}>`;
    const n = padded.length - 2;
    const each = WEIGHT.trigramsPerWord / Math.sqrt(n);
    for (let i = 0; i < n; i++) add(features, `t:${padded.slice(i, i + 3)}`, each);
  }
  for (const compound of compounds) add(features, `c:${compound}`, WEIGHT.compound);
  for (let i = 1; i < words.length; i++) {
    const a = words[i - 1]?.stem ?? "";
    const b = words[i]?.stem ?? "";
    if (a !== b) add(features, a < b ? `p:${a} ${b}` : `p:${b} ${a}`, WEIGHT.pair);
  }
  return features;
}

function embed(text: string, dimension: number): number[] {
  // A typed array: the same double arithmetic in the same order as a plain array, without its holes and checks.
  const vector = new Float64Array(dimension);
  const features = extractFeatures(text);
  // Nothing to hash (empty or punctuation-only text): one fixed slot, so the vector still has unit norm.
  if (features.size === 0) features.set("empty:", { weight: 1, count: 1 });
  for (const [key, { weight, count }] of features) {
    const h = hash32(key);
    const sign = h & 0x80000000 ? -1 : 1;
    const slot = h % dimension;
    vector[slot] = (vector[slot] as number) + sign * weight * (1 + Math.log(count));
  }
  let norm = 0;
  for (let i = 0; i < dimension; i++) norm += (vector[i] as number) * (vector[i] as number);
  norm = Math.sqrt(norm);
  // Opposite-signed collisions can cancel to zero in principle; fall back to the empty-text vector then.
  if (norm === 0) return embed("", dimension);
  const unit = new Array<number>(dimension);
  for (let i = 0; i < dimension; i++) unit[i] = (vector[i] as number) / norm;
  return unit;
}

export function createLocalHashEmbedder(options: LocalHashOptions = {}): Embedder {
  const dimension = options.dimension ?? LOCAL_HASH_DEFAULT_DIMENSION;
  if (!Number.isInteger(dimension) || dimension < 16) {
    throw new EmbedderError(`local hash embedder: dimension must be an integer of at least 16, got ${dimension}`);
  }
  return {
    id: LOCAL_HASH_ID,
    dimension: async () => dimension,
    knownDimension: () => dimension,
    embedDocuments: async (texts) => texts.map((t) => embed(t, dimension)),
    // Queries and documents live in the same space: a query is just a short document.
    embedQuery: async (text) => embed(text, dimension),
  };
}
