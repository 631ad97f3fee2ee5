import { z } from "zod";
import { ConfigError } from "../config-file.js";
import { envValue } from "./env.js";

/**
 * The `diagnostics` key of a config file (problems reported after write_file and edit_file) and its resolver. Like
 * web-settings.ts it takes the file layers structurally, so it does not import sources.ts (no cycle through the schema).
 */

export const DEFAULT_DIAGNOSTICS_TIMEOUT_MS = 15_000;
export const DEFAULT_DIAGNOSTICS_MAX_PROBLEMS = 20;

const DIAGNOSTICS_KEYS = ["enabled", "timeoutMs", "maxProblems", "typescript", "eslint", "commands"] as const;
const COMMAND_KEYS = ["command", "extensions"] as const;

function unknownKeys(known: readonly string[]) {
  return {
    error: (issue: { code?: string; keys?: string[] }) =>
      issue.code === "unrecognized_keys" ? `unknown key ${(issue.keys ?? []).map((k) => `"${k}"`).join(", ")} (known keys: ${known.join(", ")})` : undefined,
  };
}

const diagnosticsCommandSchema = z.strictObject(
  {
    /** Run with `bash -c` in the read-only sandbox; `{file}` is the changed file (`.` for the whole project). */
    command: z
      .string()
      .min(1)
      .refine((c) => c.includes("{file}"), 'must contain "{file}" (the changed file goes there)'),
    /** Only for files ending in one of these (e.g. [".py"]); absent: every changed file. */
    extensions: z.array(z.string().regex(/^\.[A-Za-z0-9.]+$/, 'must be a file ending such as ".py"')).optional(),
  },
  unknownKeys(COMMAND_KEYS),
);

export const diagnosticsConfigSchema = z.strictObject(
  {
    /** false: no diagnostics after edits and no project_diagnostics results. */
    enabled: z.boolean().optional(),
    /** How long one edit's checks may take; past it the result says so and the edit stands. */
    timeoutMs: z.number().int().min(500).max(300_000).optional(),
    /** Problems listed in one tool result; the rest are counted. */
    maxProblems: z.number().int().min(1).max(500).optional(),
    /** The project's own TypeScript (a language service kept warm for the session). */
    typescript: z.boolean().optional(),
    /** The project's ESLint, when it has a config and eslint installed. */
    eslint: z.boolean().optional(),
    commands: z.array(diagnosticsCommandSchema).optional(),
  },
  unknownKeys(DIAGNOSTICS_KEYS),
);
export type DiagnosticsConfigFile = z.infer<typeof diagnosticsConfigSchema>;

export interface DiagnosticsCommand {
  command: string;
  extensions?: string[];
}

export interface DiagnosticsSettings {
  enabled: boolean;
  timeoutMs: number;
  maxProblems: number;
  typescript: boolean;
  eslint: boolean;
  /** The user's commands, then the project's. */
  commands: DiagnosticsCommand[];
}

export const DIAGNOSTICS_DEFAULTS: DiagnosticsSettings = {
  enabled: true,
  timeoutMs: DEFAULT_DIAGNOSTICS_TIMEOUT_MS,
  maxProblems: DEFAULT_DIAGNOSTICS_MAX_PROBLEMS,
  typescript: true,
  eslint: true,
  commands: [],
};

interface DiagnosticsLayer {
  path: string;
  contents: { diagnostics?: DiagnosticsConfigFile } | null;
}

/**
 * Scalar keys from the project file, else the user file, else defaults; `MINI_CURSOR_DIAGNOSTICS=off` (or `on`) beats
 * both for `enabled`. Commands add up (user, then project). Throws ConfigError for a bad variable value.
 */
export function resolveDiagnosticsConfig(files: { user: DiagnosticsLayer; project?: DiagnosticsLayer }, env: NodeJS.ProcessEnv): DiagnosticsSettings {
  const layers = [files.project, files.user].flatMap((l) => (l?.contents?.diagnostics ? [l.contents.diagnostics] : []));
  const first = <K extends "enabled" | "timeoutMs" | "maxProblems" | "typescript" | "eslint">(key: K) => layers.find((l) => l[key] !== undefined)?.[key];
  const fromEnv = envValue(env, "MINI_CURSOR_DIAGNOSTICS");
  if (fromEnv !== undefined && fromEnv !== "on" && fromEnv !== "off") {
    throw new ConfigError(`MINI_CURSOR_DIAGNOSTICS must be on or off, got "${fromEnv}"`);
  }
  return {
    enabled: fromEnv !== undefined ? fromEnv === "on" : (first("enabled") ?? DIAGNOSTICS_DEFAULTS.enabled),
    timeoutMs: first("timeoutMs") ?? DIAGNOSTICS_DEFAULTS.timeoutMs,
    maxProblems: first("maxProblems") ?? DIAGNOSTICS_DEFAULTS.maxProblems,
    typescript: first("typescript") ?? DIAGNOSTICS_DEFAULTS.typescript,
    eslint: first("eslint") ?? DIAGNOSTICS_DEFAULTS.eslint,
    commands: [...layers].reverse().flatMap((l) => l.commands ?? []),
  };
}
