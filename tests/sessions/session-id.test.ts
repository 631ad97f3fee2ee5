import { describe, expect, it } from "vitest";
import { newSessionId } from "../../src/sessions/session-id.js";

const at = (iso: string) => ({ now: () => Date.parse(iso) });

describe("newSessionId", () => {
  it("is the UTC date and time followed by four hex digits", () => {
    const id = newSessionId(at("2026-11-30T04:15:09.987Z"));
    expect(id).toMatch(/^20261130-041509-[0-9a-f]{4}$/);
  });

  it("pads single-digit fields", () => {
    expect(newSessionId(at("2026-01-02T03:04:05.000Z"))).toMatch(/^20260102-030405-[0-9a-f]{4}$/);
  });

  it("differs between calls at the same instant", () => {
    const clock = at("2026-11-30T04:15:00.000Z");
    const ids = new Set(Array.from({ length: 20 }, () => newSessionId(clock)));
    // 20 draws from 65536 values: a collision that leaves fewer than 18 distinct ids is vanishingly unlikely.
    expect(ids.size).toBeGreaterThanOrEqual(18);
  });

  it("sorts in time order", () => {
    const earlier = newSessionId(at("2026-11-30T23:59:59.000Z"));
    const later = newSessionId(at("2026-12-01T00:00:00.000Z"));
    expect(earlier.slice(0, 15) < later.slice(0, 15)).toBe(true);
  });
});
