import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { deleteOAuth, oauthFile, oauthFolder, readOAuth, updateOAuth, writeOAuth } from "../../../src/services/mcp/oauth-store.js";
import { SessionOAuthProvider, SignInNeededError } from "../../../src/services/mcp/oauth-provider.js";

let tmp: TempWorkspace;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  tmp = await makeTempWorkspace();
  env = { XDG_CONFIG_HOME: path.join(tmp.root, "xdg"), HOME: path.join(tmp.root, "home") };
});
afterEach(async () => {
  await tmp.cleanup();
});

const A = "https://mcp.example.com/mcp";
const B = "https://other.example.com/mcp";
const tokens = (n: number) => ({
  access_token: `at-${n}`,
  token_type: "bearer",
  expires_in: 3600,
  refresh_token: `rt-${n}`,
  issuer: "https://auth.example.com/",
});
const client = { client_id: "c-1", redirect_uris: ["http://127.0.0.1:4567/callback"], issuer: "https://auth.example.com/" };

function mode(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

describe("the MCP OAuth token store", () => {
  it("keeps one owner-only file per server URL in the user's config folder, named by the URL's hash", () => {
    const file = writeOAuth(env, { serverUrl: A, clientInformation: client, tokens: tokens(1), tokensSavedAt: 1000 });
    const hash = createHash("sha256").update(A).digest("hex").slice(0, 16);
    expect(file).toBe(path.join(tmp.root, "xdg/mini-cursor/mcp-oauth", `${hash}.json`));
    expect(oauthFile(env, A)).toBe(file);
    expect(mode(file)).toBe(0o600);
    expect(mode(oauthFolder(env))).toBe(0o700);
    expect(readOAuth(env, A)).toEqual({ serverUrl: A, clientInformation: client, tokens: tokens(1), tokensSavedAt: 1000 });

    writeOAuth(env, { serverUrl: B, tokens: tokens(2) });
    expect(oauthFile(env, B)).not.toBe(file);
    expect(readOAuth(env, B).tokens?.access_token).toBe("at-2");
    expect(readOAuth(env, A).tokens?.access_token).toBe("at-1");
    expect(fs.readdirSync(oauthFolder(env)).sort()).toEqual([path.basename(file), path.basename(oauthFile(env, B))].sort());
  });

  it("without XDG_CONFIG_HOME, uses ~/.config; an existing folder is made owner-only", () => {
    const homeOnly = { HOME: path.join(tmp.root, "home") };
    const folder = path.join(tmp.root, "home/.config/mini-cursor/mcp-oauth");
    fs.mkdirSync(folder, { recursive: true, mode: 0o755 });
    fs.chmodSync(folder, 0o755);
    const file = writeOAuth(homeOnly, { serverUrl: A, tokens: tokens(1) });
    expect(path.dirname(file)).toBe(folder);
    expect(mode(folder)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
  });

  it("replaces the file atomically: a new file renamed over the old one, nothing left beside it", () => {
    const file = writeOAuth(env, { serverUrl: A, tokens: tokens(1) });
    const before = fs.statSync(file).ino;
    // A reader holding the old file keeps reading the old, whole content.
    const held = fs.openSync(file, "r");
    try {
      updateOAuth(env, A, (stored) => ({ ...stored, tokens: tokens(2) }));
      expect(JSON.parse(fs.readFileSync(held, "utf8"))).toMatchObject({ tokens: { access_token: "at-1" } });
    } finally {
      fs.closeSync(held);
    }
    expect(fs.statSync(file).ino).not.toBe(before);
    expect(mode(file)).toBe(0o600);
    expect(readOAuth(env, A).tokens?.access_token).toBe("at-2");
    expect(fs.readdirSync(oauthFolder(env))).toEqual([path.basename(file)]);
  });

  it("logout deletes the file; a missing or damaged file reads as no sign-in", () => {
    writeOAuth(env, { serverUrl: A, tokens: tokens(1) });
    writeOAuth(env, { serverUrl: B, tokens: tokens(2) });
    expect(deleteOAuth(env, A)).toBe(true);
    expect(fs.existsSync(oauthFile(env, A))).toBe(false);
    expect(deleteOAuth(env, A)).toBe(false);
    expect(readOAuth(env, A)).toEqual({ serverUrl: A });
    expect(readOAuth(env, B).tokens?.access_token).toBe("at-2");
    fs.writeFileSync(oauthFile(env, B), "{not json");
    expect(readOAuth(env, B)).toEqual({ serverUrl: B });
  });
});

describe("a session's OAuth provider", () => {
  it("needs a sign-in when nothing is stored, and never starts one itself", () => {
    const provider = new SessionOAuthProvider(env, A);
    expect(provider.tokens()).toBeUndefined();
    expect(() => provider.clientInformation()).toThrow(SignInNeededError);
    expect(() => provider.redirectToAuthorization()).toThrow(SignInNeededError);
    expect(fs.existsSync(oauthFile(env, A))).toBe(false);
  });

  it("hands out the stored registration and tokens, keeps refreshed ones, and drops those the server refused", () => {
    writeOAuth(env, { serverUrl: A, clientInformation: client, tokens: tokens(1) });
    const provider = new SessionOAuthProvider(env, A);
    expect(provider.clientInformation()).toEqual(client);
    expect(provider.redirectUrl).toBe("http://127.0.0.1:4567/callback");
    expect(provider.tokens()?.access_token).toBe("at-1");
    provider.saveTokens(tokens(2));
    expect(provider.tokens()?.access_token).toBe("at-2");
    expect(readOAuth(env, A).tokens?.refresh_token).toBe("rt-2");
    expect(readOAuth(env, A).tokensSavedAt).toBeGreaterThan(0);
    provider.invalidateCredentials("tokens");
    expect(provider.tokens()).toBeUndefined();
    expect(readOAuth(env, A).clientInformation).toEqual(client);
    provider.invalidateCredentials("all");
    expect(fs.existsSync(oauthFile(env, A))).toBe(false);
  });
});
