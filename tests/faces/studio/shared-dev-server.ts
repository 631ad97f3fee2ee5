import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startDevServer } from "./dev-server.js";

/**
 * Global setup of the e2e-studio project: one `langgraph dev` (memory off, its own config home) for all its files,
 * each running its tasks on threads of their own in workspaces of their own (sharedDevServer() in dev-server.ts).
 * Stopped after the last file, also when one fails.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const configHome = await mkdtemp(path.join(os.tmpdir(), "mc-studio-config-"));
  const logFile = path.join(configHome, "langgraph-dev.log");
  try {
    const server = await startDevServer({
      repoRoot: project.config.root,
      readyTimeoutMs: 75_000,
      env: { MINI_CURSOR_MEMORY: "off", XDG_CONFIG_HOME: configHome },
      logFile,
    });
    project.provide("studioServer", { url: server.url, configHome, logFile });
    return async () => {
      await server.stop();
      await rm(configHome, { recursive: true, force: true });
    };
  } catch (error) {
    await rm(configHome, { recursive: true, force: true });
    throw error;
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    studioServer: { url: string; configHome: string; logFile: string };
  }
}
