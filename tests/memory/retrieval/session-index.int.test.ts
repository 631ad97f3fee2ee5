import fs from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveMemoryStoreConfig } from "../../../src/platform/config/memory-settings.js";
import { chromaHeartbeat, ensureChromaServer } from "../../../src/memory/chroma/server.js";
import { liveLeases } from "../../../src/memory/chroma/leases.js";
import { chromaClient } from "../../../src/memory/collection.js";
import { systemClock } from "../../../src/platform/clock.js";
import { SessionCodeIndex } from "../../../src/memory/retrieval/session-index.js";
import { startTestChroma, type TestChroma } from "../../helpers/chroma.js";

/**
 * A session's codebase index on memory's connection to Chroma: one lease on the local server, not two, and closing
 * the index leaves that connection to memory, which closes it after.
 */
describe("SessionCodeIndex on a shared connection", () => {
  let base = "";
  let dataDir = "";
  let root = "";
  let chroma: TestChroma;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), "mc-session-index-")));
    dataDir = path.join(base, "data");
    root = path.join(base, "ws");
    fs.mkdirSync(path.join(root, "src"), { recursive: true });
    fs.writeFileSync(
      path.join(root, "src", "timing.js"),
      "/** Waits until typing stops, then calls fn. */\nexport function debounce(fn, wait) {\n  let t;\n  return () => { clearTimeout(t); t = setTimeout(fn, wait); };\n}\n",
    );
    chroma = await startTestChroma(dataDir);
  });
  afterAll(async () => {
    await chroma.stop();
    await rm(base, { recursive: true, force: true });
  });

  const settings = () => resolveMemoryStoreConfig({ MINI_CURSOR_DATA_DIR: dataDir });

  async function ready(index: SessionCodeIndex): Promise<string[]> {
    for (let i = 0; i < 200; i++) {
      const answer = await index.search({ query: "wait until typing stops" });
      if (answer.state === "ready") return answer.hits.map((h) => h.path);
      if (answer.state === "unavailable") throw new Error(answer.detail);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("the index never became ready");
  }

  it("builds and answers on memory's endpoint and client, holds no lease of its own, and leaves them open when closed", async () => {
    // What memory holds once it has opened: a lease on the running server and a client.
    const endpoint = await ensureChromaServer({ dataDir, idleSeconds: 60 });
    const client = chromaClient(endpoint);
    expect(liveLeases(dataDir)).toHaveLength(1);
    const index = new SessionCodeIndex({ root, env: { MINI_CURSOR_DATA_DIR: dataDir }, clock: systemClock, settings: settings() });
    index.begin({ endpoint, client });
    expect(await ready(index)).toContain("src/timing.js");
    expect(liveLeases(dataDir)).toHaveLength(1);
    await index.close();
    // Still memory's to use and to end.
    expect(liveLeases(dataDir)).toHaveLength(1);
    expect(await chromaHeartbeat(endpoint.url, 2_000)).toBe(true);
    await endpoint.stop();
    expect(liveLeases(dataDir)).toHaveLength(0);
  });

  it("without memory's connection opens its own, with a lease it drops when closed", async () => {
    const index = new SessionCodeIndex({ root, env: { MINI_CURSOR_DATA_DIR: dataDir }, clock: systemClock, settings: settings() });
    index.begin();
    expect(await ready(index)).toContain("src/timing.js");
    expect(liveLeases(dataDir)).toHaveLength(1);
    await index.close();
    expect(liveLeases(dataDir)).toHaveLength(0);
  });
});
