import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { ChatOpenAICompletions } from "@langchain/openai";
import { isLocalEndpoint } from "./cost/price-config.js";
import { describeModelFault, MalformedReplyError, ModelCallError, modelFaultOf, type ModelFault } from "./model-errors.js";

export interface CheckedCompletionsFields {
  model: string;
  apiKey: string;
  baseUrl: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  /** The endpoint as shown to the user. */
  endpoint: string;
  /** Send `prompt_cache_key` when a call gives one: "on", "off", or unset for all but endpoints on this machine. */
  promptCacheKey?: "on" | "off";
  /** Waits between our own retries (tests shorten them); default 2 s for a 429, 0.5 s for a malformed reply. */
  rateLimitDelayMs?: number;
  malformedDelayMs?: number;
}

/** Retries of a 429 the client gave up on at once (it has no Retry-After it trusts). */
const RATE_LIMIT_RETRIES = 3;
const MAX_WAIT_MS = 60_000;

/** Why a result is not a usable reply, or null when it is. */
function malformed(result: ChatResult): string | null {
  const first = result.generations[0];
  if (!first) return "choices: [] (no answer)";
  const message = first.message;
  const empty =
    (typeof message.content === "string" ? message.content === "" : message.content.length === 0) &&
    !(AIMessage.isInstance(message) && ((message.tool_calls?.length ?? 0) > 0 || (message.invalid_tool_calls?.length ?? 0) > 0));
  if (empty && first.generationInfo?.["finish_reason"] === undefined) return "a choice without a message";
  return null;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The chat-completions client with the failures LangChain's own caller leaves alone handled like transport errors:
 * a malformed 200 answer (`choices: []`, a choice without a message) is retried as often as a 5xx would be
 * (`maxRetries`), and a 429 without a usable Retry-After is retried after a growing wait. What still fails becomes a
 * {@link ModelCallError} whose message is one line naming the endpoint, what it did and what to do. An abort (Ctrl-C)
 * passes through untouched.
 */
export class CheckedChatCompletions extends ChatOpenAICompletions {
  private readonly endpoint: string;
  private readonly perAttemptMs: number;
  private readonly retries: number;
  private readonly rateLimitDelayMs: number;
  private readonly malformedDelayMs: number;

  constructor(f: CheckedCompletionsFields) {
    super({
      model: f.model,
      apiKey: f.apiKey,
      temperature: 0,
      timeout: f.timeoutMs,
      maxRetries: f.maxRetries,
      configuration: f.baseUrl ? { baseURL: f.baseUrl } : {},
    });
    this.endpoint = f.endpoint;
    this.perAttemptMs = f.timeoutMs;
    this.retries = f.maxRetries;
    this.rateLimitDelayMs = f.rateLimitDelayMs ?? 2_000;
    this.malformedDelayMs = f.malformedDelayMs ?? 500;
    this.sendsCacheKey = f.promptCacheKey === "on" || (f.promptCacheKey === undefined && !isLocalEndpoint(f.baseUrl));
  }

  /**
   * Whether `prompt_cache_key` goes out: not once the endpoint answered 400 naming it, and by default not to an endpoint
   * on this machine (vLLM and llama.cpp cache prefixes without it; vLLM logs the unknown field at every request).
   */
  private sendsCacheKey: boolean;

  override async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    for (let ours = 1; ; ours++) {
      try {
        const sent = !this.sendsCacheKey && options.promptCacheKey !== undefined ? { ...options, promptCacheKey: undefined } : options;
        const result = await super._generate(messages, sent, runManager);
        const problem = malformed(result);
        if (problem) throw new MalformedReplyError(problem);
        return result;
      } catch (error) {
        if (options.signal?.aborted && signalReason(options.signal) !== "TimeoutError") throw error;
        const fault = options.signal?.aborted ? { kind: "aborted" as const, status: null, said: "" } : modelFaultOf(error);
        // OpenAI's prompt cache key is only a routing hint: an endpoint that does not know it is asked again without it.
        if (fault.kind === "rejected" && options.promptCacheKey !== undefined && this.sendsCacheKey && /prompt_cache_key/.test(fault.said)) {
          this.sendsCacheKey = false;
          ours -= 1; // not one of our retries
          continue;
        }
        const wait = this.retryWait(fault, error, ours);
        if (wait === null) throw this.finalError(fault, error, ours);
        await sleep(wait, options.signal);
      }
    }
  }

  /** How long to wait before trying again (our attempt `ours` just failed), or null to give up. */
  private retryWait(fault: ModelFault, error: unknown, ours: number): number | null {
    if (fault.kind === "malformed_reply") return ours <= this.retries ? this.malformedDelayMs * 2 ** (ours - 1) : null;
    if (fault.kind !== "rate_limit" || ours > RATE_LIMIT_RETRIES) return null;
    // A Retry-After the client trusted was already waited for and retried by the client itself.
    if ((error as { rateLimitType?: unknown }).rateLimitType === "wait") return null;
    const hinted = (error as { retryAfterMs?: unknown }).retryAfterMs;
    return typeof hinted === "number" && hinted <= MAX_WAIT_MS ? hinted : this.rateLimitDelayMs * 2 ** (ours - 1);
  }

  private finalError(fault: ModelFault, error: unknown, ours: number): ModelCallError {
    // Transport failures (and a 429 with a Retry-After the client trusted) were already tried maxRetries + 1 times by
    // LangChain's caller; ours are counted here.
    const clientWaited = (error as { rateLimitType?: unknown }).rateLimitType === "wait";
    const ownRetries = fault.kind === "malformed_reply" || (fault.kind === "rate_limit" && !clientWaited);
    const attempts = ownRetries ? ours : this.retries + 1;
    const line = describeModelFault(fault, { endpoint: this.endpoint, model: this.model, attempts, timeoutMs: this.perAttemptMs });
    return new ModelCallError(fault, attempts, line, { cause: error });
  }
}

function signalReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error || reason instanceof DOMException ? reason.name : "";
}
