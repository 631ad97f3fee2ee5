import type { BaseMessage } from "@langchain/core/messages";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { convertMessagesToCompletionsMessageParams } from "@langchain/openai";

/**
 * How much of each model request a provider's prefix cache could reuse (issue 46). OpenAI's automatic prompt
 * caching, vLLM's prefix caching and llama.cpp's `cache_prompt` all reuse the longest byte-identical beginning of an
 * earlier request, so each request is serialized as a chat-completions request carries it (the tool definitions in
 * the bound order, then the messages) and compared character by character with the one before it.
 */

/** One part of a serialized request, to say where two requests first differ. */
export interface RequestPart {
  label: string;
  /** Offset just past the part in the serialized text. */
  end: number;
}

export interface SerializedRequest {
  text: string;
  parts: RequestPart[];
}

/** What a chat model's bindTools takes: a LangChain tool or a tool definition. */
export type BindableTool = Parameters<typeof convertToOpenAITool>[0];

/**
 * `{"tools":[…],"messages":[…]}` as one JSON string, built piece by piece (the same text as JSON.stringify of the
 * whole) so that every tool list and message keeps its offsets.
 */
export function serializeRequest(tools: readonly BindableTool[], messages: BaseMessage[]): SerializedRequest {
  const pieces = [
    { label: "tool definitions", items: tools.map((t) => JSON.stringify(convertToOpenAITool(t))) },
    ...convertMessagesToCompletionsMessageParams({ messages }).map((m, i) => ({ label: `message ${i} (${m.role})`, items: [JSON.stringify(m)] })),
  ];
  return joinParts(pieces);
}

/** Joins serialized pieces the way JSON.stringify({ tools, messages }) would, recording where each piece ends. */
export function joinParts(pieces: readonly { label: string; items: readonly string[] }[]): SerializedRequest {
  const [toolPiece, ...messagePieces] = pieces;
  let text = `{"tools":[${toolPiece?.items.join(",") ?? ""}]`;
  const parts: RequestPart[] = [{ label: toolPiece?.label ?? "tool definitions", end: text.length }];
  text += `,"messages":[`;
  messagePieces.forEach((piece, i) => {
    text += `${i > 0 ? "," : ""}${piece.items.join(",")}`;
    parts.push({ label: piece.label, end: text.length });
  });
  return { text: `${text}]}`, parts };
}

/** The number of leading characters two strings have in common. */
export function commonPrefixLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The part of a request in which the character at `offset` falls (the first difference from the previous request). */
export function partAt(parts: readonly RequestPart[], offset: number): string {
  return parts.find((p) => offset < p.end)?.label ?? "the request's closing brackets";
}

export interface RequestInput {
  /** The sub-agent run (or the planner) the request belongs to: requests are compared only within one group. */
  group: string;
  request: SerializedRequest;
}

export interface RequestShare {
  group: string;
  chars: number;
  /** Characters equal to the previous request of the group; null for the group's first request. */
  prefix: number | null;
  /** Where the request first differs from the previous one (null for a first request). */
  divergesIn: string | null;
  /** Whether the request only appends to the previous one (its whole text before the closing `]}` is repeated). */
  appendOnly: boolean;
}

/** Each request compared with the previous request of its own group. */
export function compareRequests(requests: readonly RequestInput[]): RequestShare[] {
  const previous = new Map<string, string>();
  return requests.map(({ group, request }) => {
    const before = previous.get(group);
    previous.set(group, request.text);
    if (before === undefined) return { group, chars: request.text.length, prefix: null, divergesIn: null, appendOnly: false };
    const prefix = commonPrefixLength(before, request.text);
    // The previous text ends in `]}`; a request that only appends differs from there on.
    const appendOnly = prefix >= before.length - 2;
    return { group, chars: request.text.length, prefix, divergesIn: appendOnly ? "nothing (append only)" : partAt(request.parts, prefix), appendOnly };
  });
}

export interface ShareSummary {
  compared: number;
  /** Mean of the per-request shares (prefix / request length). */
  mean: number;
  /** Sum of shared prefixes over sum of request lengths. */
  weighted: number;
  min: number;
  max: number;
}

export function shareOf(r: RequestShare): number | null {
  return r.prefix === null || r.chars === 0 ? null : r.prefix / r.chars;
}

/** Over the compared requests only: a group's first request has no previous one and is left out. */
export function summarizeShares(shares: readonly RequestShare[]): ShareSummary {
  const compared = shares.filter((s): s is RequestShare & { prefix: number } => s.prefix !== null && s.chars > 0);
  const values = compared.map((s) => s.prefix / s.chars);
  const chars = compared.reduce((total, s) => total + s.chars, 0);
  const prefix = compared.reduce((total, s) => total + s.prefix, 0);
  return {
    compared: compared.length,
    mean: values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : Number.NaN,
    weighted: chars > 0 ? prefix / chars : Number.NaN,
    min: values.length > 0 ? Math.min(...values) : Number.NaN,
    max: values.length > 0 ? Math.max(...values) : Number.NaN,
  };
}

/** Estimated input tokens: characters / 4, as LangChain's countTokensApproximately counts them. */
export const CHARS_PER_TOKEN = 4;
/** OpenAI's published rule: prompts of 1,024 tokens or more are cached, the hit grows in steps of 128 tokens. */
export const MIN_CACHED_TOKENS = 1_024;
export const CACHE_INCREMENT = 128;

/**
 * The input tokens a provider following OpenAI's rule bills as cached: the shared prefix rounded down to a multiple
 * of 128 tokens, and nothing unless that is at least 1,024 tokens (which needs a request of at least 1,024 tokens).
 */
export function cachedTokens(requestTokens: number, prefixTokens: number): number {
  if (requestTokens < MIN_CACHED_TOKENS) return 0;
  const cached = Math.floor(Math.min(prefixTokens, requestTokens) / CACHE_INCREMENT) * CACHE_INCREMENT;
  return cached >= MIN_CACHED_TOKENS ? cached : 0;
}

export interface InputPrices {
  /** US dollars per million input tokens. */
  input: number;
  /** US dollars per million cached input tokens. */
  cachedInput: number;
}

export interface InputCost {
  tokens: number;
  cachedTokens: number;
  withoutCache: number;
  withCache: number;
}

/** The scenario's input cost, every request counted (a group's first request pays full price). */
export function inputCost(shares: readonly RequestShare[], prices: InputPrices): InputCost {
  let tokens = 0;
  let cached = 0;
  for (const s of shares) {
    const requestTokens = s.chars / CHARS_PER_TOKEN;
    tokens += requestTokens;
    cached += s.prefix === null ? 0 : cachedTokens(requestTokens, s.prefix / CHARS_PER_TOKEN);
  }
  const perToken = (price: number) => price / 1_000_000;
  return {
    tokens,
    cachedTokens: cached,
    withoutCache: tokens * perToken(prices.input),
    withCache: (tokens - cached) * perToken(prices.input) + cached * perToken(prices.cachedInput),
  };
}
