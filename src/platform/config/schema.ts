import { z } from "zod";

/**
 * The one shape of a config file: the workspace's `mini-cursor.json` (can be committed) and the user's
 * `$XDG_CONFIG_HOME/mini-cursor/config.json` (default `~/.config/mini-cursor/config.json`). Unknown keys are errors,
 * so a typo is reported instead of silently ignored.
 */

import { APPROVAL_MODES, approvalModeSchema, type ApprovalMode } from "../../core/index.js";
import { webConfigSchema } from "./web-settings.js";
import { mcpServersSchema } from "./mcp-schema.js";
import { diagnosticsConfigSchema } from "./diagnostics-settings.js";

export { APPROVAL_MODES, approvalModeSchema, type ApprovalMode };

/** What one model costs, in USD per 1M tokens. */
export const modelPriceSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  /** Input tokens the endpoint served from its prompt cache; absent: priced as `input`. */
  cachedInput: z.number().nonnegative().optional(),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

/** Model name or glob (`*` is anything, case-insensitive) → price. */
export const priceMapSchema = z.record(z.string().min(1), modelPriceSchema);
export type PriceMap = z.infer<typeof priceMapSchema>;

/** Says which key is unknown and which are known, instead of zod's bare "Unrecognized key". */
function unknownKeys(known: readonly string[]) {
  return {
    error: (issue: { code?: string; keys?: string[] }) =>
      issue.code === "unrecognized_keys" ? `unknown key ${(issue.keys ?? []).map((k) => `"${k}"`).join(", ")} (known keys: ${known.join(", ")})` : undefined,
  };
}

const COMMAND_RULE_KEYS = ["allow", "deny"] as const;
export const CONFIG_FILE_KEYS = ["approval", "approveFileChanges", "network", "commands", "prices", "web", "mcpServers", "database", "diagnostics"] as const;

export const configFileSchema = z.strictObject(
  {
    /** Approval mode: ask, auto or read-only. */
    approval: approvalModeSchema.optional(),
    /** In ask mode, also ask before each file change. */
    approveFileChanges: z.boolean().optional(),
    /** Sandboxed commands may use the network. */
    network: z.boolean().optional(),
    /** Command patterns (globs or /regex/flags): allowed without asking, or never run. */
    commands: z
      .strictObject(
        {
          allow: z.array(z.string()).optional(),
          deny: z.array(z.string()).optional(),
        },
        unknownKeys(COMMAND_RULE_KEYS),
      )
      .optional(),
    /** Model prices (USD per 1M tokens). */
    prices: priceMapSchema.optional(),
    /** fetch_url and web_search: on/off, hosts, limits, the search provider (src/platform/config/web-settings.ts). */
    web: webConfigSchema.optional(),
    /** MCP servers (src/platform/config/mcp-settings.ts). */
    mcpServers: mcpServersSchema.optional(),
    /** Where sessions live: a postgres:// URL (src/platform/config/database-settings.ts); MINI_CURSOR_DATABASE_URL wins. */
    database: z.string().min(1).optional(),
    /** Problems reported after write_file and edit_file (src/platform/config/diagnostics-settings.ts). */
    diagnostics: diagnosticsConfigSchema.optional(),
  },
  unknownKeys(CONFIG_FILE_KEYS),
);
export type ConfigFile = z.infer<typeof configFileSchema>;
