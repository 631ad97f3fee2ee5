import { describe, expect, it } from "vitest";
import { stem, tokenize } from "../../../src/memory/embeddings/tokenize.js";

const stems = (text: string) => tokenize(text).words.map((w) => w.stem);

describe("tokenize", () => {
  it("splits paths, dots and extensions, and keeps file names and whole paths as compounds", () => {
    const t = tokenize("The API routes live in src/server/routes.ts");
    expect(stems("src/server/routes.ts")).toEqual(["src", "server", "rout", "ts"]);
    expect(tokenize("src/server/routes.ts").compounds).toEqual(["srcserverroutests", "routests"]);
    expect(t.words.map((w) => w.surface)).toEqual(["api", "routes", "live", "src", "server", "routes", "ts"]);
  });

  it("splits ASCII text as its Unicode path does (a non-ASCII letter sends a text down that path)", () => {
    const texts = [
      "fooBar HTTPServer sqlite3 1Gi better-sqlite3 src/server/routes.ts don't",
      "  ..__init__.py; (x) => x.mapValues_v2(ABCDef9) wasn't it?",
      "CONSTANT_CASE kebab-case dot.ted/path\\win\\file.TS",
    ];
    for (const text of texts) {
      // "é" becomes "e" and is dropped as a one-letter word: the tokens must be the same either way.
      expect(tokenize(`${text} é`)).toEqual(tokenize(text));
    }
  });

  it("splits camelCase, PascalCase acronyms, snake_case, kebab-case and letters from digits", () => {
    expect(stems("useAppStore")).toEqual(["us", "app", "stor"]);
    expect(tokenize("HTTPServer").words.map((w) => w.surface)).toEqual(["http", "server"]);
    expect(tokenize("customer_id").words.map((w) => w.surface)).toEqual(["customer", "id"]);
    expect(tokenize("better-sqlite3").words.map((w) => w.surface)).toEqual(["better", "sqlite"]);
    // Separator style does not matter for the whole identifier.
    for (const spelling of ["better-sqlite3", "better_sqlite3", "betterSqlite3", "BETTER_SQLITE3"]) {
      expect(tokenize(spelling).compounds).toEqual(["bettersqlite3"]);
    }
  });

  it("drops stopwords and trailing punctuation, and keeps contractions out", () => {
    expect(stems("Why doesn't the build work, and where is it?")).toEqual(["build", "work"]);
    expect(stems("npm test failed because jest wasn't installed.")).toEqual(["npm", "test", "fail", "becaus", "jest", "install"]);
  });

  it("keeps stopwords when the text has nothing else", () => {
    expect(stems("what is this")).toEqual(["what", "is", "this"]);
  });

  it("keeps numbers of two digits or more (ports, versions)", () => {
    expect(stems("postgres on port 5433, node 20")).toEqual(["postgr", "port", "5433", "nod", "20"]);
  });

  it("lowercases and removes accents", () => {
    expect(tokenize("Café RÉSUMÉ").words.map((w) => w.surface)).toEqual(["cafe", "resume"]);
  });

  it("returns nothing for empty or punctuation-only text", () => {
    expect(tokenize("")).toEqual({ words: [], compounds: [] });
    expect(tokenize("  --- ... !!! ")).toEqual({ words: [], compounds: [] });
  });
});

describe("stem", () => {
  it.each([
    [["route", "routes", "routing", "routed"], "rout"],
    [["cache", "cached", "caches", "caching"], "cach"],
    [["install", "installed", "installing", "installs"], "install"],
    [["fail", "failed", "failing", "fails"], "fail"],
    [["log", "logs", "logging", "logged"], "log"],
    [["fix", "fixed", "fixes", "fixing"], "fix"],
    [["dependency", "dependencies"], "dependency"],
    [["process", "processes", "processing"], "process"],
    [["use", "used", "uses", "using"], "us"],
  ])("maps %j to %s", (words, expected) => {
    for (const w of words) expect(stem(w)).toBe(expected);
  });

  it("leaves short words, words with digits, -ss/-us/-is endings and vowel-less stems alone", () => {
    for (const w of ["ts", "go", "utf8", "class", "status", "redis", "string", "thing"]) expect(stem(w)).toBe(w);
  });
});
