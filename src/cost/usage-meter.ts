import type { UsageByKey, ModelCallEvent, UsageTotals } from "../core/index.js";
import type { PriceTable } from "./prices.js";
import { addUsage, summarizeUsage, usageKey } from "./usage.js";

/**
 * Running totals for the `model_call` events of one graph node: seeded with the session's usage so far, it adds
 * each call and stamps the event with the model name and the session's totals. The state, not this meter, is the
 * record: the node still returns its usage as a state update.
 */
export class UsageMeter {
  private usage: UsageByKey;
  /** Calls this node saw without provider usage data. */
  estimatedCalls = 0;

  constructor(
    base: UsageByKey,
    private readonly prices: PriceTable,
  ) {
    this.usage = base;
  }

  record(event: ModelCallEvent, model: string): ModelCallEvent {
    const named = event.model || model;
    const estimated = event.estimated ?? false;
    if (estimated) this.estimatedCalls += 1;
    this.usage = addUsage(this.usage, {
      [usageKey(event.agent, named)]: { inputTokens: event.inputTokens, outputTokens: event.outputTokens, calls: 1, estimatedCalls: estimated ? 1 : 0 },
    });
    return { ...event, model: named, estimated, total: this.totals() };
  }

  totals(): UsageTotals {
    const s = summarizeUsage(this.usage, this.prices);
    return { inputTokens: s.inputTokens, outputTokens: s.outputTokens, calls: s.calls, costUsd: s.costUsd, estimated: s.estimatedCalls > 0 };
  }
}
