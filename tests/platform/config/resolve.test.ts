import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  APPROVAL_MODES,
  ConfigError,
  configFileSchema,
  resolveConfig,
  resolveConfigExceptModel,
  resolveMemoryConfig,
  resolveSandboxConfig,
  type ConfigFlags,
  type OllamaProbe,
} from "../../../src/platform/config/index.js";
import { approvalModeSchema as policyApprovalModeSchema } from "../../../src/core/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";

let ws: TempWorkspace;
let home: TempWorkspace;
let env: NodeJS.ProcessEnv;
let userFile: string;
let projectFile: string;

beforeEach(async () => {
  ws = await makeTempWorkspace();
  home = await makeTempWorkspace();
  env = { XDG_CONFIG_HOME: home.root, HOME: home.root };
  userFile = path.join(home.root, "mini-cursor", "config.json");
  projectFile = path.join(ws.root, "mini-cursor.json");
});
afterEach(async () => {
  await ws.cleanup();
  await home.cleanup();
});

async function writeUser(content: unknown): Promise<void> {
  await fs.mkdir(path.dirname(userFile), { recursive: true });
  await fs.writeFile(userFile, typeof content === "string" ? content : JSON.stringify(content));
}
async function writeProject(content: unknown): Promise<void> {
  await fs.writeFile(projectFile, typeof content === "string" ? content : JSON.stringify(content));
}

const settle = (flags: ConfigFlags = {}, extraEnv: NodeJS.ProcessEnv = {}) =>
  resolveConfigExceptModel({ flags, env: { ...env, ...extraEnv }, workspace: ws.root });

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("precedence: flags > environment > mini-cursor.json > user config > defaults", () => {
  it("for a single value (approval), each level beats the next", async () => {
    expect(settle().safety.approval).toBe("ask");
    await writeUser({ approval: "read-only" });
    expect(settle().safety.approval).toBe("read-only");
    await writeProject({ approval: "auto" });
    expect(settle().safety.approval).toBe("auto");
    expect(settle({}, { MINI_CURSOR_APPROVAL: "read-only" }).safety.approval).toBe("read-only");
    expect(settle({ approval: "ask" }, { MINI_CURSOR_APPROVAL: "read-only" }).safety.approval).toBe("ask");
  });

  it("for values without a variable (approveFileChanges, network): flag, then project, then user, then false", async () => {
    expect(settle().safety).toMatchObject({ approveFileChanges: false, allowNetwork: false });
    await writeUser({ approveFileChanges: true, network: true });
    expect(settle().safety).toMatchObject({ approveFileChanges: true, allowNetwork: true });
    await writeProject({ approveFileChanges: false, network: false });
    expect(settle().safety).toMatchObject({ approveFileChanges: false, allowNetwork: false });
    expect(settle({ approveFileChanges: true, allowNetwork: true }).safety).toMatchObject({ approveFileChanges: true, allowNetwork: true });
  });

  it("a file that does not set a value leaves it to the next level", async () => {
    await writeUser({ approval: "auto" });
    await writeProject({ network: true });
    expect(settle().safety).toMatchObject({ approval: "auto", allowNetwork: true });
  });

  it("for rule lists: the user's rules, then the project's (they add up)", async () => {
    await writeUser({ commands: { allow: ["npm test*"], deny: ["docker*"] } });
    await writeProject({ commands: { allow: ["git status"], deny: ["kubectl*", "/^helm/"] } });
    expect(settle().safety).toMatchObject({ allow: ["npm test*", "git status"], deny: ["docker*", "kubectl*", "/^helm/"] });
  });

  it("for prices: MINI_CURSOR_PRICES, then the project file, then the user file, highest first", async () => {
    await writeUser({ prices: { a: { input: 1, output: 1 } } });
    await writeProject({ prices: { b: { input: 2, output: 2 } } });
    const layers = settle({}, { MINI_CURSOR_PRICES: '{"c": {"input": 3, "output": 3}}' }).prices;
    expect(layers.map((l) => l.source)).toEqual(["MINI_CURSOR_PRICES", projectFile, userFile]);
    expect(layers[0]?.prices).toEqual({ c: { input: 3, output: 3 } });
  });

  it("for the context budget: flag, then MINI_CURSOR_CONTEXT_BUDGET, then the default (absent)", () => {
    expect(settle().limits).toEqual({});
    expect(settle({}, { MINI_CURSOR_CONTEXT_BUDGET: "9000" }).limits).toEqual({ maxPromptTokens: 9000 });
    expect(settle({ contextBudget: "5000" }, { MINI_CURSOR_CONTEXT_BUDGET: "9000" }).limits).toEqual({ maxPromptTokens: 5000 });
  });

  it("for the model: flags, then the environment, then the default", async () => {
    const probe: OllamaProbe = async () => null;
    const env2 = { ...env, OPENAI_API_KEY: "k", MINI_CURSOR_MODEL: "env-model" };
    expect((await resolveConfig({ env: { ...env, OPENAI_API_KEY: "k" }, workspace: ws.root, probeOllama: probe })).model.model).toBe("gpt-4.1-mini");
    expect((await resolveConfig({ env: env2, workspace: ws.root, probeOllama: probe })).model.model).toBe("env-model");
    expect((await resolveConfig({ flags: { model: "flag-model" }, env: env2, workspace: ws.root, probeOllama: probe })).model.model).toBe("flag-model");
  });

  it("reads no project file without a workspace", async () => {
    await writeProject({ approval: "auto" });
    const config = resolveConfigExceptModel({ env });
    expect(config.safety.approval).toBe("ask");
    expect(config.files.project).toBeUndefined();
    expect(config.files.user).toEqual({ path: userFile, contents: null });
  });

  it("finds the user config in ~/.config without XDG_CONFIG_HOME (or with a relative one)", async () => {
    const file = path.join(home.root, ".config", "mini-cursor", "config.json");
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify({ approval: "auto" }));
    for (const e of [{ HOME: home.root }, { HOME: home.root, XDG_CONFIG_HOME: "relative/dir" }]) {
      const config = resolveConfigExceptModel({ env: e, workspace: ws.root });
      expect(config.safety.approval).toBe("auto");
      expect(config.files.user.path).toBe(file);
    }
  });
});

