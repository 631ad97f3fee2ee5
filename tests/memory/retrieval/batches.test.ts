import { describe, expect, it } from "vitest";
import { batchesOf } from "../../../src/memory/retrieval/batches.js";

async function* source(sizes: number[], read: number[]): AsyncGenerator<number> {
  for (const [i, size] of sizes.entries()) {
    read.push(i);
    yield size;
  }
}

async function collect(sizes: number[], max: number): Promise<{ batches: number[][]; readBefore: number[] }> {
  const read: number[] = [];
  const batches: number[][] = [];
  const readBefore: number[] = [];
  for await (const batch of batchesOf(source(sizes, read), (n) => n, max)) {
    batches.push(batch);
    readBefore.push(read.length);
  }
  return { batches, readBefore };
}

describe("batchesOf", () => {
  it("fills each batch up to the limit, in order, and gives an item over the limit a batch of its own", async () => {
    const { batches } = await collect([40, 40, 20, 30, 200, 10, 96, 1], 96);
    expect(batches).toEqual([[40, 40], [20, 30], [200], [10], [96], [1]]);
  });

  it("reads only one item past the batch it hands out", async () => {
    const { readBefore } = await collect([50, 50, 50, 50], 100);
    expect(readBefore).toEqual([3, 4]);
  });

  it("hands out nothing for nothing", async () => {
    expect((await collect([], 96)).batches).toEqual([]);
  });
});
