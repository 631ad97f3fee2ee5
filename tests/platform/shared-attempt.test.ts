import { describe, expect, it } from "vitest";
import { sharedAttempt } from "../../src/platform/shared-attempt.js";

describe("sharedAttempt", () => {
  it("shares one attempt among concurrent callers and keeps a success", async () => {
    let calls = 0;
    const get = sharedAttempt(async () => ++calls);
    expect(await Promise.all([get(), get(), get()])).toEqual([1, 1, 1]);
    expect(await get()).toBe(1);
    expect(calls).toBe(1);
  });

  it("forgets a failure, so the next caller tries again", async () => {
    let calls = 0;
    const get = sharedAttempt(async () => {
      calls += 1;
      if (calls === 1) throw new Error("down");
      return "up";
    });
    await expect(Promise.all([get(), get()])).rejects.toThrow("down");
    expect(await get()).toBe("up");
    expect(calls).toBe(2);
  });
});
