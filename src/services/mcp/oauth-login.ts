import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { auth, extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../../platform/error-info.js";
import { InteractiveOAuthProvider } from "./oauth-provider.js";
import { oauthFile } from "./oauth-store.js";

/** How long `login` waits for the browser to come back. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export interface SignInServer {
  name: string;
  url: string;
  headers: Record<string, string>;
}

export interface SignInOptions {
  env: NodeJS.ProcessEnv;
  /** Shows the person the authorization URL. */
  onAuthorizationUrl: (url: URL) => void | Promise<void>;
  /** Ctrl-C: the sign-in ends, nothing more is stored. */
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type SignInResult = { ok: true; file: string } | { ok: false; reason: string; cancelled: boolean };

class SignInCancelled extends Error {}

interface CallbackServer {
  redirectUrl: string;
  /** Resolves with the authorization code of the first callback that brings our `state`. */
  code: Promise<string>;
  close(): Promise<void>;
}

function page(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" }).end(`${text}\n`);
}

function listen(server: http.Server, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      if (error.code === "EADDRINUSE" || error.code === "EACCES") resolve(false);
      else reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve(true);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, "127.0.0.1");
  });
}

/**
 * The loopback server the browser comes back to (`/callback?code=…&state=…`), on `preferredPort` when it is free (the
 * stored registration's redirect then still matches), else on any free port. A callback without our `state` is
 * answered 400 and ignored: only the browser we sent may finish this sign-in.
 */
async function startCallbackServer(serverName: string, state: string, preferredPort: number | undefined): Promise<CallbackServer> {
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  // Nobody may wait on it yet when the server closes early; the rejection is read by whoever awaits it.
  code.catch(() => undefined);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== "/callback") return page(res, 404, "Not found.");
    if (url.searchParams.get("state") !== state) return page(res, 400, "This sign-in answer is not for the sign-in mini-cursor is waiting for.");
    const error = url.searchParams.get("error");
    if (error) {
      const description = url.searchParams.get("error_description");
      page(res, 400, `Sign-in to ${serverName} failed: ${error}. You can close this tab.`);
      settle?.reject(new Error(`the authorization server answered ${error}${description ? ` (${description.slice(0, 200)})` : ""}`));
      return;
    }
    const got = url.searchParams.get("code");
    if (!got) return page(res, 400, "The answer has no authorization code.");
    page(res, 200, `Signed in to ${serverName}. You can close this tab and go back to mini-cursor.`);
    settle?.resolve(got);
  });
  const listened = preferredPort !== undefined && (await listen(server, preferredPort));
  if (!listened && !(await listen(server, 0))) throw new Error("no loopback port is free for the sign-in's callback");
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    code,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Where the server says its OAuth metadata is, and which scope it wants: from the 401 it answers without a token. */
async function probe(server: SignInServer, fetchFn: FetchLike): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  try {
    const response = await fetchFn(server.url, {
      method: "POST",
      headers: { ...server.headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "mini-cursor", version: "1" } },
      }),
    });
    await response.body?.cancel();
    if (response.status !== 401) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
  } catch (error) {
    if (error instanceof SignInCancelled) throw error;
    // Discovery then uses the well-known addresses.
    return {};
  }
}

function until<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new SignInCancelled());
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Signs in to an HTTP MCP server (the MCP authorization flow, through the SDK's `auth()`): discovery, dynamic client
 * registration, an authorization request with PKCE and `state`, the browser's callback on a loopback port, the code
 * exchanged for tokens, stored for sessions (src/services/mcp/oauth-store.ts). Never throws: the reason comes back.
 */
export async function signIn(server: SignInServer, options: SignInOptions): Promise<SignInResult> {
  const { env } = options;
  const timeoutMs = options.timeoutMs ?? SIGN_IN_TIMEOUT_MS;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new Error("timeout")), timeoutMs);
  const onCancel = () => stop.abort(new SignInCancelled());
  options.signal?.addEventListener("abort", onCancel, { once: true });
  if (options.signal?.aborted) onCancel();
  // Every request of the sign-in ends with it (Ctrl-C, the timeout).
  const fetchFn: FetchLike = async (url, init) => {
    try {
      return await fetch(url, { ...init, signal: stop.signal });
    } catch (error) {
      if (stop.signal.aborted) throw stop.signal.reason instanceof SignInCancelled ? stop.signal.reason : new Error("timeout");
      throw error;
    }
  };
  let callback: CallbackServer | undefined;
  try {
    const state = randomBytes(16).toString("hex");
    callback = await startCallbackServer(server.name, state, InteractiveOAuthProvider.registeredPort(env, server.url));
    const provider = new InteractiveOAuthProvider({
      env,
      serverUrl: server.url,
      redirectUrl: callback.redirectUrl,
      state,
      onAuthorizationUrl: options.onAuthorizationUrl,
    });
    const hints = await until(probe(server, fetchFn), stop.signal);
    const first = await until(auth(provider, { serverUrl: server.url, ...hints, fetchFn }), stop.signal);
    if (first === "REDIRECT") {
      const code = await until(callback.code, stop.signal);
      const second = await until(auth(provider, { serverUrl: server.url, ...hints, authorizationCode: code, fetchFn }), stop.signal);
      if (second !== "AUTHORIZED") return { ok: false, reason: "the authorization server did not give tokens for the code", cancelled: false };
    }
    return { ok: true, file: oauthFile(env, server.url) };
  } catch (error) {
    if (stop.signal.reason instanceof SignInCancelled || error instanceof SignInCancelled) return { ok: false, reason: "sign-in cancelled", cancelled: true };
    if (stop.signal.aborted) return { ok: false, reason: `no sign-in within ${Math.round(timeoutMs / 60_000)} minutes`, cancelled: false };
    const message = errorMessage(error);
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
    const reason = message === "fetch failed" ? `cannot reach ${server.url}${cause}` : `${message}${cause}`;
    return { ok: false, reason: reason.replace(/\s+/g, " ").slice(0, 300), cancelled: false };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onCancel);
    await callback?.close();
  }
}
