import { AIMessage, type BaseMessage, type HumanMessage, ToolMessage } from "@langchain/core/messages";
import { groupTurns, summaryOf } from "./context-summary.js";
import { replyWith } from "../run.js";

/**
 * How far a run's prompt is compacted. It changes only at a compaction, so every request between two compactions
 * repeats the previous request and appends to it: a provider's prompt cache (OpenAI, vLLM, llama.cpp reuse the
 * longest identical prefix) serves all of it but the new turn.
 */
export interface Compaction {
  /** Tool results, counted oldest first, replaced by a placeholder. */
  clearedResults: number;
  /** Of those, how many (oldest first) have their call's arguments cleared too. */
  clearedInputs: number;
  /** The oldest turns (a model reply with its results), folded into one summary message. */
  folded: number;
}

export const NO_COMPACTION: Compaction = { clearedResults: 0, clearedInputs: 0, folded: 0 };

const PLACEHOLDER = "[older tool output cleared to keep the prompt within budget; call the tool again if you still need it]";
/** A compaction goes down to this share of the budget, so the next many requests only append. */
export const LOW_WATER = 0.5;

/**
 * A run's transcript (its large arguments already elided) laid out for compaction: the head (system prompt, brief,
 * project context: everything before the first model reply) and the turns after it. A request was made before each
 * turn, with the head and the turns before it; the request being made now has them all.
 */
class Layout {
  readonly head: BaseMessage[];
  readonly turns: BaseMessage[][];
  /** The tool result's ordinal, oldest first, for every tool result. */
  readonly ordinal = new Map<BaseMessage, number>();
  /** A call's result ordinal, by call id. */
  readonly ordinalOfCall = new Map<string, number>();
  /** Turn of each result ordinal. */
  readonly resultTurn: number[] = [];
  /** The model reply that made each result's call, with its turn. */
  readonly callOf: ({ message: AIMessage; turn: number } | undefined)[] = [];
  /** Results in the turns before turn k (k = 0 … turns.length). */
  readonly resultsBefore: number[] = [0];
  private readonly summaries = new Map<number, HumanMessage>();

  /** `charsOf` counts a message as the budget does (context-budget.ts). */
  constructor(
    messages: readonly BaseMessage[],
    readonly charsOf: (m: BaseMessage) => number,
  ) {
    const first = messages.findIndex((m) => AIMessage.isInstance(m));
    const headLength = first < 0 ? messages.length : first;
    this.head = messages.slice(0, headLength);
    this.turns = groupTurns(messages.slice(headLength));
    const replyOfCall = new Map<string, { message: AIMessage; turn: number }>();
    this.turns.forEach((turn, t) => {
      for (const m of turn) {
        if (AIMessage.isInstance(m)) for (const call of m.tool_calls ?? []) if (call.id) replyOfCall.set(call.id, { message: m, turn: t });
        if (!ToolMessage.isInstance(m)) continue;
        const r = this.resultTurn.length;
        this.ordinal.set(m, r);
        this.resultTurn.push(t);
        this.callOf.push(replyOfCall.get(m.tool_call_id));
        if (!this.ordinalOfCall.has(m.tool_call_id)) this.ordinalOfCall.set(m.tool_call_id, r);
      }
      this.resultsBefore.push(this.resultTurn.length);
    });
  }

  /** The summary of the first `folded` turns (the turns as elided, not as cleared: it keeps exit codes and errors). */
  summary(folded: number): HumanMessage {
    let summary = this.summaries.get(folded);
    if (!summary) {
      summary = summaryOf(this.turns.slice(0, folded));
      this.summaries.set(folded, summary);
    }
    return summary;
  }

  summaryChars(folded: number): number {
    return folded > 0 ? this.charsOf(this.summary(folded)) : 0;
  }

  /** A message as the prompt shows it under compaction `c`. */
  render(m: BaseMessage, c: Compaction): BaseMessage {
    if (ToolMessage.isInstance(m)) return (this.ordinal.get(m) ?? Infinity) < c.clearedResults ? clearedResult(m) : m;
    if (!AIMessage.isInstance(m) || c.clearedInputs === 0) return m;
    const cleared = (m.tool_calls ?? []).filter((call) => (this.ordinalOfCall.get(call.id ?? "") ?? Infinity) < c.clearedInputs).map((call) => call.id ?? "");
    return cleared.length > 0 ? clearedInputs(m, cleared) : m;
  }

  turnChars(t: number, c: Compaction): number {
    let chars = 0;
    for (const m of this.turns[t] ?? []) chars += this.charsOf(this.render(m, c));
    return chars;
  }

  /** Every result of turn t is cleared (a turn without results counts as cleared). */
  turnCleared(t: number, c: Compaction): boolean {
    return (this.resultsBefore[t + 1] ?? 0) <= c.clearedResults;
  }
}

const tokensOf = (chars: number): number => Math.ceil(chars / 4);

