import { z } from "zod";
import { DEFAULT_LIMITS, limitsSchema, safetyPolicySchema, type Limits, type SafetyPolicy } from "../core/index.js";
import { budgetSchema, type Budget } from "../models/cost/budget.js";

export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;

/** What a session row stores (`options`), so a later run (any face) continues with the same settings. */
export const storedOptionsSchema = z.object({
  limits: limitsSchema.default(DEFAULT_LIMITS),
  commandTimeoutMs: z.number().default(DEFAULT_COMMAND_TIMEOUT_MS),
  budget: budgetSchema.default({}),
  /** Absent in sessions stored before `resume` could change it: the session's state has it. */
  safety: safetyPolicySchema.optional(),
  /** A model or endpoint chosen with `resume --model/--base-url`, kept for later resumes. */
  model: z.string().optional(),
  baseUrl: z.string().optional(),
});
export type StoredOptions = z.infer<typeof storedOptionsSchema>;

/** A session row's `options` column as settings. */
export function readStoredOptions(raw: string): StoredOptions {
  return storedOptionsSchema.parse(JSON.parse(raw));
}

export interface StoredRunOptions {
  limits: Limits;
  commandTimeoutMs: number;
  budget: Budget;
  safety?: SafetyPolicy;
  model?: string;
  baseUrl?: string;
}
