import { describe, expect, it } from "vitest";
import { runCli, startCli } from "../../faces/cli/cli-process.js";
import { chromaClient } from "../../../src/memory/collection.js";
import { readCodeCollection } from "../../../src/memory/retrieval/code-collection.js";
import { testChromaEndpoint } from "../../helpers/chroma.js";
import type { EmbeddingsReply, EmbeddingsServer } from "../embeddings/embeddings-server.js";
import { oneChunkModules, rateLimited, useRemoteEmbedderFixture } from "./remote-embedder-fixture.js";

/**
 * `mini-cursor index build` with an OpenAI-compatible embeddings endpoint that rate-limits, through the built CLI:
 * real Chroma, a real embeddings server on 127.0.0.1.
 */
const fixture = useRemoteEmbedderFixture();
const MODULES = oneChunkModules(150, "js");

/** The CLI's environment for an embeddings server that answers `decide`'s reply to the n-th request, else vectors. */
async function cliEnv(decide: (n: number, inputs: string[]) => EmbeddingsReply | undefined): Promise<Record<string, string>> {
  const { server } = await fixture.embeddings(decide);
  embeddings = server;
  return {
    CHROMA_URL: fixture.chroma().url,
    // The index's store goes to the test Chroma's data dir, not the home folder runCli passes on.
    MINI_CURSOR_DATA_DIR: fixture.chroma().dataDir,
    MINI_CURSOR_EMBEDDINGS: "openai",
    MINI_CURSOR_EMBEDDING_MODEL: "remote-embedder",
    MINI_CURSOR_EMBEDDING_BASE_URL: server.baseUrl,
    MINI_CURSOR_EMBEDDING_API_KEY: "sk-embeddings-test",
  };
}
let embeddings: EmbeddingsServer | undefined;

