import { describe, expect, it } from "vitest";
import { LexicalIndex, lexicalTerms } from "../../src/retrieval/lexical.js";

const DOCS = [
  { id: "a", path: "src/is-empty.ts", symbol: "isEmpty", kind: "function" as const, text: "/** Checks whether a value has nothing in it. */\nexport function isEmpty(value) { return size(value) === 0; }" },
  { id: "b", path: "src/compact.ts", symbol: "compact", kind: "function" as const, text: "/** Creates an array with all falsey values removed. */\nexport function compact(array) { return array.filter(Boolean); }" },
  { id: "c", path: "src/to-string.ts", symbol: "toString", kind: "function" as const, text: "/** Converts a value to text. */\nexport function toString(value) { return `${value}`; }" },
  // "empty" and "string" are common words in comments, rare in names: as in a real library.
  ...Array.from({ length: 6 }, (_, i) => ({ id: `f${i}`, path: `src/other${i}.ts`, symbol: `other${i}`, kind: "function" as const, text: `/** Returns a new array of values ${i}; empty strings count as values too. */\nexport function other${i}(array) { return array.slice(${i}); }` })),
];

function index(): LexicalIndex {
  const lexical = new LexicalIndex();
  lexical.add(DOCS);
  return lexical;
}

describe("LexicalIndex", () => {
  it("ranks the chunk whose words answer a plain question above one whose name merely shares a common word", () => {
    const terms = lexicalTerms("remove falsey values like empty strings from an array");
    expect(index().query(terms, 3, undefined, { namesCountMore: false }).map((h) => h.id)[0]).toBe("b");
    // Weighing names more, as for a name query, lets isEmpty and toString's names win: the false lead avoided above.
    expect(index().query(terms, 3, undefined, { namesCountMore: true }).map((h) => h.id).slice(0, 2).sort()).toEqual(["a", "c"]);
  });

  it("still puts a name first for a query that is a name", () => {
    expect(index().query(lexicalTerms("isEmpty"), 3)[0]?.id).toBe("a");
    expect(index().query(lexicalTerms("to string"), 3, undefined, { namesCountMore: true })[0]?.id).toBe("c");
  });

  it("filters by path and forgets removed chunks", () => {
    const lexical = index();
    expect(lexical.query(lexicalTerms("value"), 3, (p) => p.startsWith("src/compact")).map((h) => h.id)).toEqual(["b"]);
    lexical.remove(["b"]);
    expect(lexical.query(lexicalTerms("falsey"), 3)).toEqual([]);
    expect(lexical.size).toBe(DOCS.length - 1);
  });
  it("indexes a whole index in slices, letting other work run between them, and skips what it has", async () => {
    const many = Array.from({ length: 1_000 }, (_, i) => ({ id: `m${i}`, path: `src/m${i}.ts`, symbol: `m${i}`, kind: "variable" as const, text: `/** Module ${i}. */\nexport const m${i} = ${i};` }));
    const lexical = new LexicalIndex();
    lexical.add(many.slice(0, 10));
    // What other work (a model's answer streaming in, a keypress) would see while the index loads.
    const seen: number[] = [];
    let loading = true;
    const look = () => {
      seen.push(lexical.size);
      if (loading) setTimeout(look, 0);
    };
    setTimeout(look, 0);
    await lexical.addMany(many);
    loading = false;
    expect(lexical.size).toBe(1_000);
    expect(seen.filter((n) => n > 10 && n < 1_000).length).toBeGreaterThanOrEqual(2);
    expect(lexical.query(lexicalTerms("m737"), 1)[0]?.id).toBe("m737");
  });
});
