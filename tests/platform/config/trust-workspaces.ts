import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import { resolveMcpConfig, updateTrustedMcpServers, type McpServerSettings } from "../../../src/platform/config/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";

/** Two workspaces and an environment whose user config lives in the first, fresh for each test of the calling file. */
export let ws: TempWorkspace;
export let other: TempWorkspace;
export let env: NodeJS.ProcessEnv;

/** Registers the set-up and clean-up in the calling test file (call it once, at its top level). */
export function useTrustWorkspaces(): void {
  beforeEach(async () => {
    ws = await makeTempWorkspace();
    other = await makeTempWorkspace();
    env = { XDG_CONFIG_HOME: path.join(ws.root, "xdg"), HOME: ws.root, TOKEN: "one" };
  });
  afterEach(async () => {
    await ws.cleanup();
    await other.cleanup();
  });
}

export async function declare(root: string, file: string, servers: Record<string, unknown>): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await fs.writeFile(path.join(root, file), JSON.stringify({ mcpServers: servers }));
}

export const marks = (root: string) => resolveMcpConfig(env, root).map((s: McpServerSettings) => [s.name, s.scope, s.trusted]);

/** Trusts every project server of `root` as declared now (what `mini-cursor mcp trust` does). */
export function trustAll(root: string): void {
  const servers = resolveMcpConfig(env, root).filter((s) => s.scope === "project");
  updateTrustedMcpServers(env, root, (current) => ({ ...current, ...Object.fromEntries(servers.map((s) => [s.name, s.declaration])) }));
}
