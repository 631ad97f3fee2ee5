import { describe, expect, it } from "vitest";
import { isTransientNetworkError, isTransientStatus, retryAfterMs } from "../../../src/memory/embeddings/retry-after.js";

const NOW = Date.parse("Thu, 03 Dec 2026 10:00:00 GMT");

describe("retryAfterMs", () => {
  it.each<[Record<string, string>, number | undefined]>([
    [{}, undefined],
    [{ "retry-after": "20" }, 20_000],
    [{ "retry-after": "0.5" }, 500],
    [{ "retry-after": "0" }, 0],
    [{ "retry-after-ms": "250.4" }, 251],
    [{ "retry-after-ms": "250", "retry-after": "9" }, 250],
    [{ "retry-after-ms": "soon", "retry-after": "9" }, 9_000],
    [{ "retry-after": "Thu, 03 Dec 2026 10:01:00 GMT" }, 60_000],
    [{ "retry-after": "Thu, 03 Dec 2026 09:59:00 GMT" }, 0],
    [{ "retry-after": "-5" }, undefined],
    [{ "retry-after": "whenever" }, undefined],
  ])("%j -> %s", (headers, expected) => {
    expect(retryAfterMs(new Headers(headers), NOW)).toBe(expected);
  });
});

describe("what is worth trying again", () => {
  it("statuses that mean not now, not those that mean not this", () => {
    expect([408, 429, 500, 502, 503, 504, 529].every(isTransientStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 422].some(isTransientStatus)).toBe(false);
  });

  it("a timeout and a dropped connection, not a refused one", () => {
    const withCode = (code: string) => new TypeError("fetch failed", { cause: Object.assign(new Error(code), { code }) });
    const timeout = new DOMException("The operation was aborted due to timeout", "TimeoutError");
    expect(isTransientNetworkError(timeout)).toBe(true);
    expect(isTransientNetworkError(withCode("ECONNRESET"))).toBe(true);
    expect(isTransientNetworkError(withCode("UND_ERR_SOCKET"))).toBe(true);
    expect(isTransientNetworkError(withCode("ECONNREFUSED"))).toBe(false);
    expect(isTransientNetworkError(withCode("ENOTFOUND"))).toBe(false);
    expect(isTransientNetworkError("ECONNRESET")).toBe(false);
  });
});
