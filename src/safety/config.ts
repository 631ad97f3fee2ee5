import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { approvalModeSchema } from "./policy.js";
import { ConfigError, readConfigFile } from "../runtime/config-file.js";

/**
 * Safety settings from config files: the user's (`$XDG_CONFIG_HOME/mini-cursor/config.json`, default
 * `~/.config/mini-cursor/config.json`) and the project's (`<workspace>/mini-cursor.json`, can be committed).
 * The project file adds rules to the user's; for single values it wins.
 */
export const safetyConfigSchema = z
  .object({
    approval: approvalModeSchema.optional(),
    approveFileChanges: z.boolean().optional(),
    network: z.boolean().optional(),
    commands: z
      .object({
        allow: z.array(z.string()).default(() => []),
        deny: z.array(z.string()).default(() => []),
      })
      .strict()
      .default(() => ({ allow: [], deny: [] })),
    /** Model prices share these files; src/cost/price-config.ts reads and checks them. */
    prices: z.unknown().optional(),
  })
  .strict();
export type SafetyConfig = z.infer<typeof safetyConfigSchema>;

export { ConfigError };

export function userConfigPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || os.homedir(), ".config");
  return path.join(base, "mini-cursor", "config.json");
}

export function projectConfigPath(workspace: string): string {
  return path.join(workspace, "mini-cursor.json");
}

function readConfig(file: string): SafetyConfig | null {
  return readConfigFile(file, safetyConfigSchema);
}

export function loadSafetyConfig(workspace: string, env: NodeJS.ProcessEnv): SafetyConfig {
  const user = readConfig(userConfigPath(env));
  const project = readConfig(projectConfigPath(workspace));
  return {
    approval: project?.approval ?? user?.approval,
    approveFileChanges: project?.approveFileChanges ?? user?.approveFileChanges,
    network: project?.network ?? user?.network,
    commands: {
      allow: [...(user?.commands.allow ?? []), ...(project?.commands.allow ?? [])],
      deny: [...(user?.commands.deny ?? []), ...(project?.commands.deny ?? [])],
    },
  };
}
