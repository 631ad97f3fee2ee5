/**
 * Tokenizer for developer notes, used by the local hash embedder. It splits identifiers the way a developer reads
 * them (`useAppStore` → use, app, store; `src/server/routes.ts` → src, server, routes, ts; `better-sqlite3` →
 * better, sqlite, 3), lowercases, drops a small English stopword list and applies a light suffix stemmer so
 * "routes", "routing" and "route" meet. Whole identifiers are also kept as "compounds" so an exact identifier or
 * file name still counts more than its scattered parts.
 */

export interface Word {
  /** Lowercased, accent-free surface form: character trigrams come from it (typo tolerance). */
  readonly surface: string;
  /** Stemmed form: unigrams and bigrams come from it. */
  readonly stem: string;
}

export interface Tokens {
  /** Content words in text order (stopwords removed, unless the text had nothing else). */
  readonly words: Word[];
  /** Identifiers joined without separators: "bettersqlite3", "routests", "srcserverroutests". */
  readonly compounds: string[];
}

// Function words and question words: queries are often phrased as questions ("where do we ...").
const STOPWORDS = new Set(
  `a an the and or but if then else of to in on at for with by from as into onto over under about via per
  is are was were be been being am do does did done doing have has had having get got
  it its this that these those there here such than too very so just also only even still yet
  i me my we us our you your he she him her they them their one ones
  can could should would will shall may might must need needs
  not no nor dont doesnt didnt isnt arent wasnt werent cant couldnt wont shouldnt
  what which who whom whose when where why how whats
  all any some each every more most other another same own
  up out off again once after before while during until against between through
  e g eg ie etc vs`.split(/\s+/),
);

const VOWEL = /[aeiouy]/;
const ASCII_WORD = /^[a-z]+$/;

/** Undo the consonant doubling of "logging"/"setting" but keep ll/ss/zz ("installed", "passed"). */
function undouble(s: string): string {
  const last = s.at(-1);
  if (s.length >= 3 && last === s.at(-2) && last !== undefined && !"lszaeiouy".includes(last)) return s.slice(0, -1);
  return s;
}

/**
 * A small suffix stripper (plural, -ing, -ed, final e). It is deliberately crude: it only needs to map a word and
 * its inflections to the same key, not to produce real words ("cache", "cached", "caching" → "cach").
 */
export function stem(word: string): string {
  if (word.length <= 2 || !ASCII_WORD.test(word)) return word;
  let s = word;
  if (s.length > 4 && s.endsWith("ies")) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith("sses")) s = s.slice(0, -2);
  else if (s.length > 3 && s.endsWith("s") && !/(ss|us|is)$/.test(s)) s = s.slice(0, -1);

  if (s.endsWith("ing") && s.length >= 5 && VOWEL.test(s.slice(0, -3))) s = undouble(s.slice(0, -3));
  else if (s.endsWith("ed") && !s.endsWith("eed") && s.length >= 4 && VOWEL.test(s.slice(0, -2))) {
    s = undouble(s.slice(0, -2));
  }
  if (s.length >= 3 && s.endsWith("e")) s = s.slice(0, -1);
  return s;
}

/** The same splits for any script (Unicode letter and number classes), and for ASCII text, where they match the same. */
const UNICODE_SPLITS = {
  lowerUpper: /(\p{Ll})(\p{Lu})/gu,
  upperRun: /(\p{Lu})(\p{Lu}\p{Ll})/gu,
  letterDigit: /(\p{L})(\p{N})/gu,
  digitLetter: /(\p{N})(\p{L})/gu,
  separators: /[^\p{L}\p{N}]+/u,
  edges: /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu,
};
// Unicode property classes cost ~10x plain ones in V8; in ASCII they are exactly [a-z], [A-Z], [A-Za-z] and [0-9].
// (Embedding the code index spent most of its time here.)
const ASCII_SPLITS: typeof UNICODE_SPLITS = {
  lowerUpper: /([a-z])([A-Z])/g,
  upperRun: /([A-Z])([A-Z][a-z])/g,
  letterDigit: /([A-Za-z])([0-9])/g,
  digitLetter: /([0-9])([A-Za-z])/g,
  separators: /[^A-Za-z0-9]+/,
  edges: /^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g,
};
const ASCII_TEXT = /^[\x00-\x7f]*$/;

/** Break one identifier-ish chunk into lowercase parts: camelCase, snake_case, kebab-case, dots, slashes, digits. */
function splitParts(chunk: string, splits: typeof UNICODE_SPLITS): string[] {
  // A plain lowercase word, most of any text: nothing to split.
  if (ASCII_WORD.test(chunk)) return [chunk];
  const spaced = chunk
    .replace(splits.lowerUpper, "$1 $2") // fooBar → foo Bar
    .replace(splits.upperRun, "$1 $2") // HTTPServer → HTTP Server
    .replace(splits.letterDigit, "$1 $2") // sqlite3 → sqlite 3
    .replace(splits.digitLetter, "$1 $2"); // 1Gi → 1 Gi
  return spaced
    .toLowerCase()
    .split(splits.separators)
    .filter((p) => p.length > 0);
}

function normalize(text: string, ascii: boolean): string {
  if (ascii) return text.replace(/([A-Za-z])'([A-Za-z])/g, "$1$2");
  return (
    text
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      // Contractions become one word ("wasn't" → "wasnt") so they meet the stopword list.
      .replace(/(\p{L})['’](\p{L})/gu, "$1$2")
  );
}

export function tokenize(text: string): Tokens {
  const all: { surface: string; stop: boolean }[] = [];
  const compounds: string[] = [];
  // ASCII text stays ASCII when normalized (only apostrophes go), so one test picks both paths.
  const ascii = ASCII_TEXT.test(text);
  const splits = ascii ? ASCII_SPLITS : UNICODE_SPLITS;
  for (const raw of normalize(text, ascii).split(/\s+/)) {
    const chunk = raw.replace(splits.edges, "");
    if (chunk === "") continue;
    const parts = splitParts(chunk, splits);
    if (parts.length > 1) compounds.push(parts.join(""));
    // Path segments are identifiers of their own: "src/server/routes.ts" also yields "routests".
    const segments = chunk.split(/[/\\]+/).filter((s) => s.length > 0);
    if (segments.length > 1) {
      for (const segment of segments) {
        const segParts = splitParts(segment, splits);
        if (segParts.length > 1) compounds.push(segParts.join(""));
      }
    }
    for (const part of parts) {
      if (part.length < 2) continue; // single letters and digits carry no meaning alone; the compound keeps them
      all.push({ surface: part, stop: STOPWORDS.has(part) });
    }
  }
  const content = all.filter((w) => !w.stop);
  // A text made only of stopwords ("what is this?") still deserves a vector that is not empty.
  const chosen = content.length > 0 ? content : all;
  return { words: chosen.map((w) => ({ surface: w.surface, stem: stem(w.surface) })), compounds };
}