describe("config files", () => {
  it("accept every key", async () => {
    const full = {
      approval: "auto",
      approveFileChanges: true,
      network: true,
      commands: { allow: ["npm test*"], deny: ["docker*"] },
      prices: { "my-*": { input: 0.5, output: 1.5 } },
    };
    await writeProject(full);
    expect(settle().files.project?.contents).toEqual(full);
    expect(configFileSchema.safeParse({}).success).toBe(true);
    expect(configFileSchema.safeParse({ commands: {} }).success).toBe(true);
  });

  it("reject unknown keys, naming the file, the key and the known keys", async () => {
    await writeProject({ approvals: "auto" });
    const err = configError(() => settle());
    expect(err.message).toContain(projectFile);
    expect(err.message).toContain('unknown key "approvals"');
    expect(err.message).toContain("known keys: approval, approveFileChanges, network, commands, prices");
  });

  it("reject unknown keys inside commands and inside a price", async () => {
    await writeProject({ commands: { allow: [], block: ["x"] } });
    expect(configError(() => settle()).message).toMatch(/mini-cursor\.json: commands: unknown key "block" \(known keys: allow, deny\)/);
    await writeProject({ prices: { m: { input: 1, output: 1, cached: 0.1 } } });
    expect(configError(() => settle()).message).toMatch(/mini-cursor\.json: prices\.m: .*"cached"/);
  });

  it("reject wrong values, naming the file and the key", async () => {
    await writeProject({ approval: "sometimes" });
    expect(configError(() => settle()).message).toMatch(new RegExp(`^${projectFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: approval: `));
    await writeProject({ network: "yes" });
    expect(configError(() => settle()).message).toContain("mini-cursor.json: network: ");
    await writeProject({ commands: { deny: "rm*" } });
    expect(configError(() => settle()).message).toContain("mini-cursor.json: commands.deny: ");
    await writeProject({ prices: { m: { input: -1, output: 1 } } });
    expect(configError(() => settle()).message).toContain("mini-cursor.json: prices.m.input: ");
    await writeProject([]);
    expect(configError(() => settle()).message).toContain("mini-cursor.json: (root): ");
  });

  it("name the user config when it is the broken one", async () => {
    await writeUser("{ nope");
    const err = configError(() => settle());
    expect(err.message).toMatch(/config\.json is not valid JSON/);
    expect(err.message).toContain(userFile);
  });

  it("report invalid JSON naming the file", async () => {
    await writeProject("{ not json");
    expect(configError(() => settle()).message).toMatch(/mini-cursor\.json is not valid JSON/);
  });

  it("that exist but cannot be read are errors, not silently skipped", async () => {
    await fs.mkdir(projectFile);
    expect(configError(() => settle()).message).toBe(`${projectFile} cannot be read (EISDIR)`);
  });

  it("are checked even when a flag or variable overrides what they set", async () => {
    await writeProject({ approval: "sometimes" });
    expect(() => settle({ approval: "auto" }, { MINI_CURSOR_APPROVAL: "auto" })).toThrow(/mini-cursor\.json: approval/);
  });
});

