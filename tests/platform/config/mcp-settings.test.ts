import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, expandVariables, resolveMcpConfig } from "../../../src/platform/config/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";

let ws: TempWorkspace;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  ws = await makeTempWorkspace();
  env = { XDG_CONFIG_HOME: path.join(ws.root, "xdg"), HOME: ws.root };
});
afterEach(() => ws.cleanup());

async function write(file: string, value: unknown): Promise<string> {
  const full = path.join(ws.root, file);
  await fs.mkdir(path.dirname(full), { recursive: true });
  await fs.writeFile(full, typeof value === "string" ? value : JSON.stringify(value));
  return full;
}

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("MCP server configuration", () => {
  it("expands ${VAR} and ${VAR:-default}, and names variables that are not set", () => {
    const missing: string[] = [];
    expect(expandVariables("Bearer ${TOKEN} ${REGION:-eu} ${NOPE}", { TOKEN: "t0k" }, missing)).toBe("Bearer t0k eu ");
    expect(missing).toEqual(["NOPE"]);
  });

  it("reads the user config, .mcp.json and mini-cursor.json; the workspace's files win by server name", async () => {
    await write("xdg/mini-cursor/config.json", {
      mcpServers: { shared: { command: "user-cmd" }, mine: { url: "https://mcp.example/${PATH_PART:-x}", headers: { Authorization: "Bearer ${TOKEN}" } } },
    });
    await write(".mcp.json", { mcpServers: { shared: { command: "mcp-json-cmd", args: ["a"], env: { KEY: "${TOKEN}" }, cwd: "tools" } } });
    await write("mini-cursor.json", { mcpServers: { project: { command: "p", agents: ["researcher"], timeoutMs: 500, disabled: true } } });
    const servers = resolveMcpConfig({ ...env, TOKEN: "secret" }, ws.root);
    expect(servers.map((s) => [s.name, s.source])).toEqual([
      ["shared", path.join(ws.root, ".mcp.json")],
      ["mine", path.join(ws.root, "xdg/mini-cursor/config.json")],
      ["project", path.join(ws.root, "mini-cursor.json")],
    ]);
    expect(servers[0]).toMatchObject({
      transport: "stdio",
      command: "mcp-json-cmd",
      args: ["a"],
      env: { KEY: "secret" },
      cwd: path.join(ws.root, "tools"),
      timeoutMs: 60_000,
      disabled: false,
    });
    expect(servers[1]).toMatchObject({ transport: "http", url: "https://mcp.example/x", headers: { Authorization: "Bearer secret" } });
    expect(servers[2]).toMatchObject({ agents: ["researcher"], timeoutMs: 500, disabled: true });
    // Without a cwd, a stdio server runs in the workspace.
    expect(servers[2]).toMatchObject({ cwd: ws.root });
  });

  it("a server whose variable is not set cannot start, and says which", async () => {
    await write(".mcp.json", { mcpServers: { gh: { url: "https://x", headers: { Authorization: "Bearer ${GH_TOKEN}" } } } });
    expect(resolveMcpConfig(env, ws.root)[0]?.problem).toBe(`$GH_TOKEN is not set (${path.join(ws.root, ".mcp.json")})`);
  });

  it("a bad declaration is one line naming the file and the server", async () => {
    const mcpJson = await write(".mcp.json", { mcpServers: { broken: { args: ["x"] } } });
    expect(errorOf(() => resolveMcpConfig(env, ws.root))).toBe(
      `${mcpJson}: mcpServers.broken: needs either "command" (a stdio server) or "url" (an HTTP server), not both`,
    );
    await write(".mcp.json", { mcpServers: { broken: { command: "x", comand: "y" } } });
    expect(errorOf(() => resolveMcpConfig(env, ws.root))).toMatch(/\.mcp\.json: mcpServers\.broken: unknown key "comand" \(known keys: type, command/);
    await write(".mcp.json", "{ not json");
    expect(errorOf(() => resolveMcpConfig(env, ws.root))).toMatch(/\.mcp\.json is not valid JSON/);
    await fs.rm(mcpJson);
    const project = await write("mini-cursor.json", { mcpServers: { "bad name": { command: "x" } } });
    expect(errorOf(() => resolveMcpConfig(env, ws.root))).toMatch(
      new RegExp(`^${project}: mcpServers.bad name: a server name may only use letters, digits, _ and -`),
    );
  });
});