/**
 * The compaction of the request made after `k` turns, from the one before (`c`, whose prompt is `chars` long), made
 * when that prompt would pass the limit: older results are cleared, oldest first, then the arguments of the cleared
 * calls, then the cleared turns are folded into the summary, until the prompt is down to the low-water mark. The
 * newest turn (the results the model is about to read) is never touched.
 */
function compact(layout: Layout, k: number, c: Compaction, chars: number, limit: number): { compaction: Compaction; chars: number } {
  const low = Math.floor(limit * LOW_WATER);
  const next = { ...c };
  const clearable = layout.resultsBefore[k - 1] ?? 0;
  while (tokensOf(chars) > low && next.clearedResults < clearable) {
    const r = next.clearedResults;
    const turn = layout.resultTurn[r] ?? 0;
    const result = layout.turns[turn]?.find((m) => layout.ordinal.get(m) === r);
    next.clearedResults += 1;
    if (result && turn >= next.folded) chars += layout.charsOf(clearedResult(result as ToolMessage)) - layout.charsOf(result);
  }
  while (tokensOf(chars) > low && next.clearedInputs < next.clearedResults) {
    const call = layout.callOf[next.clearedInputs];
    const before = call && call.turn >= next.folded ? layout.charsOf(layout.render(call.message, next)) : 0;
    next.clearedInputs += 1;
    if (call && call.turn >= next.folded) chars += layout.charsOf(layout.render(call.message, next)) - before;
  }
  while (tokensOf(chars) > low && next.folded < k - 1 && layout.turnCleared(next.folded, next)) {
    chars -= layout.turnChars(next.folded, next) + layout.summaryChars(next.folded);
    next.folded += 1;
    chars += layout.summaryChars(next.folded);
  }
  return { compaction: next, chars };
}

export interface CompactedPrompt {
  messages: BaseMessage[];
  compaction: Compaction;
}

/**
 * The prompt for a run's next request, kept under `limit` tokens (the tool definitions already taken off) in a way a
 * prompt cache can follow: the compaction is replayed over the requests the run has made (one before each turn),
 * growing only when a request would pass the limit. It is derived from the transcript alone, so it needs no state of
 * its own: a resumed run, or another process, makes the same prompts. LangChain's ClearToolUsesEdit decides from the
 * current size alone, so once over its trigger it cleared one more result at every call, changing the prompt near
 * its start each time (43% of a request repeated the one before; issue 46).
 */
export function compactPrompt(messages: readonly BaseMessage[], limit: number, charsOf: (m: BaseMessage) => number): CompactedPrompt {
  const layout = new Layout(messages, charsOf);
  let c = NO_COMPACTION;
  let chars = 0;
  for (const m of layout.head) chars += charsOf(m);
  for (let k = 0; k <= layout.turns.length; k++) {
    // The newest turn of a request was never compacted before: compactions only touch the turns before theirs.
    if (k > 0) chars += layout.turnChars(k - 1, c);
    if (tokensOf(chars) > limit) ({ compaction: c, chars } = compact(layout, k, c, chars, limit));
  }
  if (c === NO_COMPACTION) return { messages: [...messages], compaction: c };
  const rest = layout.turns.slice(c.folded).flat();
  return {
    messages: [...layout.head, ...(c.folded > 0 ? [layout.summary(c.folded)] : []), ...rest.map((m) => layout.render(m, c))],
    compaction: c,
  };
}

const clearedResults = new WeakMap<ToolMessage, ToolMessage>();

/** The placeholder for a result, made once per result so it is measured once. */
function clearedResult(m: ToolMessage): ToolMessage {
  let cleared = clearedResults.get(m);
  if (!cleared) {
    cleared = new ToolMessage({
      tool_call_id: m.tool_call_id,
      name: m.name,
      content: PLACEHOLDER,
      status: m.status,
      response_metadata: { ...m.response_metadata, context_editing: { cleared: true, strategy: "clear_tool_uses" } },
    });
    clearedResults.set(m, cleared);
  }
  return cleared;
}

const clearedCalls = new WeakMap<AIMessage, Map<string, AIMessage>>();

/** A reply with the arguments of some of its calls cleared (`{}`), made once per reply and set of calls. */
function clearedInputs(m: AIMessage, ids: string[]): AIMessage {
  const key = ids.join("\n");
  let byIds = clearedCalls.get(m);
  if (!byIds) {
    byIds = new Map();
    clearedCalls.set(m, byIds);
  }
  let cleared = byIds.get(key);
  if (!cleared) {
    const set = new Set(ids);
    cleared = replyWith(m, {
      tool_calls: (m.tool_calls ?? []).map((call) => (set.has(call.id ?? "") ? { ...call, args: {} } : call)),
      response_metadata: { ...m.response_metadata, context_editing: { cleared_tool_inputs: ids } },
    });
    byIds.set(key, cleared);
  }
  return cleared;
}