describe("errors name the flag or variable", () => {
  it.each<[string, ConfigFlags, NodeJS.ProcessEnv, string]>([
    ["approval flag", { approval: "yolo" }, {}, '--approval must be ask, auto or read-only, got "yolo"'],
    ["empty approval flag", { approval: "" }, {}, '--approval must be ask, auto or read-only, got ""'],
    ["approval variable", {}, { MINI_CURSOR_APPROVAL: "yolo" }, 'MINI_CURSOR_APPROVAL must be ask, auto or read-only, got "yolo"'],
    ["context budget flag", { contextBudget: "lots" }, {}, '--context-budget must be a positive whole number, got "lots"'],
    ["context budget variable", {}, { MINI_CURSOR_CONTEXT_BUDGET: "0" }, 'MINI_CURSOR_CONTEXT_BUDGET must be a positive whole number, got "0"'],
    ["prices variable", {}, { MINI_CURSOR_PRICES: "{nope" }, "MINI_CURSOR_PRICES is not valid JSON"],
    ["prices variable shape", {}, { MINI_CURSOR_PRICES: '{"m": {"input": 1}}' }, "MINI_CURSOR_PRICES: m.output: "],
    [
      "embeddings kind",
      {},
      { MINI_CURSOR_EMBEDDINGS: "chroma-default" },
      'MINI_CURSOR_EMBEDDINGS must be one of local, openai, transformers, got "chroma-default"',
    ],
    ["embedding model", {}, { MINI_CURSOR_EMBEDDINGS: "openai", OPENAI_API_KEY: "k" }, "MINI_CURSOR_EMBEDDINGS=openai needs MINI_CURSOR_EMBEDDING_MODEL"],
    [
      "embedding URL",
      {},
      { MINI_CURSOR_EMBEDDINGS: "openai", MINI_CURSOR_EMBEDDING_MODEL: "m", MINI_CURSOR_EMBEDDING_BASE_URL: "nope" },
      'MINI_CURSOR_EMBEDDING_BASE_URL must be an http(s) URL, got "nope"',
    ],
    ["Chroma URL", {}, { CHROMA_URL: "127.0.0.1:8000" }, 'CHROMA_URL must be an http(s) URL, got "127.0.0.1:8000"'],
  ])("%s", (_name, flags, extraEnv, expected) => {
    expect(configError(() => settle(flags, extraEnv)).message).toContain(expected);
  });

  it("names configurable settings as such", () => {
    const err = configError(() => resolveConfigExceptModel({ flags: { approval: "yolo" }, flagSource: "configurable", env, workspace: ws.root }));
    expect(err.message).toBe('configurable.approval must be ask, auto or read-only, got "yolo"');
  });

  it("names the model variables through resolveConfig", async () => {
    const probe: OllamaProbe = async () => null;
    await expect(resolveConfig({ env: { ...env, OPENAI_API_KEY: "k", MINI_CURSOR_MODEL_RETRIES: "lots" }, probeOllama: probe })).rejects.toThrow(
      'MINI_CURSOR_MODEL_RETRIES must be a whole number of at least 0, got "lots"',
    );
  });

  it("treats an empty variable as unset", () => {
    expect(settle({}, { MINI_CURSOR_APPROVAL: "", MINI_CURSOR_CONTEXT_BUDGET: " ", MINI_CURSOR_PRICES: "" })).toMatchObject({
      safety: { approval: "ask" },
      limits: {},
      prices: [],
    });
  });
});

