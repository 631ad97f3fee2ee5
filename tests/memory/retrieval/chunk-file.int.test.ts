import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

describe("grammars load on first use", () => {
  it("chunking TypeScript loads no JavaScript grammar, and JavaScript then loads it; neither loads its node-type table", () => {
    const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
    // A fresh process: which native grammars it loaded is in its require cache.
    const script = `
      import { createRequire } from "node:module";
      import { chunkFile } from "./src/memory/retrieval/chunk-file.ts";
      const cached = () => Object.keys(createRequire(import.meta.url).cache);
      const loaded = () => cached().filter((k) => /tree-sitter-(javascript|typescript)\\/.*\\.node$/.test(k)).map((k) => k.includes("tree-sitter-javascript") ? "javascript" : "typescript");
      const ts = chunkFile("a.ts", "export function f(): number { return 1; }\\n");
      const afterTs = loaded();
      const js = chunkFile("b.js", "export function g() { return 2; }\\n");
      const tables = cached().filter((k) => k.endsWith("node-types.json"));
      console.log(JSON.stringify({ afterTs, afterJs: loaded(), tables, symbols: [...ts, ...js].map((c) => c.symbol) }));
    `;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: repo, encoding: "utf8" });
    const result = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as { afterTs: string[]; afterJs: string[]; tables: string[]; symbols: string[] };
    expect(result.symbols).toEqual(["f", "g"]);
    // The grammars' node-type tables (JSON the packages' own entries read) are never loaded: nothing uses them.
    expect(result.tables).toEqual([]);
    expect(result.afterTs).toEqual(["typescript"]);
    expect([...result.afterJs].sort()).toEqual(["javascript", "typescript"]);
  });
});
