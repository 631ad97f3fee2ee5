import { describe, expect, it } from "vitest";
import { ConfigError, configFileSchema, DIAGNOSTICS_DEFAULTS, resolveDiagnosticsConfig } from "../../../src/platform/config/index.js";

const layer = (path: string, diagnostics: unknown) => ({ path, contents: configFileSchema.parse({ diagnostics }) });

describe("diagnostics settings", () => {
  it("defaults to on with TypeScript and ESLint, no commands", () => {
    expect(resolveDiagnosticsConfig({ user: { path: "u", contents: null } }, {})).toEqual(DIAGNOSTICS_DEFAULTS);
    expect(DIAGNOSTICS_DEFAULTS).toMatchObject({ enabled: true, typescript: true, eslint: true, commands: [] });
  });

  it("takes the project's scalars over the user's, adds commands up, and lets MINI_CURSOR_DIAGNOSTICS win", () => {
    const files = {
      user: layer("user.json", { enabled: false, timeoutMs: 3000, commands: [{ command: "mypy {file}", extensions: [".py"] }] }),
      project: layer("mini-cursor.json", { enabled: true, maxProblems: 5, eslint: false, commands: [{ command: "ruff check {file}" }] }),
    };
    const settings = resolveDiagnosticsConfig(files, {});
    expect(settings).toEqual({
      enabled: true,
      timeoutMs: 3000,
      maxProblems: 5,
      typescript: true,
      eslint: false,
      commands: [{ command: "mypy {file}", extensions: [".py"] }, { command: "ruff check {file}" }],
    });
    expect(resolveDiagnosticsConfig(files, { MINI_CURSOR_DIAGNOSTICS: "off" }).enabled).toBe(false);
    expect(resolveDiagnosticsConfig({ user: layer("u", { enabled: false }) }, { MINI_CURSOR_DIAGNOSTICS: "on" }).enabled).toBe(true);
    expect(() => resolveDiagnosticsConfig(files, { MINI_CURSOR_DIAGNOSTICS: "maybe" })).toThrow(ConfigError);
  });

  it("rejects typos, commands without {file} and bad limits with a clear message", () => {
    const unknown = configFileSchema.safeParse({ diagnostics: { enable: true } });
    expect(unknown.success ? "" : unknown.error.issues[0]?.message).toMatch(/unknown key "enable" \(known keys: enabled, timeoutMs/);
    const noFile = configFileSchema.safeParse({ diagnostics: { commands: [{ command: "ruff check ." }] } });
    expect(noFile.success ? "" : noFile.error.issues[0]?.message).toBe('must contain "{file}" (the changed file goes there)');
    expect(configFileSchema.safeParse({ diagnostics: { timeoutMs: 10 } }).success).toBe(false);
    expect(configFileSchema.safeParse({ diagnostics: { commands: [{ command: "x {file}", extensions: ["py"] }] } }).success).toBe(false);
  });
});