describe("memory settings", () => {
  it("are off with MINI_CURSOR_MEMORY=off, without checking the rest", () => {
    expect(resolveMemoryConfig({ MINI_CURSOR_MEMORY: "off", MINI_CURSOR_EMBEDDINGS: "bogus" })).toEqual({
      enabled: false,
      reason: "memory is disabled (MINI_CURSOR_MEMORY=off)",
    });
  });

  it("read the Chroma URL, the data folder, the collection and the embedder", () => {
    expect(
      resolveMemoryConfig({
        CHROMA_URL: "http://127.0.0.1:8000",
        MINI_CURSOR_DATA_DIR: "/data/mc",
        MINI_CURSOR_MEMORY_COLLECTION: "team",
        MINI_CURSOR_EMBEDDINGS: "openai",
        MINI_CURSOR_EMBEDDING_MODEL: "nomic-embed-text",
        MINI_CURSOR_EMBEDDING_BASE_URL: "http://127.0.0.1:11434/v1",
      }),
    ).toEqual({
      enabled: true,
      recallWaitMs: 300,
      chromaUrl: "http://127.0.0.1:8000",
      chromaAccess: { tenant: "default_tenant", database: "default_database", authHeader: "authorization" },
      dataDir: "/data/mc",
      chromaIdleSeconds: 300,
      collection: "team",
      embeddings: { kind: "openai", model: "nomic-embed-text", baseUrl: "http://127.0.0.1:11434/v1", apiKey: "not-needed" },
    });
    expect(resolveMemoryConfig({ HOME: "/h" })).toEqual({
      enabled: true,
      recallWaitMs: 300,
      dataDir: "/h/.local/share/mini-cursor",
      chromaIdleSeconds: 300,
      embeddings: { kind: "local" },
    });
  });

  it("read how long a planner turn waits for memory (MINI_CURSOR_MEMORY_WAIT, whole milliseconds up to a minute)", () => {
    const wait = (value: string) => {
      const settings = resolveMemoryConfig({ HOME: "/h", MINI_CURSOR_MEMORY_WAIT: value });
      return settings.enabled ? settings.recallWaitMs : undefined;
    };
    expect(wait("0")).toBe(0);
    expect(wait("2500")).toBe(2500);
    for (const bad of ["-1", "1.5", "soon", "60001"]) expect(() => wait(bad)).toThrow(/MINI_CURSOR_MEMORY_WAIT must be whole milliseconds from 0 to 60000/);
  });

  it.each<[NodeJS.ProcessEnv, string]>([
    [{ MINI_CURSOR_DATA_DIR: "/m", XDG_DATA_HOME: "/x", HOME: "/h" }, "/m"],
    [{ XDG_DATA_HOME: "/x", HOME: "/h" }, "/x/mini-cursor"],
    [{ XDG_DATA_HOME: "relative", HOME: "/h" }, "/h/.local/share/mini-cursor"],
    [{ MINI_CURSOR_DATA_DIR: "", HOME: "/h" }, "/h/.local/share/mini-cursor"],
  ])("put the data folder in MINI_CURSOR_DATA_DIR, else the XDG data home, else ~/.local/share (%j)", (e, dir) => {
    const settings = resolveMemoryConfig(e);
    expect(settings.enabled && settings.dataDir).toBe(dir);
  });

  it("are part of the resolved config, and a bad one fails the whole resolution", () => {
    expect(settle({}, { MINI_CURSOR_MEMORY: "off" }).memory.enabled).toBe(false);
    expect(() => settle({}, { MINI_CURSOR_EMBEDDINGS: "bogus" })).toThrow(ConfigError);
  });
});

describe("shapes shared with other modules", () => {
  it("approval modes are the safety policy's", () => {
    expect([...APPROVAL_MODES]).toEqual(policyApprovalModeSchema.options);
  });
});

describe("sandbox settings", () => {
  it("turn the sandbox off only with MINI_CURSOR_SANDBOX=off", () => {
    expect(resolveSandboxConfig({ MINI_CURSOR_SANDBOX: "off" })).toEqual({ off: true });
    expect(resolveSandboxConfig({ MINI_CURSOR_SANDBOX: " off " })).toEqual({ off: true });
    expect(resolveSandboxConfig({ MINI_CURSOR_SANDBOX: "on" })).toEqual({ off: false });
    expect(resolveSandboxConfig({})).toEqual({ off: false });
  });
});
