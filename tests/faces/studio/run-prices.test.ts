import fs from "node:fs/promises";
import path from "node:path";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { loadConfigFiles, resolveModelConfig, resolvePriceConfig } from "../../../src/platform/config/index.js";
import { priceTableFor } from "../../../src/models/cost/price-config.js";
import { findPrice, type PriceRule, type PriceTable } from "../../../src/models/cost/prices.js";
import { runScopedPrices } from "../../../src/faces/studio/run-prices.js";
import { useTempHome } from "../../helpers/temp-home.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";

/**
 * Studio prices each run as the CLI prices that session (src/host/config-setup.ts: the config resolver's prices and
 * endpoint). Looked up inside a real LangGraph run, whose configurable settings are the run's own.
 */
const ws = useTempWorkspace();
const home = useTempHome();

/** The rule that prices `model` in a one-node graph run with these configurable settings. */
async function priceInRun(prices: PriceTable, model: string, configurable: Record<string, unknown>): Promise<PriceRule | null> {
  const State = Annotation.Root({ rule: Annotation<PriceRule | null>() });
  const graph = new StateGraph(State)
    .addNode("price", () => ({ rule: findPrice(model, prices) ?? null }))
    .addEdge(START, "price")
    .addEdge("price", END)
    .compile();
  return (await graph.invoke({ rule: null }, { configurable })).rule;
}

/** What the CLI prices `model` at for the same settings: the resolved endpoint and the workspace's config files. */
async function cliPrice(
  model: string,
  o: { baseUrl?: string; workspace: string; envOver?: NodeJS.ProcessEnv; ollamaModels?: string[] },
): Promise<PriceRule | null> {
  const runEnv = { ...home.env, ...o.envOver };
  const settings = await resolveModelConfig({ ...(o.baseUrl ? { baseUrl: o.baseUrl, model } : {}) }, runEnv, async () => o.ollamaModels ?? null);
  return findPrice(model, priceTableFor(resolvePriceConfig(runEnv, loadConfigFiles(runEnv, o.workspace)), settings.baseUrl)) ?? null;
}

describe("Studio run prices", () => {
  it("prices a run on a loopback endpoint at $0, like the CLI, and a remote one by the tables", async () => {
    const prices = runScopedPrices(home.env, null);
    const local = await priceInRun(prices, "scripted", { workspace: ws.root, model: "scripted", baseUrl: "http://127.0.0.1:9/v1" });
    expect(local).toMatchObject({ price: { input: 0, output: 0 }, source: "local endpoint" });
    expect(local).toEqual(await cliPrice("scripted", { baseUrl: "http://127.0.0.1:9/v1", workspace: ws.root }));
    expect(await priceInRun(prices, "scripted", { workspace: ws.root, model: "scripted", baseUrl: "https://api.example.com/v1" })).toBeNull();
    expect(await priceInRun(prices, "gpt-4.1-mini", { workspace: ws.root, model: "gpt-4.1-mini", baseUrl: "https://api.example.com/v1" })).toMatchObject({
      source: "built-in (approximate)",
    });
  });

  it("prices a run on the local Ollama found at start-up at $0 (no endpoint configured), like the CLI", async () => {
    const ollama = { url: "http://127.0.0.1:11434", models: ["qwen2.5-coder"] };
    const rule = await priceInRun(runScopedPrices(home.env, ollama), "qwen2.5-coder", { workspace: ws.root });
    expect(rule).toMatchObject({ source: "local endpoint" });
    expect(rule).toEqual(await cliPrice("qwen2.5-coder", { workspace: ws.root, ollamaModels: ["qwen2.5-coder"] }));
  });

  it("uses the prices in the run's workspace mini-cursor.json first", async () => {
    await fs.writeFile(path.join(ws.root, "mini-cursor.json"), JSON.stringify({ prices: { scripted: { input: 1, output: 2 } } }));
    const rule = await priceInRun(runScopedPrices(home.env, null), "scripted", { workspace: ws.root, model: "scripted", baseUrl: "http://127.0.0.1:9/v1" });
    expect(rule).toMatchObject({ price: { input: 1, output: 2 }, source: path.join(ws.root, "mini-cursor.json") });
    expect(rule).toEqual(await cliPrice("scripted", { baseUrl: "http://127.0.0.1:9/v1", workspace: ws.root }));
  });
});
