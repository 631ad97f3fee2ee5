import { tokenize } from "../embeddings/tokenize.js";

/**
 * Terms the way a developer reads code: identifiers split at camelCase, snake_case and paths, lowercased,
 * stopwords dropped, lightly stemmed (the local embedder's tokenizer, so both sides agree), plus whole
 * identifiers, so `debounce`, `debounced` and `Debouncer` meet and `useAppStore` matches "app store".
 */
export function lexicalTerms(text: string): string[] {
  const { words, compounds } = tokenize(text);
  return [...words.map((w) => w.stem), ...compounds];
}
