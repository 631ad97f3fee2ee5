import { randomUUID } from "node:crypto";
import type http from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { OAuthServerProvider, AuthorizationParams } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { freePort } from "../../helpers/free-port.js";

/**
 * A small in-memory authorization server that approves every authorization request at once (as a person who clicks
 * "allow"), issues access and refresh tokens, rotates the refresh token on each refresh, and lets a test make every
 * access token invalid (as if they had expired) to see a client refresh.
 */
class TestAuthProvider implements OAuthServerProvider {
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, { clientId: string; challenge: string; resource?: string }>();
  private readonly access = new Map<string, { clientId: string; resource?: string }>();
  private readonly refresh = new Map<string, { clientId: string; resource?: string }>();
  registrations = 0;
  refreshes = 0;

  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: (id) => this.clients.get(id),
    registerClient: (client) => {
      // The registration handler has already given it a client_id.
      const full = client as OAuthClientInformationFull;
      this.clients.set(full.client_id, full);
      this.registrations += 1;
      return full;
    },
  };

  authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: { redirect(url: string): void }): Promise<void> {
    if (!client.redirect_uris.includes(params.redirectUri)) throw new Error("unregistered redirect_uri");
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, challenge: params.codeChallenge, ...(params.resource ? { resource: params.resource.href } : {}) });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    res.redirect(target.href);
    return Promise.resolve();
  }

  challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const found = this.codes.get(code);
    if (!found) throw new Error("unknown authorization code");
    return Promise.resolve(found.challenge);
  }

  private issue(clientId: string, resource: string | undefined): OAuthTokens {
    const accessToken = `at-${randomUUID()}`;
    const refreshToken = `rt-${randomUUID()}`;
    this.access.set(accessToken, { clientId, ...(resource ? { resource } : {}) });
    this.refresh.set(refreshToken, { clientId, ...(resource ? { resource } : {}) });
    return { access_token: accessToken, token_type: "bearer", expires_in: 3600, refresh_token: refreshToken };
  }

  exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const found = this.codes.get(code);
    if (!found || found.clientId !== client.client_id) throw new Error("the code was not issued to this client");
    this.codes.delete(code);
    return Promise.resolve(this.issue(client.client_id, found.resource));
  }

  exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const found = this.refresh.get(refreshToken);
    if (!found || found.clientId !== client.client_id) throw new InvalidGrantError("unknown refresh token");
    this.refresh.delete(refreshToken);
    this.refreshes += 1;
    return Promise.resolve(this.issue(client.client_id, found.resource));
  }

  verifyAccessToken(token: string): Promise<AuthInfo> {
    const found = this.access.get(token);
    // An OAuth error, so the bearer middleware answers 401 (any other error is a 500).
    if (!found) throw new InvalidTokenError("invalid or expired token");
    return Promise.resolve({ token, clientId: found.clientId, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  }

  /** Every token issued so far is revoked, refresh tokens too: only a new sign-in helps. */
  revokeAll(): void {
    this.access.clear();
    this.refresh.clear();
  }

  /** Every access token issued so far stops working (refresh tokens still do). */
  expireAccessTokens(): void {
    this.access.clear();
  }
}

export interface OAuthMcpServer {
  /** The MCP endpoint: `http://127.0.0.1:<port>/mcp`. */
  url: string;
  auth: TestAuthProvider;
  /** MCP requests that arrived with a valid token. */
  served: number;
  stop(): Promise<void>;
}

/**
 * An MCP server on a free loopback port that needs an OAuth access token (the SDK's auth router, bearer middleware
 * and streamable HTTP transport, stateless), with one tool `whoami`; it is also its own authorization server.
 */
export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const port = await freePort();
  const base = new URL(`http://127.0.0.1:${port}/`);
  const mcpUrl = new URL("/mcp", base);
  const provider = new TestAuthProvider();
  const app = createMcpExpressApp({ host: "127.0.0.1" });
  const off = { rateLimit: false as const };
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: base,
      resourceServerUrl: mcpUrl,
      authorizationOptions: off,
      tokenOptions: off,
      clientRegistrationOptions: off,
    }),
  );
  const state = { served: 0 };
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
  app.post("/mcp", bearer, async (req: http.IncomingMessage & { body?: unknown }, res: http.ServerResponse) => {
    state.served += 1;
    const server = new McpServer({ name: "oauth-test", version: "1" });
    server.registerTool("whoami", { description: "Says who the token belongs to", annotations: { readOnlyHint: true } }, (extra) => ({
      content: [{ type: "text", text: `client ${extra.authInfo?.clientId ?? "unknown"}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  const notAllowed = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(405, { allow: "POST" }).end();
  };
  app.get("/mcp", bearer, notAllowed);
  app.delete("/mcp", bearer, notAllowed);
  const listener = await new Promise<http.Server>((resolve, reject) => {
    const server = app.listen(port, "127.0.0.1", (error?: Error) => (error ? reject(error) : resolve(server as http.Server)));
  });
  return {
    url: mcpUrl.href,
    auth: provider,
    get served() {
      return state.served;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        listener.closeAllConnections();
        listener.close(() => resolve());
      }),
  };
}
