import { createHash } from "node:crypto";
import { matchesGlob } from "../../platform/glob.js";
import { EXTENSION_PREFIX } from "./types.js";

/** Providers accept function names of [a-zA-Z0-9_-], at most 64 characters. */
const MAX_NAME = 64;

function sanitize(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** `mcp__<server>__<tool>`, sanitized and cut to 64 characters. */
export function mcpToolName(server: string, tool: string): string {
  return `${EXTENSION_PREFIX}${sanitize(server)}__${sanitize(tool)}`.slice(0, MAX_NAME);
}

/**
 * A name for the server's tool `tool` that none of `taken` has: mcpToolName, or (when another tool of the server
 * already made the same safe name, say `dup.same` and `dup_same`) that name cut to leave room for `_` and six hex
 * characters of the tool's own name, so each keeps a stable name of its own.
 */
export function uniqueToolName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const plain = mcpToolName(server, tool);
  if (!taken.has(plain)) return plain;
  const digest = createHash("sha256").update(tool).digest("hex");
  for (let n = 0; ; n += 1) {
    const suffix = `_${digest.slice(n, n + 6)}`;
    const name = `${plain.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    if (!taken.has(name)) return name;
  }
}

/** A tool name against a name or a `*` glob (`mcp__github__*`), as custom agents list them. */
export function matchesToolPattern(name: string, pattern: string): boolean {
  return matchesGlob(pattern.trim(), name, "name");
}
