/**
 * The local Chroma server asks glibc for transparent huge pages: its vector indexes are allocated whole, and
 * first touches of 4 KiB pages are what made creating and loading a collection slow.
 */
import fs from "node:fs";
import { ChromaClient } from "chromadb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readServerState } from "../../../src/memory/chroma/state-file.js";
import { startTestChroma, type TestChroma } from "../../helpers/chroma.js";

describe("the local server's vector indexes", () => {
  let chroma: TestChroma | undefined;
  afterEach(async () => {
    await chroma?.stop();
    chroma = undefined;
  });

  it("run with the tunable (and without the CLI's CA bundle), and a collection's index uses huge pages where the kernel offers them", async () => {
    vi.stubEnv("NODE_EXTRA_CA_CERTS", "/etc/ssl/certs/ca-certificates.crt");
    try {
      chroma = await startTestChroma();
    } finally {
      vi.unstubAllEnvs();
    }
    const pid = readServerState(chroma.dataDir)?.pid;
    expect(pid).toBeGreaterThan(0);
    const environ = fs.readFileSync(`/proc/${pid}/environ`, "latin1").split("\0");
    expect(environ).toContain("GLIBC_TUNABLES=glibc.malloc.hugetlb=1");
    expect(environ.filter((entry) => entry.startsWith("NODE_EXTRA_CA_CERTS="))).toEqual([]);

    const client = new ChromaClient({ host: "127.0.0.1", port: chroma.port });
    const collection = await client.createCollection({ name: "huge-pages", embeddingFunction: null, configuration: { hnsw: { space: "cosine" } } });
    await collection.add({ ids: ["a"], embeddings: [Array.from({ length: 2048 }, (_, i) => Math.sin(i))], documents: ["a"] });
    const anonHugeKb = Number(/^AnonHugePages:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? "0");
    // "always [madvise] never": only "never" refuses what malloc asks for.
    const thp = fs.readFileSync("/sys/kernel/mm/transparent_hugepage/enabled", "utf8");
    if (thp.includes("[never]")) expect(anonHugeKb).toBe(0);
    // How much of the index sits in huge pages depends on the kernel (one machine kind put most of the 83 MB index
    // there, another touches ~6 MB of it at first); without the tunable it is none at all.
    else expect(anonHugeKb).toBeGreaterThan(0);
  });
});
