// Builds the CLI that ships, in two parts (both bundled by esbuild; type checking is `npm run typecheck`, tsc):
// - dist/app/: src/faces/cli/app.ts and everything it imports, as ES modules, an entry plus chunks for what loads on
//   demand. One bundle instead of ~1,100 ESM modules: Node 20 has no compile cache for ES modules (issue 11).
// - dist/cli/main.js: src/faces/cli/main.ts and what it imports statically, as one CommonJS file (dist/cli/package.json
//   says so). It answers help, `sessions` and `memory list` alone, without starting Node's ES module loader or
//   loading a chunk, and hands every other command to dist/app/app.js. Kept because a user feels it on those
//   commands: "Special cases kept and removed" in docs/benchmarks.md.
// Both without comments and whitespace, names kept (minifyWhitespace and minifySyntax, not minifyIdentifiers): the
// source a process parses, and keeps in memory for lazy compilation, is smaller, which lowers a session's peak RSS
// and its time to the first model request (docs/benchmarks.md). Errors shown to users never carry stack traces; the
// source maps map profiles and traces back to src/.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

/**
 * Kept out of the bundle: native addons (tree-sitter) and packages that find their own files on disk at run time
 * (ripgrep's binary, chromadb's server script), which a bundle would move. better-sqlite3's JavaScript is bundled:
 * its addon is opened by path (src/platform/sqlite-addon.ts), and loading its 15 CommonJS files slowed `sessions`.
 */
// react-devtools-core: Ink loads it only when DEV=true (its React devtools), and it is not installed.
// @huggingface/transformers: an optional peer dependency the user installs beside mini-cursor (it brings ONNX Runtime's
// native addon and about 475 MB); imported on demand only when MINI_CURSOR_EMBEDDINGS=transformers.
const EXTERNAL = [
  "tree-sitter",
  "tree-sitter-bash",
  "tree-sitter-javascript",
  "tree-sitter-typescript",
  "@vscode/ripgrep",
  "chromadb",
  "react-devtools-core",
  "@huggingface/transformers",
  // `serve` only: the Agent Server's embed routes (and their zod v3 schemas), loaded from node_modules as published.
  "@langchain/langgraph-api",
];
const REPO = process.cwd();
const DEFER = path.join(REPO, "src/faces/cli/defer.ts");

/**
 * Every module main.ts's part imports on demand, and what the CommonJS file does with it: the app is the other
 * part; a small module is bundled; the rest are left out, each export replaced by `deferToApp` (src/faces/cli/defer.ts),
 * so that reaching one hands the command to the app. An import not listed here fails the build.
 */
const QUICK_ON_DEMAND = {
  "src/faces/cli/app.js": { external: "../app/app.js" },
  "src/faces/cli/commands/sessions.js": "bundle",
  "src/faces/cli/commands/memory-list.js": "bundle",
  "src/platform/young-generation.js": "bundle",
  "src/sessions/session-lock.js": "bundle",
  "src/platform/run-program.js": "bundle",
  "src/faces/cli/commands/sessions-delete.js": ["deleteSession"],
  "src/sessions/postgres/postgres-records.js": ["openPostgresRecords"],
  "src/memory/chroma/local-process.js": ["startLocalServer", "stopLocalServer"],
};

const quickOnDemand = {
  name: "quick-on-demand",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== "dynamic-import" || args.path.startsWith("node:")) return undefined;
      const key = path.relative(REPO, path.resolve(args.resolveDir, args.path));
      const rule = QUICK_ON_DEMAND[key];
      if (rule === undefined)
        return {
          errors: [
            {
              text: `${path.relative(REPO, args.importer)} imports ${args.path} on demand: say in scripts/bundle.mjs (QUICK_ON_DEMAND) what main.ts's CommonJS file does with it`,
            },
          ],
        };
      if (rule === "bundle") return undefined;
      if (!Array.isArray(rule)) return { path: rule.external, external: true };
      return { path: key, namespace: "deferred", pluginData: rule };
    });
    b.onLoad({ filter: /.*/, namespace: "deferred" }, (args) => ({
      contents: args.pluginData.map((name) => `export { deferToApp as ${name} } from ${JSON.stringify(DEFER)};`).join("\n"),
      resolveDir: REPO,
      loader: "ts",
    }));
  },
};

rmSync("dist", { recursive: true, force: true });
const app = await build({
  entryPoints: { app: "src/faces/cli/app.ts" },
  outdir: "dist/app",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  sourcemap: "linked",
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  // Some bundled CommonJS packages call require() for Node built-ins; an ES module has no require of its own.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  logLevel: "warning",
});
const quick = await build({
  entryPoints: { main: "src/faces/cli/main.ts" },
  outdir: "dist/cli",
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  plugins: [quickOnDemand],
  sourcemap: "linked",
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  // import.meta.url, which some modules resolve files from, is this file's URL (a CommonJS file has none). Strict
  // mode first, as the ES modules it is built from had it (esbuild's own "use strict" comes after the banner).
  define: { "import.meta.url": "__importMetaUrl" },
  banner: {
    js: "\"use strict\";\nconst __importMetaUrl = require('node:url').pathToFileURL(__filename).href;\nconst __builtin = (m) => Object.create(m, { default: { value: m } });",
  },
  logLevel: "warning",
});
// A default import of a Node built-in becomes `__toESM(require("node:fs"), 1)`: a copy of the module's properties
// (about 100 for fs) into a new object, in every file that imports it, which slowed `memory list`. A
// built-in needs no interop: an object whose prototype is the module and whose `default` is the module serves both
// default and named imports. Each replacement is padded to the length of what it replaces, so the source map still
// points at the right places.
const mainFile = "dist/cli/main.js";
const builtin = (call, name) => `__builtin(require("${name}"))`.padEnd(call.length, " ");
writeFileSync(mainFile, readFileSync(mainFile, "utf8").replace(/__toESM\(require\("(node:[\w/]+)"\),\s*1\)/g, builtin));
writeFileSync("dist/cli/package.json", `${JSON.stringify({ type: "commonjs" })}\n`);
// Which sources went into which output file: tests map the files a process loaded back to our modules with it.
writeFileSync(
  "dist/cli/meta.json",
  JSON.stringify({ inputs: { ...app.metafile.inputs, ...quick.metafile.inputs }, outputs: { ...app.metafile.outputs, ...quick.metafile.outputs } }),
);
