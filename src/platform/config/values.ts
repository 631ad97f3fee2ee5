import { ConfigError } from "../config-file.js";

/**
 * Settings given for one run, above the environment and the config files: command-line flags, or the
 * configurable settings of a LangGraph run (see flagsFromRunConfig).
 */
export interface ConfigFlags {
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  plannerModel?: string;
  researcherModel?: string;
  coderModel?: string;
  reviewerModel?: string;
  approval?: string;
  approveFileChanges?: boolean;
  allowNetwork?: boolean;
  /** Token budget of every prompt (`--context-budget`). */
  contextBudget?: string | number;
}

/** The flags whose value is text. */
export type TextFlag = { [K in keyof ConfigFlags]-?: NonNullable<ConfigFlags[K]> extends string ? K : never }[keyof ConfigFlags];

/** Where flags came from, so errors name them as the user wrote them: `--base-url` or `configurable.baseUrl`. */
export type FlagSource = "cli" | "configurable";

export function flagLabel(key: keyof ConfigFlags, source: FlagSource): string {
  return source === "cli" ? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : `configurable.${key}`;
}

/** A string flag with its label; an empty one is an error (nothing would be a silent default). */
export function flagValue(flags: ConfigFlags, key: TextFlag, source: FlagSource): { value: string; from: string } | undefined {
  const value = flags[key];
  if (value === undefined) return undefined;
  const from = flagLabel(key, source);
  if (typeof value !== "string") throw new ConfigError(`${from} must be text, got ${JSON.stringify(value)}`);
  if (value.trim() === "") throw new ConfigError(`${from} is empty`);
  return { value, from };
}

/** A whole number of at least `min` written as digits only; `from` names the flag or variable. */
export function wholeNumber(value: string | number | undefined, from: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
    const what = min === 1 ? "a positive whole number" : `a whole number of at least ${min}`;
    throw new ConfigError(`${from} must be ${what}, got "${text}"`);
  }
  return Number(text);
}

/** An http(s) URL; `from` names the flag or variable. */
export function httpUrl(value: string, from: string): string {
  let protocol: string;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = "";
  }
  if (protocol !== "http:" && protocol !== "https:") throw new ConfigError(`${from} must be an http(s) URL, got "${value}"`);
  return value;
}
