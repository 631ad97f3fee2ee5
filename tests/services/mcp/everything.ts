import path from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerSettings } from "../../../src/platform/config/index.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
/** The MCP reference servers from node_modules, run by this Node. */
export const EVERYTHING = path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const FILESYSTEM = path.join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

export function stdioServer(name: string, args: string[], extra: Partial<McpServerSettings> = {}): McpServerSettings {
  return {
    name,
    source: "test",
    disabled: false,
    timeoutMs: 20_000,
    transport: "stdio",
    command: process.execPath,
    args,
    env: {},
    cwd: process.cwd(),
    ...extra,
  } as McpServerSettings;
}

/** Whether a process is alive (signal 0 checks without signalling). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
