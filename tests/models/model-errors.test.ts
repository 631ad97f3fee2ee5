import { describe, expect, it } from "vitest";
import { errorLine, isRejectedRequest, MalformedReplyError, ModelCallError, modelFaultOf } from "../../src/models/model-errors.js";

/** Errors that do not come through the checked client (another layer's deadline, a wrapped error, a plain bug). */
const context = { endpoint: "http://127.0.0.1:1/v1", model: "m", attempts: 3, timeoutMs: 120_000 };

describe("errorLine", () => {
  it("finds a ModelCallError behind LangChain's middleware wrapper (the original is its cause)", () => {
    const original = new ModelCallError({ kind: "malformed_reply", status: null, said: "x" }, 3, "the model endpoint sent junk.");
    const wrapped = Object.assign(new Error(original.message), { name: original.name, cause: original });
    expect(errorLine(wrapped, context)).toBe("the model endpoint sent junk.");
    expect(isRejectedRequest(Object.assign(new Error("x"), { cause: new ModelCallError({ kind: "rejected", status: 400, said: "" }, 1, "x") }))).toBe(true);
  });

  it("describes the agent's own call deadline as a timeout, and anything else as one line", () => {
    expect(errorLine(new Error("the model did not answer within 365 s"), context)).toMatch(
      /^the model endpoint http:\/\/127\.0\.0\.1:1\/v1 did not answer within 120 s \(3 times\)/,
    );
    expect(errorLine(new TypeError("boom\n    at x (y.js:1:1)"), context)).toBe("an unexpected error: boom at x (y.js:1:1)");
    expect(modelFaultOf(new MalformedReplyError("choices: []")).kind).toBe("malformed_reply");
  });
});
