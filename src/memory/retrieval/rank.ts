import { lexicalTerms } from "./lexical.js";

/**
 * How much each signal counts in the hybrid score (they are each normalized to [0, 1] first), and the file-level prior
 * for a private module (below).
 */
export const WEIGHTS = { vector: 0.7, lexical: 0.3, path: 0.15, privateModule: 0.7 } as const;

export interface Weights {
  vector: number;
  lexical: number;
  path: number;
  /** What a private module's score is multiplied by (1: no prior). */
  privateModule: number;
}

export interface Candidate {
  id: string;
  path: string;
  symbol: string;
}

export interface Scored {
  id: string;
  score: number;
}

/**
 * A query that looks like a name (`debounce`, `parseVersion`, `src/router.ts`, `Store.get`): one or two words, or
 * words joined the way identifiers are. Only then does the path/symbol signal count: in a question in plain words,
 * a word that happens to be some other file's name ("create an object...", create.js) is a false lead.
 */
export function looksLikeName(query: string): boolean {
  const words = query.trim().split(/\s+/);
  return words.length <= 2 || words.some((w) => /[a-z][A-Z]|[_./]\w/.test(w));
}

/** Share of the query's terms found in the chunk's file path and symbol: "router" → src/router.ts. */
export function pathSignal(queryTerms: ReadonlySet<string>, candidate: Candidate): number {
  if (queryTerms.size === 0) return 0;
  const own = new Set(lexicalTerms(`${candidate.path.replace(/\.[a-z0-9]+$/i, "")} ${candidate.symbol}`));
  let found = 0;
  for (const term of queryTerms) if (own.has(term)) found++;
  return found / queryTerms.size;
}

/**
 * Min-max over this answer's candidates: cosine similarities of candidates bunch together (0.55-0.7), so dividing
 * by the best alone left them all near 1 and let BM25's spread decide the order.
 */
function normalized(scores: readonly Scored[]): Map<string, number> {
  if (scores.length === 0) return new Map();
  const max = scores.reduce((m, s) => Math.max(m, s.score), -Infinity);
  const min = scores.reduce((m, s) => Math.min(m, s.score), Infinity);
  // One candidate, or all equal: each counts fully (a lone hit is that side's best).
  return new Map(scores.map((s) => [s.id, max > min ? (s.score - min) / (max - min) : max > 0 ? 1 : 0]));
}

/**
 * Hybrid ranking: vector similarity and BM25 (each min-max scaled over this answer, so neither scale
 * dominates) plus the path/symbol signal, with private modules a step down. A chunk found by only one side still
 * ranks, with 0 for the other.
 */
/**
 * A file named as private by the convention of JavaScript, TypeScript and Python (`_baseClone.js`, `_helpers.py`; not
 * a dunder such as `__init__.py`): an implementation detail of the module a question in plain words is usually about.
 */
export function isPrivateModule(file: string): boolean {
  const base = file.slice(file.lastIndexOf("/") + 1);
  return base.startsWith("_") && !base.startsWith("__");
}

export function fuse(
  vector: readonly Scored[],
  lexical: readonly Scored[],
  candidates: ReadonlyMap<string, Candidate>,
  queryTerms: ReadonlySet<string>,
  nameQuery: boolean,
  weights: Weights = WEIGHTS,
): Scored[] {
  const v = normalized(vector);
  const l = normalized(lexical);
  const ids = new Set([...v.keys(), ...l.keys()]);
  const out: Scored[] = [];
  for (const id of ids) {
    const candidate = candidates.get(id);
    if (!candidate) continue;
    const mixed = weights.vector * (v.get(id) ?? 0) + weights.lexical * (l.get(id) ?? 0) + (nameQuery ? weights.path * pathSignal(queryTerms, candidate) : 0);
    // A prior, not a filter: a private module that matches clearly best still comes first.
    const score = isPrivateModule(candidate.path) ? mixed * weights.privateModule : mixed;
    out.push({ id, score });
  }
  return out.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}
