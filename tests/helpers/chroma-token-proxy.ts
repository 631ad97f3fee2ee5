/**
 * The "remote" Chroma of the tests: a real Chroma server behind a token-checking reverse proxy on 127.0.0.1. The
 * Chroma server bundled with the chromadb package (Rust, 1.0.x) has no token authentication of its own, so the
 * proxy plays the part of Chroma's token auth: `Authorization: Bearer <token>` or `X-Chroma-Token: <token>`,
 * 401 when no token came, 403 when a wrong one did, and otherwise forwards the request unchanged.
 */
import http from "node:http";
import { AdminClient } from "chromadb";
import { startTestChroma, type TestChroma } from "./chroma.js";

export type TokenHeader = "authorization" | "x-chroma-token";

export interface RemoteChroma {
  /** The proxy: what CHROMA_URL points at. */
  url: string;
  port: number;
  /** The Chroma server behind it, reachable without a token (for checks from the test). */
  upstream: TestChroma;
  /** The token the proxy accepts now; change it to revoke the old one mid-session. */
  token: string;
  header: TokenHeader;
  /** Every request that reached the proxy: its path and the token it carried ("" when none). */
  seen: { path: string; token: string }[];
  /** Creates a tenant and a database in it through the client's admin API (with the token). */
  createDatabase(tenant: string, database: string): Promise<void>;
  stop(): Promise<void>;
}

function tokenOf(req: http.IncomingMessage, header: TokenHeader): string {
  const raw = req.headers[header];
  const value = typeof raw === "string" ? raw : "";
  if (header === "x-chroma-token") return value;
  return value.startsWith("Bearer ") ? value.slice("Bearer ".length) : "";
}

export async function startRemoteChroma(token: string, header: TokenHeader = "authorization"): Promise<RemoteChroma> {
  const upstream = await startTestChroma();
  const seen: RemoteChroma["seen"] = [];
  const state = { token };
  const server = http.createServer((req, res) => {
    const got = tokenOf(req, header);
    seen.push({ path: req.url ?? "", token: got });
    if (got !== state.token) {
      res.writeHead(got === "" ? 401 : 403, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: got === "" ? "AuthError" : "Forbidden", message: got === "" ? "Unauthorized" : "Forbidden" }));
      return;
    }
    const forward = http.request(
      { host: "127.0.0.1", port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: `127.0.0.1:${upstream.port}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", resolve);
    });
  } catch (error) {
    await upstream.stop();
    throw error;
  }
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    upstream,
    get token() {
      return state.token;
    },
    set token(value: string) {
      state.token = value;
    },
    header,
    seen,
    async createDatabase(tenant, database) {
      const headers: Record<string, string> = header === "authorization" ? { authorization: `Bearer ${state.token}` } : { "x-chroma-token": state.token };
      const admin = new AdminClient({ host: "127.0.0.1", port, ssl: false, headers });
      if (tenant !== "default_tenant") await admin.createTenant({ name: tenant });
      await admin.createDatabase({ name: database, tenant });
    },
    async stop() {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await upstream.stop();
    },
  };
}
