import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, resolveConfigExceptModel } from "../../../src/platform/config/index.js";
import { isLocalEndpoint, priceTableFor } from "../../../src/models/cost/price-config.js";
import { findPrice, type PriceTable } from "../../../src/models/cost/prices.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";

let ws: TempWorkspace;
let configHome: TempWorkspace;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  ws = await makeTempWorkspace();
  configHome = await makeTempWorkspace();
  env = { XDG_CONFIG_HOME: configHome.root, HOME: configHome.root };
});
afterEach(async () => {
  await ws.cleanup();
  await configHome.cleanup();
});

async function writeUserConfig(content: unknown): Promise<void> {
  await fs.mkdir(path.join(configHome.root, "mini-cursor"), { recursive: true });
  await fs.writeFile(path.join(configHome.root, "mini-cursor", "config.json"), JSON.stringify(content));
}

async function writeProjectConfig(content: unknown): Promise<void> {
  await fs.writeFile(path.join(ws.root, "mini-cursor.json"), JSON.stringify(content));
}

/** The price table as a session gets it: configured prices (src/config), then local endpoint, then built-in. */
function loadPriceTable(o: { workspace: string; env: NodeJS.ProcessEnv; baseUrl?: string }): PriceTable {
  return priceTableFor(resolveConfigExceptModel({ env: o.env, workspace: o.workspace }).prices, o.baseUrl);
}

describe("priceTableFor", () => {
  it("is the built-in table when nothing is configured", () => {
    const table = loadPriceTable({ workspace: ws.root, env });
    expect(findPrice("gpt-4.1-mini", table)?.source).toBe("built-in (approximate)");
    expect(findPrice("my-model", table)).toBeUndefined();
  });

  it("reads `prices` from the user config, then the project config, then MINI_CURSOR_PRICES, each overriding the last", async () => {
    await writeUserConfig({ prices: { "team-*": { input: 1, output: 2 }, "gpt-4.1-mini": { input: 0.5, output: 2 } } });
    await writeProjectConfig({ approval: "auto", prices: { "team-*": { input: 3, output: 4 } } });
    let table = loadPriceTable({ workspace: ws.root, env });
    expect(findPrice("team-a", table)?.price).toEqual({ input: 3, output: 4 });
    expect(findPrice("gpt-4.1-mini", table)?.price).toEqual({ input: 0.5, output: 2 });

    table = loadPriceTable({ workspace: ws.root, env: { ...env, MINI_CURSOR_PRICES: '{"team-a": {"input": 7, "output": 7}}' } });
    expect(findPrice("team-a", table)).toMatchObject({ price: { input: 7, output: 7 }, source: "MINI_CURSOR_PRICES" });
    expect(findPrice("team-b", table)?.price).toEqual({ input: 3, output: 4 });
  });

  it("makes every model of a loopback endpoint free, unless a price is configured for it", async () => {
    await writeProjectConfig({ prices: { "big-local": { input: 0.1, output: 0.1 } } });
    const table = loadPriceTable({ workspace: ws.root, env, baseUrl: "http://127.0.0.1:11434/v1" });
    expect(findPrice("qwen2.5-coder", table)).toMatchObject({ price: { input: 0, output: 0 }, source: "local endpoint" });
    expect(findPrice("big-local", table)?.price).toEqual({ input: 0.1, output: 0.1 });
    expect(findPrice("qwen2.5-coder", loadPriceTable({ workspace: ws.root, env, baseUrl: "https://api.deepseek.com/v1" }))).toBeUndefined();
  });

  it("rejects malformed prices with the source named", async () => {
    expect(() => loadPriceTable({ workspace: ws.root, env: { ...env, MINI_CURSOR_PRICES: "{nope" } })).toThrow(/MINI_CURSOR_PRICES is not valid JSON/);
    expect(() => loadPriceTable({ workspace: ws.root, env: { ...env, MINI_CURSOR_PRICES: '{"m": {"input": -1, "output": 1}}' } })).toThrow(ConfigError);
    await writeProjectConfig({ prices: { m: { input: 1 } } });
    expect(() => loadPriceTable({ workspace: ws.root, env })).toThrow(/mini-cursor\.json: prices\.m\.output/);
  });

  it("accepts a cached-input price from a config file and MINI_CURSOR_PRICES, and rejects a bad one with the source named", async () => {
    await writeProjectConfig({ prices: { "team-*": { input: 2, output: 8, cachedInput: 0.5 } } });
    expect(findPrice("team-a", loadPriceTable({ workspace: ws.root, env }))?.price).toEqual({ input: 2, output: 8, cachedInput: 0.5 });
    const fromEnv = loadPriceTable({ workspace: ws.root, env: { ...env, MINI_CURSOR_PRICES: '{"m": {"input": 1, "output": 2, "cachedInput": 0.1}}' } });
    expect(findPrice("m", fromEnv)).toMatchObject({ price: { input: 1, output: 2, cachedInput: 0.1 }, source: "MINI_CURSOR_PRICES" });

    const negative = '{"m": {"input": 1, "output": 1, "cachedInput": -1}}';
    expect(() => loadPriceTable({ workspace: ws.root, env: { ...env, MINI_CURSOR_PRICES: negative } })).toThrow(/^MINI_CURSOR_PRICES: m\.cachedInput: /);
    const notANumber = '{"m": {"input": 1, "output": 1, "cachedInput": "cheap"}}';
    expect(() => loadPriceTable({ workspace: ws.root, env: { ...env, MINI_CURSOR_PRICES: notANumber } })).toThrow(ConfigError);
    await writeProjectConfig({ prices: { m: { input: 1, output: 1, cachedInput: "cheap" } } });
    expect(() => loadPriceTable({ workspace: ws.root, env })).toThrow(/mini-cursor\.json: prices\.m\.cachedInput: /);
  });

  it("shares the config file with the safety settings", async () => {
    await writeProjectConfig({ approval: "auto", prices: { m: { input: 1, output: 1 } } });
    const config = resolveConfigExceptModel({ env, workspace: ws.root });
    expect(config.safety.approval).toBe("auto");
    expect(findPrice("m", priceTableFor(config.prices))?.source).toBe(path.join(ws.root, "mini-cursor.json"));
  });
});

describe("isLocalEndpoint", () => {
  it("is true for loopback hosts only", () => {
    expect(isLocalEndpoint("http://127.0.0.1:8000/v1")).toBe(true);
    expect(isLocalEndpoint("http://localhost:11434/v1")).toBe(true);
    expect(isLocalEndpoint("http://[::1]:8080/v1")).toBe(true);
    expect(isLocalEndpoint("https://api.openai.com/v1")).toBe(false);
    expect(isLocalEndpoint(undefined)).toBe(false);
    expect(isLocalEndpoint("not a url")).toBe(false);
  });
});
