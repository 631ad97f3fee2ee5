import { describe, expect, it } from "vitest";
import { isBelow, isInside } from "../../src/platform/path-inside.js";

/** The one containment check (issue 39: six variants, one of which took a folder named `..cache` for the parent). */
describe("isInside / isBelow", () => {
  it.each([
    ["/ws", "/ws", true, false],
    ["/ws", "/ws/a", true, true],
    ["/ws", "/ws/..cache", true, true],
    ["/ws", "/ws/..cache/x", true, true],
    ["/ws", "/ws/.../x", true, true],
    ["/ws", "/ws2", false, false],
    ["/ws", "/w", false, false],
    ["/ws", "/", false, false],
    ["/ws/a", "/ws/b", false, false],
    ["/", "/etc", true, true],
  ])("%s contains %s: inside %s, below %s", (parent, child, inside, below) => {
    expect(isInside(parent, child)).toBe(inside);
    expect(isBelow(parent, child)).toBe(below);
  });
});
