import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { startOAuthMcpServer, type OAuthMcpServer } from "../../services/mcp/oauth-server.js";
import { runCli, shows, startCli, type CliRun } from "./cli-process.js";

let ws: TempWorkspace;
let server: OAuthMcpServer | undefined;
let login: CliRun | undefined;
let env: Record<string, string>;
let xdg: string;

beforeEach(async () => {
  ws = await makeTempWorkspace();
  xdg = path.join(ws.root, "xdg");
  // No DISPLAY: login never tries to open a browser here.
  env = { XDG_CONFIG_HOME: xdg };
});
afterEach(async () => {
  if (login && login.child.exitCode === null && login.child.signalCode === null) {
    login.child.kill("SIGKILL");
    await login.done;
  }
  login = undefined;
  await server?.stop();
  server = undefined;
  await ws.cleanup();
});

interface Listed {
  name: string;
  status: string;
  reason?: string;
  tools: { name: string }[];
}

async function configure(servers: Record<string, unknown>): Promise<void> {
  await fs.mkdir(path.join(xdg, "mini-cursor"), { recursive: true });
  await fs.writeFile(path.join(xdg, "mini-cursor/config.json"), JSON.stringify({ mcpServers: servers }));
}

async function list(): Promise<Listed[]> {
  const run = await runCli(["mcp", "list", "--json"], { cwd: ws.root, env });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as Listed[];
}

function tokenFile(url: string): string {
  return path.join(xdg, "mini-cursor/mcp-oauth", `${createHash("sha256").update(url).digest("hex").slice(0, 16)}.json`);
}

interface Stored {
  serverUrl: string;
  tokens?: { access_token: string; refresh_token?: string };
}

/** Starts `mcp login NAME` and returns it with the authorization URL it printed. */
async function startLogin(name: string): Promise<{ run: CliRun; url: string }> {
  const run = startCli(["mcp", "login", name], { cwd: ws.root, env });
  login = run;
  const prefix = `Open this URL to sign in to ${name}: `;
  await shows(run, prefix);
  await shows(run, "\n");
  const line = run
    .stdout()
    .split("\n")
    .find((l) => l.startsWith(prefix));
  return { run, url: (line ?? "").slice(prefix.length) };
}

