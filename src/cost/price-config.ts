import fs from "node:fs";
import { z } from "zod";
import { ConfigError, projectConfigPath, userConfigPath } from "../safety/config.js";
import { DEFAULT_PRICE_TABLE, priceMapSchema, priceRules, type PriceMap, type PriceRule, type PriceTable } from "./prices.js";

/** Only the `prices` key: the other keys of the same files belong to the safety config (src/safety/config.ts). */
const pricesFileSchema = z.object({ prices: priceMapSchema.optional() });

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "invalid";
}

function readPricesFile(file: string): PriceMap | undefined {
  let raw: string;
  try {
    raw = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = pricesFileSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(`${file}: ${describeIssue(parsed.error)}`);
  return parsed.data.prices;
}

function readPricesEnv(value: string | undefined): PriceMap | undefined {
  if (!value) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch (error) {
    throw new ConfigError(`MINI_CURSOR_PRICES is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = priceMapSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(`MINI_CURSOR_PRICES: ${describeIssue(parsed.error)}`);
  return parsed.data;
}

/** A model served from this machine costs nothing per token (Ollama, vLLM or llama.cpp on loopback). */
export function isLocalEndpoint(baseUrl: string | undefined): boolean {
  if (!baseUrl) return false;
  try {
    const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
  } catch {
    return false;
  }
}

export interface PriceSources {
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** The model endpoint; a loopback one makes every model it serves free unless a configured price says otherwise. */
  baseUrl?: string;
}

/**
 * The price table of a session, first match wins: MINI_CURSOR_PRICES, then `prices` in `<workspace>/mini-cursor.json`,
 * then in the user config, then 0 for a local endpoint, then the built-in (approximate) table.
 * Throws ConfigError on a malformed source.
 */
export function loadPriceTable(sources: PriceSources): PriceTable {
  const layers: PriceRule[][] = [];
  const fromEnv = readPricesEnv(sources.env.MINI_CURSOR_PRICES);
  if (fromEnv) layers.push(priceRules(fromEnv, "MINI_CURSOR_PRICES"));
  const projectFile = projectConfigPath(sources.workspace);
  const fromProject = readPricesFile(projectFile);
  if (fromProject) layers.push(priceRules(fromProject, projectFile));
  const userFile = userConfigPath(sources.env);
  const fromUser = readPricesFile(userFile);
  if (fromUser) layers.push(priceRules(fromUser, userFile));
  if (isLocalEndpoint(sources.baseUrl)) layers.push([{ pattern: "*", price: { input: 0, output: 0 }, source: "local endpoint" }]);
  layers.push([...DEFAULT_PRICE_TABLE]);
  return layers.flat();
}
