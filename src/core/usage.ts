import { z } from "zod";

export const tokenUsageSchema = z.object({
  /** Every input token, cached ones included. */
  inputTokens: z.number().default(0),
  /** The part of inputTokens the endpoint served from its prompt cache (priced lower); 0 in older checkpoints. */
  cachedInputTokens: z.number().default(0),
  outputTokens: z.number().default(0),
  calls: z.number().default(0),
  /** Calls whose reply carried no usage data: their tokens are chars/4 estimates. */
  estimatedCalls: z.number().default(0),
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

/** Token usage keyed by `agent:model` (src/models/cost/usage.ts); sessions from before the model was recorded use `agent`. */
export const usageByKeySchema = z.record(z.string(), tokenUsageSchema);
export type UsageByKey = z.infer<typeof usageByKeySchema>;

export interface UsageLine extends TokenUsage {
  agent: string;
  model: string;
  /** null: no price is known for this model. */
  costUsd: number | null;
  priceSource: string | null;
}

/** Usage with its cost, for reports, `--json` and `sessions` (src/models/cost/usage.ts computes it). */
export interface UsageSummary {
  inputTokens: number;
  /** The part of inputTokens served from the endpoint's prompt cache. */
  cachedInputTokens: number;
  outputTokens: number;
  calls: number;
  estimatedCalls: number;
  /** null when any model that was used has no known price: a partial sum would look like the whole cost. */
  costUsd: number | null;
  /** What the priced models cost: a lower bound when costUsd is null. */
  knownCostUsd: number;
  /** Models used without a known price. */
  unpricedModels: string[];
  lines: UsageLine[];
}

/** The session's running totals after a model call. */
export interface UsageTotals {
  inputTokens: number;
  /** The part of inputTokens served from the endpoint's prompt cache; absent: none reported. */
  cachedInputTokens?: number;
  outputTokens: number;
  calls: number;
  /** null: a model in use has no known price. */
  costUsd: number | null;
  /** Some counts are chars/4 estimates (replies without usage data). */
  estimated: boolean;
}

/** The session's usage summed over agents and models, with what the priced calls cost: small enough for run state. */
export const usageBaseSchema = z.object({
  inputTokens: z.number().default(0),
  cachedInputTokens: z.number().default(0),
  outputTokens: z.number().default(0),
  calls: z.number().default(0),
  estimatedCalls: z.number().default(0),
  knownCostUsd: z.number().default(0),
  /** Some model in use has no known price: the cost is unknown. */
  unpriced: z.boolean().default(false),
});
export type UsageBase = z.infer<typeof usageBaseSchema>;
