import { describe, expect, it } from "vitest";
import { fuse, isPrivateModule, WEIGHTS, type Candidate } from "../../../src/memory/retrieval/rank.js";

const candidate = (id: string, path: string): Candidate => ({ id, path, symbol: "" });

describe("the hybrid ranking's private-module prior", () => {
  it("knows a private module by its file name: a single leading underscore, not a dunder", () => {
    expect(isPrivateModule("_baseClone.js")).toBe(true);
    expect(isPrivateModule("src/util/_helpers.py")).toBe(true);
    expect(isPrivateModule("pkg/__init__.py")).toBe(false);
    expect(isPrivateModule("src/__tests__/a.test.ts")).toBe(false);
    expect(isPrivateModule("_internal/clone.js")).toBe(false);
    expect(isPrivateModule("cloneDeep.js")).toBe(false);
  });

  it("puts a public module ahead of a private one that matched a little better, not one that matched far better", () => {
    const candidates = new Map([
      ["pub", candidate("pub", "cloneDeep.js")],
      ["near", candidate("near", "_baseClone.js")],
      ["far", candidate("far", "_copyArray.js")],
      ["low", candidate("low", "noop.js")],
    ]);
    // Vector scores: the private helper slightly above the public module; BM25 agrees.
    const close = fuse(
      [
        { id: "near", score: 0.9 },
        { id: "pub", score: 0.86 },
        { id: "low", score: 0.5 },
      ],
      [
        { id: "near", score: 9 },
        { id: "pub", score: 8.5 },
        { id: "low", score: 1 },
      ],
      candidates,
      new Set(["copy"]),
      false,
    );
    expect(close.map((s) => s.id)).toEqual(["pub", "near", "low"]);
    // Without the prior (vector or BM25 alone) the order is the scores'.
    const plain = fuse(
      [
        { id: "near", score: 0.9 },
        { id: "pub", score: 0.86 },
        { id: "low", score: 0.5 },
      ],
      [],
      candidates,
      new Set(["copy"]),
      false,
      { ...WEIGHTS, privateModule: 1 },
    );
    expect(plain.map((s) => s.id)).toEqual(["near", "pub", "low"]);
    // A private module that matches far better than anything public still comes first.
    const clear = fuse(
      [
        { id: "far", score: 0.95 },
        { id: "pub", score: 0.4 },
        { id: "low", score: 0.3 },
      ],
      [
        { id: "far", score: 12 },
        { id: "pub", score: 2 },
      ],
      candidates,
      new Set(["copy"]),
      false,
    );
    expect(clear[0]?.id).toBe("far");
  });
});
