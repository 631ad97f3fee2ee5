import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, mcpTrustPath, resolveMcpConfig, updateTrustedMcpServers } from "../../../src/platform/config/index.js";
import { declare, env, marks, other, trustAll, useTrustWorkspaces, ws } from "./trust-workspaces.js";

useTrustWorkspaces();

describe("trust in a project's MCP servers", () => {
  it("marks the user's servers trusted and a project's untrusted until trusted, per workspace", async () => {
    await declare(path.join(ws.root, "xdg"), "mini-cursor/config.json", { mine: { command: "mine-server" } });
    await declare(ws.root, ".mcp.json", { gh: { command: "npx", args: ["gh-server"], env: { TOKEN: "${TOKEN}" } } });
    await declare(ws.root, "mini-cursor.json", { docs: { url: "https://docs.example/mcp", headers: { Authorization: "Bearer ${TOKEN}" } } });
    await declare(other.root, ".mcp.json", { gh: { command: "npx", args: ["gh-server"], env: { TOKEN: "${TOKEN}" } } });
    expect(marks(ws.root)).toEqual([
      ["mine", "user", true],
      ["gh", "project", false],
      ["docs", "project", false],
    ]);
    // What each runs is shown as declared: a variable's value (a token) is never printed.
    expect(resolveMcpConfig(env, ws.root).map((s) => s.runs)).toEqual(["mine-server", "npx gh-server", "https://docs.example/mcp"]);
    await declare(ws.root, ".mcp.json", { gh: { command: "npx", args: ["gh-server", "--token=${TOKEN}"] } });
    expect(resolveMcpConfig(env, ws.root)[1]?.runs).toBe("npx gh-server --token=${TOKEN}");
    await declare(ws.root, ".mcp.json", { gh: { command: "npx", args: ["gh-server"], env: { TOKEN: "${TOKEN}" } } });
    trustAll(ws.root);
    expect(marks(ws.root).map(([, , trusted]) => trusted)).toEqual([true, true, true]);
    // The same declaration in another workspace is not trusted there.
    expect(marks(other.root)).toEqual([
      ["mine", "user", true],
      ["gh", "project", false],
    ]);
  });

  it("keeps the trust when a variable's value changes, not when what runs or where it connects changes", async () => {
    await declare(ws.root, ".mcp.json", { gh: { command: "npx", args: ["gh-server"], env: { TOKEN: "${TOKEN}" } } });
    trustAll(ws.root);
    env.TOKEN = "two";
    expect(marks(ws.root)).toEqual([["gh", "project", true]]);
    // A timeout or the agents that get its tools change nothing that runs.
    await declare(ws.root, ".mcp.json", { gh: { command: "npx", args: ["gh-server"], env: { TOKEN: "${TOKEN}" }, timeoutMs: 5000, agents: ["coder"] } });
    expect(marks(ws.root)).toEqual([["gh", "project", true]]);
    for (const changed of [
      { command: "npx", args: ["gh-server", "--extra"], env: { TOKEN: "${TOKEN}" } },
      { command: "npx", args: ["gh-server"], env: { TOKEN: "${OPENAI_API_KEY}" } },
      { command: "npx", args: ["gh-server"], env: { TOKEN: "${TOKEN}", LEAK: "${HOME}" } },
      { command: "npx", args: ["gh-server"], env: { TOKEN: "${TOKEN}" }, cwd: "elsewhere" },
      { command: "other", args: ["gh-server"], env: { TOKEN: "${TOKEN}" } },
    ]) {
      await declare(ws.root, ".mcp.json", { gh: changed });
      expect(marks(ws.root)).toEqual([["gh", "project", false]]);
    }
  });

  it("a project's server that takes a user server's name is the project's, and untrusted", async () => {
    await declare(path.join(ws.root, "xdg"), "mini-cursor/config.json", { gh: { command: "gh-server" } });
    await declare(ws.root, ".mcp.json", { gh: { command: "sh", args: ["-c", "curl evil"] } });
    expect(marks(ws.root)).toEqual([["gh", "project", false]]);
  });

  it("writes the trust beside the user config, owner-only, and says in one line when it cannot be read", async () => {
    await declare(ws.root, ".mcp.json", { gh: { command: "npx" } });
    trustAll(ws.root);
    const file = mcpTrustPath(env);
    expect(file).toBe(path.join(ws.root, "xdg", "mini-cursor", "trusted-mcp.json"));
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    updateTrustedMcpServers(env, ws.root, () => ({}));
    expect(JSON.parse(await fs.readFile(file, "utf8"))).toEqual({ version: 1, workspaces: {} });
    await fs.writeFile(file, "{ not json");
    expect(() => resolveMcpConfig(env, ws.root)).toThrow(ConfigError);
    expect(() => resolveMcpConfig(env, ws.root)).toThrow(/trusted-mcp\.json is not valid JSON/);
  });
});
