/**
 * A session's memory on a remote Chroma, set up from the environment alone (CHROMA_URL, CHROMA_TOKEN, CHROMA_TENANT,
 * CHROMA_DATABASE): a real Chroma behind a token-checking proxy. Remembered and recalled there; a wrong token at
 * start and a token revoked mid-session leave memory off with one line that names the server, not the token.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ChromaClient } from "chromadb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMemory } from "../../src/memory/open-memory.js";
import type { SessionOutcome } from "../../src/memory/types.js";
import { startRemoteChroma, type RemoteChroma } from "../helpers/chroma-token-proxy.js";

const TOKEN = "tok-session-51c0de";
const clock = { now: () => 1_700_000_000_000 };
let remote: RemoteChroma;
let dataDir = "";

const outcome: SessionOutcome = {
  sessionId: "s-remote",
  workspace: "/w/remote",
  task: "Add a retry to the upload client",
  status: "done",
  summary: "The upload client retries 5xx answers three times with backoff.",
  stop: null,
  plan: [],
  findings: [{ source: "src/upload.ts:12", note: "uploads go through one fetch wrapper in src/upload.ts" }],
  reviews: [],
  commands: [],
  filesChanged: ["src/upload.ts"],
};

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { CHROMA_URL: remote.url, CHROMA_TOKEN: TOKEN, CHROMA_TENANT: "acme", CHROMA_DATABASE: "agents", MINI_CURSOR_DATA_DIR: dataDir, ...extra };
}

beforeAll(async () => {
  dataDir = await realpath(await mkdtemp(path.join(os.tmpdir(), "mc-open-memory-remote-")));
  remote = await startRemoteChroma(TOKEN);
  await remote.createDatabase("acme", "agents");
});
afterAll(async () => {
  await remote?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("openMemory with a remote Chroma", () => {
  it("remembers and recalls through the token-guarded server, in its tenant and database", async () => {
    const offs: string[] = [];
    const runtime = await openMemory({ env: env(), clock, onOff: (reason) => offs.push(reason) });
    try {
      expect(runtime.failure).toBeUndefined();
      expect(runtime.status).toBe(`Chroma at ${remote.url} (tenant acme, database agents), collection mini-cursor-memory, embedder local-hash-v1`);
      expect(runtime.status).not.toContain(TOKEN);
      await runtime.store.remember(outcome);
      const recalled = await runtime.store.recall({ task: "retry uploads in the upload client", workspace: "/w/remote", limit: 5 });
      expect(recalled.join("\n")).toContain("retries 5xx answers");
      expect(offs).toEqual([]);
    } finally {
      await runtime.close();
    }
    // The memories are in acme/agents on the server itself, nowhere else; nothing local was started or written.
    const direct = new ChromaClient({ host: "127.0.0.1", port: remote.upstream.port, tenant: "acme", database: "agents" });
    const stored = await (await direct.getCollection({ name: "mini-cursor-memory", embeddingFunction: undefined })).count();
    expect(stored).toBeGreaterThan(0);
    expect(await new ChromaClient({ host: "127.0.0.1", port: remote.upstream.port }).listCollections()).toEqual([]);
    expect(remote.seen.filter((r) => r.token !== TOKEN)).toEqual([]);
  });

  it("is off with one clear line when the token is wrong", async () => {
    const runtime = await openMemory({ env: env({ CHROMA_TOKEN: "not-the-token" }), clock });
    expect(runtime.store.enabled).toBe(false);
    expect(runtime.status).toBe(
      `Chroma at ${remote.url} refused the token (HTTP 403); check CHROMA_TOKEN (and CHROMA_AUTH_HEADER if the server reads X-Chroma-Token)`,
    );
    await runtime.close();
  });

  it("is off with one clear line when the database does not exist", async () => {
    const runtime = await openMemory({ env: env({ CHROMA_DATABASE: "nope" }), clock });
    expect(runtime.store.enabled).toBe(false);
    expect(runtime.status).toBe(`Chroma at ${remote.url} has no database "nope" in tenant "acme" (CHROMA_DATABASE); create it there or fix the name`);
    await runtime.close();
  });

  it("turns memory off once, with the server's refusal as the reason, when the token is revoked mid-session", async () => {
    const offs: string[] = [];
    const runtime = await openMemory({ env: env(), clock, onOff: (reason) => offs.push(reason) });
    try {
      expect(runtime.store.enabled).toBe(true);
      remote.token = "rotated-token";
      expect(await runtime.store.recall({ task: "upload retries", workspace: "/w/remote", limit: 5 })).toEqual([]);
      await runtime.store.remember(outcome);
      expect(runtime.store.enabled).toBe(false);
      expect(offs).toEqual([
        `Chroma at ${remote.url} refused the token (HTTP 403); check CHROMA_TOKEN (and CHROMA_AUTH_HEADER if the server reads X-Chroma-Token)`,
      ]);
    } finally {
      remote.token = TOKEN;
      await runtime.close();
    }
  });
});
