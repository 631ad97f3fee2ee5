/** The command line of a local Chroma server process, and how to recognise one. */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ChromaUnavailableError } from "./types.js";

/**
 * How the server process is started: `node -e <SERVER_SOURCE> <binding> run ...`, which calls the platform's Rust
 * binding of `chromadb` directly. The package's own CLI (dist/cli.mjs) does the same after importing the whole
 * JavaScript client and semver, which cost each start ~50 ms of CPU and wall time on the cores the session needs.
 * The marker names these processes in `ps` and lets isChromaServerCommand tell them from a reused pid.
 */
const SERVER_MARKER = "mini-cursor-chroma-server";
const SERVER_SOURCE = `/* ${SERVER_MARKER} */ const [binding, ...args] = process.argv.slice(1); require(binding).cli(["chroma", ...args]);`;

/** chromadb's binding package for this platform, as its CLI picks it (dist/cli.mjs); null where it has none. */
const BINDINGS: Record<string, string> = {
  "darwin-arm64": "chromadb-js-bindings-darwin-arm64",
  "darwin-x64": "chromadb-js-bindings-darwin-x64",
  "linux-arm64": "chromadb-js-bindings-linux-arm64-gnu",
  "linux-x64": "chromadb-js-bindings-linux-x64-gnu",
  "win32-arm64": "chromadb-js-bindings-win32-arm64-msvc",
};

/** The node arguments that run a Chroma server: the binding directly, or chromadb's CLI where it cannot be found. */
export function chromaServerArgs(): string[] {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve("chromadb");
  } catch {
    throw new ChromaUnavailableError("the chromadb package is not installed; reinstall mini-cursor's dependencies");
  }
  const binding = BINDINGS[`${process.platform}-${process.arch}`];
  if (binding) {
    try {
      // Resolved from chromadb's own folder: the binding is its dependency, wherever npm put it.
      return ["-e", SERVER_SOURCE, createRequire(entry).resolve(binding)];
    } catch {
      // Not installed next to chromadb: its CLI says what is missing.
    }
  }
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    // chromadb's `exports` hide package.json, so walk up from the main entry to its root.
    const cli = path.join(dir, "dist", "cli.mjs");
    if (isChromadbRoot(dir) && fs.existsSync(cli)) return [cli];
  }
  throw new ChromaUnavailableError(`cannot find the chromadb CLI near ${entry}; reinstall mini-cursor's dependencies`);
}

/** Whether a process command line (NUL-separated, from /proc) is a Chroma server that mini-cursor starts. */
export function isChromaServerCommand(cmdline: string): boolean {
  return cmdline.includes(SERVER_MARKER) || cmdline.includes("cli.mjs");
}

function isChromadbRoot(dir: string): boolean {
  try {
    const pkg: unknown = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    return typeof pkg === "object" && pkg !== null && (pkg as { name?: unknown }).name === "chromadb";
  } catch {
    return false;
  }
}
