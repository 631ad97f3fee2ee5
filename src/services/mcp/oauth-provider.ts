import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { deleteOAuth, readOAuth, updateOAuth, type StoredOAuth } from "./oauth-store.js";

/**
 * A session reached a server that needs a sign-in a person must do (`mini-cursor mcp login`): there is no stored
 * sign-in, or the stored one can no longer be refreshed. The connection fails with that line; nothing is opened.
 */
export class SignInNeededError extends Error {
  constructor() {
    super("needs sign-in");
    this.name = "SignInNeededError";
  }
}

/**
 * The server answered 401 but no OAuth authorization server could be found for it (no metadata): a sign-in cannot
 * help; its headers (an API key) are what is missing or wrong.
 */
export class OAuthUnavailableError extends Error {
  constructor(serverUrl: string) {
    super(`${serverUrl} answered HTTP 401 and offers no OAuth sign-in (no authorization server metadata): are its headers right?`);
    this.name = "OAuthUnavailableError";
  }
}

/** The line a connection fails with when its server needs a sign-in. */
export function signInLine(serverName: string): string {
  return `needs sign-in: run mini-cursor mcp login ${serverName}`;
}

/** What we register as (dynamic client registration): a public client (no secret) with PKCE, on a loopback redirect. */
export function clientMetadataFor(redirectUrl: string): OAuthClientMetadata {
  return {
    client_name: "mini-cursor",
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
}

type CredentialScope = "all" | "client" | "tokens" | "verifier" | "discovery";

/** Drops what the SDK found invalid (a refused refresh token, a registration the server forgot). */
function invalidate(env: NodeJS.ProcessEnv, serverUrl: string, scope: CredentialScope): void {
  if (scope === "all") {
    deleteOAuth(env, serverUrl);
    return;
  }
  if (scope !== "client" && scope !== "tokens") return;
  updateOAuth(env, serverUrl, (stored) => {
    const next: StoredOAuth = { ...stored };
    if (scope === "client") delete next.clientInformation;
    delete next.tokens;
    delete next.tokensSavedAt;
    return next;
  });
}

/** The loopback redirect the stored registration was made with, if any. */
function registeredRedirect(client: OAuthClientInformationMixed | undefined): string | undefined {
  const uris = client && "redirect_uris" in client ? client.redirect_uris : undefined;
  return uris?.[0];
}

/**
 * A session's provider: it hands the SDK the stored registration and tokens and keeps the tokens the SDK refreshes
 * (it refreshes by itself when a request gets 401). It never starts a sign-in: with nothing stored, or a refresh
 * refused, it throws SignInNeededError (it registers no client either: that is `login`'s job).
 */
export class SessionOAuthProvider implements OAuthClientProvider {
  private stored: StoredOAuth | undefined;
  /** What the SDK's discovery found this time (kept for this connection only). */
  private offersOAuth = true;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly serverUrl: string,
  ) {}

  private load(): StoredOAuth {
    this.stored ??= readOAuth(this.env, this.serverUrl);
    return this.stored;
  }

  // Never undefined: the SDK takes a provider without one for a client-credentials client.
  get redirectUrl(): string {
    return registeredRedirect(this.load().clientInformation) ?? "http://127.0.0.1/callback";
  }

  get clientMetadata(): OAuthClientMetadata {
    return clientMetadataFor(this.redirectUrl);
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.offersOAuth = state.authorizationServerMetadata !== undefined;
  }

  clientInformation(): OAuthClientInformationMixed {
    const client = this.load().clientInformation;
    if (!client) throw this.offersOAuth ? new SignInNeededError() : new OAuthUnavailableError(this.serverUrl);
    return client;
  }

  tokens(): OAuthTokens | undefined {
    return this.load().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    updateOAuth(this.env, this.serverUrl, (stored) => ({ ...stored, tokens, tokensSavedAt: Date.now() }));
    this.stored = undefined;
  }

  redirectToAuthorization(): never {
    throw new SignInNeededError();
  }

  saveCodeVerifier(): void {
    // No sign-in starts here (redirectToAuthorization refuses), so no verifier is kept.
  }

  codeVerifier(): never {
    throw new SignInNeededError();
  }

  invalidateCredentials(scope: CredentialScope): void {
    invalidate(this.env, this.serverUrl, scope);
    this.stored = undefined;
  }
}

export interface InteractiveOAuthOptions {
  env: NodeJS.ProcessEnv;
  serverUrl: string;
  /** `http://127.0.0.1:<port>/callback`, where the sign-in's callback server listens. */
  redirectUrl: string;
  /** The OAuth `state` sent with the authorization request; the callback must bring it back. */
  state: string;
  /** Shows the person where to sign in (printed; a browser opened when there is one). */
  onAuthorizationUrl: (url: URL) => void | Promise<void>;
}

/**
 * `mini-cursor mcp login`'s provider: it registers the client when there is no registration for this redirect URL,
 * always starts a new authorization (stored tokens are not offered, so a login is a login), keeps the PKCE verifier
 * in memory only, and stores the registration and the tokens it gets.
 */
export class InteractiveOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private offersOAuth = true;

  constructor(private readonly options: InteractiveOAuthOptions) {}

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return clientMetadataFor(this.options.redirectUrl);
  }

  state(): string {
    return this.options.state;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.offersOAuth = state.authorizationServerMetadata !== undefined;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    // Registering at guessed addresses would only fail less clearly.
    if (!this.offersOAuth) throw new OAuthUnavailableError(this.options.serverUrl);
    const client = readOAuth(this.options.env, this.options.serverUrl).clientInformation;
    // A registration made for another port's redirect would be refused: register again.
    return client && registeredRedirect(client) === this.options.redirectUrl ? client : undefined;
  }

  saveClientInformation(clientInformation: OAuthClientInformationMixed): void {
    updateOAuth(this.options.env, this.options.serverUrl, (stored) => ({ ...stored, clientInformation }));
  }

  tokens(): undefined {
    return undefined;
  }

  saveTokens(tokens: OAuthTokens): void {
    updateOAuth(this.options.env, this.options.serverUrl, (stored) => ({ ...stored, tokens, tokensSavedAt: Date.now() }));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    await this.options.onAuthorizationUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error("the sign-in did not start (no PKCE verifier)");
    return this.verifier;
  }

  invalidateCredentials(scope: CredentialScope): void {
    // Only the registration matters during a login (its tokens are new): one the server forgot is registered again.
    if (scope === "all" || scope === "client") invalidate(this.options.env, this.options.serverUrl, "client");
  }

  /** The port of the loopback redirect the stored registration uses, so a new login can reuse the registration. */
  static registeredPort(env: NodeJS.ProcessEnv, serverUrl: string): number | undefined {
    const uri = registeredRedirect(readOAuth(env, serverUrl).clientInformation);
    if (!uri) return undefined;
    try {
      const url = new URL(uri);
      return url.hostname === "127.0.0.1" && url.pathname === "/callback" && url.port ? Number(url.port) : undefined;
    } catch {
      return undefined;
    }
  }
}
