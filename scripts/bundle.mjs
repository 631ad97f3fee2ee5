// Builds the CLI that ships: src/cli/main.ts and everything it imports, bundled by esbuild into dist/cli/ (an entry
// plus chunks for what loads on demand). One bundle instead of ~1,100 ESM modules roughly halves the time from
// process start to the first model request on Node 20, which has no compile cache for ES modules (issue 11).
// Type checking is `npm run typecheck` (tsc); esbuild only strips the types.
import { rmSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

/**
 * Kept out of the bundle: native addons (tree-sitter) and packages that find their own files on disk at run time
 * (ripgrep's binary, chromadb's server script), which a bundle would move. better-sqlite3's JavaScript is bundled:
 * its addon is opened by path (src/sessions/sqlite-addon.ts), and its 15 CommonJS files cost `sessions` ~7 ms.
 */
const EXTERNAL = ["tree-sitter", "tree-sitter-bash", "tree-sitter-javascript", "tree-sitter-typescript", "@vscode/ripgrep", "chromadb"];

rmSync("dist", { recursive: true, force: true });
const result = await build({
  entryPoints: { main: "src/cli/main.ts" },
  outdir: "dist/cli",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  sourcemap: "linked",
  metafile: true,
  // Some bundled CommonJS packages call require() for Node built-ins; an ES module has no require of its own.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  logLevel: "warning",
});
// Which sources went into which output file: tests map the files a process loaded back to our modules with it.
writeFileSync("dist/cli/meta.json", JSON.stringify(result.metafile));