describe("index build through a rate-limited embeddings endpoint (built CLI)", () => {
  it("says why it waits and for how long, then finishes", async () => {
    const ws = await fixture.workspace(MODULES);
    const env = await cliEnv((n) => (n === 2 ? rateLimited(300) : undefined));
    const build = await runCli(["index", "build"], { cwd: ws.root, env });
    expect(build.code, build.stderr).toBe(0);
    expect(build.stderr).toMatch(
      /^indexing: embeddings request to http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings \(model "remote-embedder"\) failed: HTTP 429: Rate limit reached for tokens; trying again in 0\.3 s \(attempt 2 of 6\)$/m,
    );
    expect(build.stdout).toMatch(/^Indexed 150 files \(150 chunks\): 150 embedded, 0 removed, in \d+\.\d s\.$/m);
    expect(build.stderr + build.stdout).not.toContain("sk-embeddings-test");
  });

  it("stops early when the server asks to wait hours, says when to run it again, and the next build continues", async () => {
    const ws = await fixture.workspace(MODULES);
    // A daily limit: the texts the server still embeds before it answers every request with "try again in 2 hours":
    // the probe of the vector length and the first batch (96 chunks).
    let allowance = 1 + 96;
    const dailyLimit: EmbeddingsReply = {
      status: 429,
      json: { error: { message: "Rate limit reached for requests per day (RPD)" } },
      headers: { "retry-after": "7200" },
    };
    const env = await cliEnv((_n, inputs) => {
      if (inputs.length > allowance) return dailyLimit;
      allowance -= inputs.length;
      return undefined;
    });
    const first = await runCli(["index", "build"], { cwd: ws.root, env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /^Indexed 96 files \(96 chunks\): 96 embedded, 0 removed, in \d+\.\d s; the embeddings server asked to wait 120 min \(.*Rate limit reached for requests per day \(RPD\)\): run it again then to embed the rest\.$/m,
    );

    // Still over the limit: the index opens without asking the server anything (no probe of the vector length),
    // the first batch is turned away, and the build says again when to run it; nothing lost.
    const refused = await runCli(["index", "build"], { cwd: ws.root, env });
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stdout).toMatch(
      /^Indexed 96 files \(96 chunks\): 0 embedded, 0 removed, in \d+\.\d s; the embeddings server asked to wait 120 min \(.*Rate limit reached for requests per day \(RPD\)\): run it again then to embed the rest\.$/m,
    );

    // Reading and deleting the index ask the embedder nothing: they work while it turns every request away.
    const status = await runCli(["index", "status", "--json"], { cwd: ws.root, env });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ files: 96, chunks: 96, embedder: "openai-compatible:remote-embedder" });

    allowance = Infinity;
    const last = await runCli(["index", "build", "--json"], { cwd: ws.root, env });
    expect(JSON.parse(last.stdout)).toMatchObject({ files: 150, changed: 54, partial: false });

    // Another embedder configured now: status says what built the index and leaves it as it is.
    const local = { CHROMA_URL: fixture.chroma().url };
    const other = await runCli(["index", "status"], { cwd: ws.root, env: local });
    expect(other.stdout).toContain("150 files, 150 chunks\nCollection ");
    expect(other.stdout).toContain(
      "embedder openai-compatible:remote-embedder (now configured: local-hash-v1; the next build or session rebuilds the index with it)",
    );
    expect(JSON.parse((await runCli(["index", "status", "--json"], { cwd: ws.root, env })).stdout)).toMatchObject({ files: 150 });
    allowance = 0;
    expect((await runCli(["index", "clear"], { cwd: ws.root, env })).stdout).toContain("Cleared the index");
  });

  it("continues a build killed mid-way where it stopped: what was written stays, only the rest is embedded", async () => {
    const ws = await fixture.workspace(MODULES);
    // The probe of the vector length and the first batch (96 chunks) are answered; then the server stops answering.
    let allowance = 1 + 96;
    const env = await cliEnv((_n, inputs) => {
      if (inputs.length > allowance) return { hang: true };
      allowance -= inputs.length;
      return undefined;
    });
    const build = startCli(["index", "build"], { cwd: ws.root, env });
    const client = chromaClient(testChromaEndpoint(fixture.chroma()));
    const inChroma = async () => (await (await readCodeCollection(client, ws.root))?.count()) ?? 0;
    for (let waited = 0; (await inChroma()) < 96; waited += 100) {
      if (waited > 30_000) throw new Error(`the first batch never reached Chroma: ${build.stderr()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Killed as the out-of-memory killer or a closed laptop lid would: no chance to save anything.
    build.child.kill("SIGKILL");
    expect((await build.done).signal).toBe("SIGKILL");
    allowance = Infinity;
    const again = await runCli(["index", "build", "--json"], { cwd: ws.root, env });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ files: 150, chunks: 150, changed: 54, partial: false });
  });

  it("says 1 file and 1 chunk, not 1 files", async () => {
    const ws = await fixture.workspace(oneChunkModules(1, "js"));
    const env = await cliEnv(() => undefined);
    const build = await runCli(["index", "build"], { cwd: ws.root, env });
    expect(build.code, build.stderr).toBe(0);
    expect(build.stdout).toMatch(/^Indexed 1 file \(1 chunk\): 1 embedded, 0 removed, in \d+\.\d s\.\n$/);
    const status = await runCli(["index", "status"], { cwd: ws.root, env });
    expect(status.stdout).toMatch(/^1 file, 1 chunk\nCollection /);
  });

  it("index status on a workspace without an index says so and creates nothing", async () => {
    const ws = await fixture.workspace(MODULES);
    const env = await cliEnv(() => ({ status: 503, json: { error: "down" } }));
    const status = await runCli(["index", "status"], { cwd: ws.root, env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`No index for ${ws.root} yet`);
    expect(await readCodeCollection(chromaClient(testChromaEndpoint(fixture.chroma())), ws.root)).toBeNull();
    expect(embeddings?.requests).toHaveLength(0);
  });
  it("index search ranks by words when the endpoint cannot embed the question, and says so on stderr", async () => {
    const ws = await fixture.workspace(MODULES);
    const env = await cliEnv((_n, inputs) => (inputs[0] === "the forty-second module m42" ? { status: 503, json: { error: "overloaded" } } : undefined));
    expect((await runCli(["index", "build"], { cwd: ws.root, env })).code).toBe(0);
    const search = await runCli(["index", "search", "the forty-second module m42", "--json", "--limit", "3"], { cwd: ws.root, env });
    expect(search.code, search.stderr).toBe(0);
    expect((JSON.parse(search.stdout) as { path: string }[])[0]?.path).toBe("src/m42.js");
    expect(search.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^mini-cursor: ranked by words only: the question could not be embedded \(.*HTTP 503: overloaded\)$/),
    ]);
  });
});
