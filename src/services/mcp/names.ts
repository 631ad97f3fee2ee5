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

/** A tool name against a name or a `*` glob (`mcp__github__*`), as custom agents list them. */
export function matchesToolPattern(name: string, pattern: string): boolean {
  return matchesGlob(pattern.trim(), name, "name");
}