describe("mini-cursor mcp login", () => {
  it("signs in to an OAuth-protected HTTP server, which sessions then reach, refreshing its token by themselves", async () => {
    server = await startOAuthMcpServer();
    await configure({ remote: { type: "http", url: server.url } });

    const before = await list();
    expect(before.map((s) => [s.name, s.status, s.reason])).toEqual([["remote", "failed", "needs sign-in: run mini-cursor mcp login remote"]]);
    expect(server.auth.registrations).toBe(0);

    const { run, url } = await startLogin("remote");
    const authorization = new URL(url);
    expect(authorization.origin).toBe(new URL(server.url).origin);
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    const redirect = new URL(authorization.searchParams.get("redirect_uri") ?? "");
    expect(redirect.hostname).toBe("127.0.0.1");
    expect(redirect.pathname).toBe("/callback");
    // A callback without the sign-in's state is refused and changes nothing.
    const forged = await fetch(`${redirect.origin}/callback?code=forged&state=wrong`);
    expect(forged.status).toBe(400);
    // The browser's part: the server approves and sends it back to the loopback callback with a code.
    const approved = await fetch(url, { redirect: "follow" });
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain("Signed in to remote");
    const done = await run.done;
    const file = tokenFile(server.url);
    expect(done.code, run.stderr()).toBe(0);
    expect(run.stdout()).toContain(`Signed in to remote; tokens are kept in ${file} (owner-only).\n`);
    expect(run.stderr()).toBe("");
    // Owner-only, outside the workspace's own files (the config folder was pointed into the temp folder).
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    const first = JSON.parse(await fs.readFile(file, "utf8")) as Stored;
    expect(first.serverUrl).toBe(server.url);
    expect(first.tokens?.access_token).toMatch(/^at-/);
    expect(first.tokens?.refresh_token).toMatch(/^rt-/);
    // The token never shows in what the person sees.
    expect(run.stdout()).not.toContain(first.tokens?.access_token ?? "?");

    const after = await list();
    expect(after[0]?.status).toBe("connected");
    expect(after[0]?.tools.map((t) => t.name)).toEqual(["mcp__remote__whoami"]);

    // The access token stops working (as when it expires): the session refreshes it and stores the new pair.
    server.auth.expireAccessTokens();
    const refreshed = await list();
    expect(refreshed[0]?.status, refreshed[0]?.reason).toBe("connected");
    expect(server.auth.refreshes).toBe(1);
    const second = JSON.parse(await fs.readFile(file, "utf8")) as Stored;
    expect(second.tokens?.access_token).not.toBe(first.tokens?.access_token);
    expect(second.tokens?.refresh_token).not.toBe(first.tokens?.refresh_token);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(server.auth.registrations).toBe(1);

    // Revoked for good (the refresh is refused too): the session says to sign in again, and drops the dead tokens.
    server.auth.revokeAll();
    expect((await list())[0]?.reason).toBe("needs sign-in: run mini-cursor mcp login remote");
    const revoked = JSON.parse(await fs.readFile(file, "utf8")) as Stored;
    expect(revoked.tokens).toBeUndefined();

    const logout = await runCli(["mcp", "logout", "remote"], { cwd: ws.root, env });
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stdout).toBe(`Signed out of remote: removed ${file}.\n`);
    await expect(fs.stat(file)).rejects.toThrow();
    expect((await list())[0]?.reason).toBe("needs sign-in: run mini-cursor mcp login remote");
  });

  it("ends cleanly on Ctrl-C while it waits for the browser", async () => {
    server = await startOAuthMcpServer();
    await configure({ remote: { type: "http", url: server.url } });
    const { run } = await startLogin("remote");
    run.child.kill("SIGINT");
    const done = await run.done;
    expect(done.code).toBe(130);
    expect(run.stderr()).toBe("mini-cursor: sign-in to remote cancelled.\n");
    const stored = JSON.parse(await fs.readFile(tokenFile(server.url), "utf8")) as Stored;
    expect(stored.tokens).toBeUndefined();
  });

  it("tells a server that answers 401 without offering OAuth (an API key missing) from one that needs a sign-in", async () => {
    const keyOnly = http.createServer((_req, res) => res.writeHead(401, { "content-type": "text/plain" }).end("unauthorized"));
    await new Promise<void>((resolve) => keyOnly.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(keyOnly.address() as AddressInfo).port}/mcp`;
      await configure({ keyed: { type: "http", url } });
      const reason = `${url} answered HTTP 401 and offers no OAuth sign-in (no authorization server metadata): are its headers right?`;
      expect((await list())[0]?.reason).toBe(reason);
      const run = await runCli(["mcp", "login", "keyed"], { cwd: ws.root, env });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`mini-cursor: sign-in to keyed failed: ${reason}\n`);
    } finally {
      keyOnly.closeAllConnections();
      await new Promise<void>((resolve) => keyOnly.close(() => resolve()));
    }
  });

  it("refuses, in one line with exit 2, a name that is unknown, missing or not an HTTP server", async () => {
    await configure({ local: { command: "some-server" }, remote: { type: "http", url: "http://127.0.0.1:9/mcp" } });
    const unknown = await runCli(["mcp", "login", "nope"], { cwd: ws.root, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`mini-cursor: no MCP server "nope" is configured for ${ws.root} (its HTTP servers: remote)\n`);
    const stdio = await runCli(["mcp", "login", "local"], { cwd: ws.root, env });
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toBe(`mini-cursor: the MCP server "local" runs a command (stdio): only HTTP servers have a sign-in\n`);
    const none = await runCli(["mcp", "login"], { cwd: ws.root, env });
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split("\n")).toHaveLength(1);
    const logout = await runCli(["mcp", "logout", "nope"], { cwd: ws.root, env });
    expect(logout.code).toBe(2);

    // A project's server that is not trusted yet: trust first.
    await fs.writeFile(path.join(ws.root, ".mcp.json"), JSON.stringify({ mcpServers: { shared: { type: "http", url: "http://127.0.0.1:9/mcp" } } }));
    const untrusted = await runCli(["mcp", "login", "shared"], { cwd: ws.root, env });
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toBe(
      `mini-cursor: the MCP server "shared" is declared by the project (${path.join(ws.root, ".mcp.json")}) and not trusted: run mini-cursor mcp trust shared first\n`,
    );
  });
});
