import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, flagsFromRunConfig, resolveConfig, type OllamaProbe } from "../../../src/platform/config/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";

describe("flagsFromRunConfig", () => {
  it("maps a run's configurable settings to the resolver's flags and workspace", () => {
    const input = flagsFromRunConfig({
      thread_id: "t1",
      checkpoint_ns: "",
      workspace: "/w",
      model: "m",
      baseUrl: "http://127.0.0.1:8000/v1",
      apiKey: "k",
      plannerModel: "p",
      researcherModel: "r",
      coderModel: "c",
      reviewerModel: "v",
      approval: "auto",
      approveFileChanges: true,
      allowNetwork: false,
      contextBudget: 9000,
    });
    expect(input).toEqual({
      workspace: "/w",
      flagSource: "configurable",
      flags: {
        model: "m",
        baseUrl: "http://127.0.0.1:8000/v1",
        apiKey: "k",
        plannerModel: "p",
        researcherModel: "r",
        coderModel: "c",
        reviewerModel: "v",
        approval: "auto",
        approveFileChanges: true,
        allowNetwork: false,
        contextBudget: 9000,
      },
    });
  });

  it("treats empty text, null and missing settings as unset", () => {
    expect(flagsFromRunConfig({ model: "", baseUrl: "  ", apiKey: null, workspace: "" })).toEqual({ flags: {}, flagSource: "configurable" });
    expect(flagsFromRunConfig(undefined)).toEqual({ flags: {}, flagSource: "configurable" });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["a number as model", { model: 4 }, "configurable.model must be text, got 4"],
    ["a string as a switch", { allowNetwork: "yes" }, 'configurable.allowNetwork must be true or false, got "yes"'],
    ["an object as workspace", { workspace: {} }, "configurable.workspace must be text, got {}"],
  ])("rejects %s, naming the setting", (_name, configurable, message) => {
    expect(() => flagsFromRunConfig(configurable)).toThrow(ConfigError);
    expect(() => flagsFromRunConfig(configurable)).toThrow(message);
  });
});

describe("a Studio run resolves its settings exactly like the CLI", () => {
  let ws: TempWorkspace;
  let home: TempWorkspace;
  beforeEach(async () => {
    ws = await makeTempWorkspace({
      "mini-cursor.json": JSON.stringify({ approval: "read-only", commands: { deny: ["docker*"] }, prices: { m: { input: 1, output: 2 } } }),
    });
    home = await makeTempWorkspace();
    await fs.mkdir(path.join(home.root, "mini-cursor"));
    await fs.writeFile(path.join(home.root, "mini-cursor", "config.json"), JSON.stringify({ network: true, commands: { allow: ["npm test*"] } }));
  });
  afterEach(async () => {
    await ws.cleanup();
    await home.cleanup();
  });

  const probe: OllamaProbe = async () => ["local-model"];

  it("same flags, environment and files give the same resolved config", async () => {
    const env = { XDG_CONFIG_HOME: home.root, OPENAI_API_KEY: "env-key", MINI_CURSOR_RESEARCHER_MODEL: "env-researcher", MINI_CURSOR_APPROVAL: "ask" };
    const studio = await resolveConfig({
      ...flagsFromRunConfig({ workspace: ws.root, model: "m", baseUrl: "http://127.0.0.1:8000/v1", coderModel: "c", approval: "auto", thread_id: "t" }),
      env,
      probeOllama: probe,
    });
    const cli = await resolveConfig({
      flags: { model: "m", baseUrl: "http://127.0.0.1:8000/v1", coderModel: "c", approval: "auto" },
      workspace: ws.root,
      env,
      probeOllama: probe,
    });
    // The same settings; only the words for where the endpoint came from name each face's way of giving it.
    const withoutOrigin = (c: typeof cli) => ({ ...c, model: { ...c.model, origin: undefined } });
    expect(withoutOrigin(studio)).toEqual(withoutOrigin(cli));
    expect([studio.model.origin, cli.model.origin]).toEqual(["endpoint from configurable.baseUrl", "endpoint from --base-url"]);
    expect(studio.model).toMatchObject({ model: "m", apiKey: "env-key", roleModels: { coder: "c", researcher: "env-researcher" } });
    expect(studio.safety).toEqual({ approval: "auto", approveFileChanges: false, allow: ["npm test*"], deny: ["docker*"], allowNetwork: true });
  });

  it("without settings, falls back to the environment, the files and the Ollama probe", async () => {
    const studio = await resolveConfig({ ...flagsFromRunConfig({ workspace: ws.root }), env: { XDG_CONFIG_HOME: home.root }, probeOllama: probe });
    expect(studio.model).toMatchObject({ model: "local-model", baseUrl: "http://127.0.0.1:11434/v1" });
    expect(studio.safety.approval).toBe("read-only");
  });

  it("names configurable settings in errors", async () => {
    await expect(resolveConfig({ ...flagsFromRunConfig({ baseUrl: "http://h/v1" }), env: {}, probeOllama: probe })).rejects.toThrow(
      /^configurable\.baseUrl is set \(http:\/\/h\/v1\) but no model is named: set MINI_CURSOR_MODEL or configurable\.model\.$/,
    );
  });
});
