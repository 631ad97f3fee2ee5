import { describe, expect, it } from "vitest";
import { elicitFields, parseFieldValue, withDefaults } from "../../../src/services/mcp/elicitation.js";

/**
 * Forms as MCP servers send them (the spec's elicitation schema: a flat object of string, number, integer, boolean
 * and enum fields; SEP-1034 defaults, which the conformance scenario elicitation-sep1034-client-defaults checks).
 */
describe("an elicitation's fields", () => {
  const fields = elicitFields({
    type: "object",
    properties: {
      email: { type: "string", title: "Email", description: "where to write", format: "email" },
      age: { type: "integer", minimum: 18, maximum: 130 },
      ratio: { type: "number", default: 0.5 },
      ok: { type: "boolean", default: true },
      size: { type: "string", enum: ["s", "m"], enumNames: ["Small", "Medium"], default: "m" },
      tier: {
        type: "string",
        oneOf: [
          { const: "free", title: "Free" },
          { const: "pro", title: "Pro" },
        ],
      },
      odd: { type: "object" },
      badDefault: { type: "integer", default: "three" },
    },
    required: ["email", "age"],
  });

  it("are read in order with their titles, kinds, choices, bounds and usable defaults", () => {
    expect(fields).toEqual([
      { name: "email", title: "Email", description: "where to write", type: "string", required: true },
      { name: "age", title: "age", type: "integer", required: true, minimum: 18, maximum: 130 },
      { name: "ratio", title: "ratio", type: "number", required: false, default: 0.5 },
      { name: "ok", title: "ok", type: "boolean", required: false, default: true },
      {
        name: "size",
        title: "size",
        type: "string",
        required: false,
        default: "m",
        choices: [
          { value: "s", label: "Small" },
          { value: "m", label: "Medium" },
        ],
      },
      {
        name: "tier",
        title: "tier",
        type: "string",
        required: false,
        choices: [
          { value: "free", label: "Free" },
          { value: "pro", label: "Pro" },
        ],
      },
      { name: "odd", title: "odd", type: "string", required: false },
      { name: "badDefault", title: "badDefault", type: "integer", required: false },
    ]);
    expect(elicitFields(undefined)).toEqual([]);
  });

  it("take typed text as values, or say what is wrong", () => {
    const byName = (name: string) => fields.find((f) => f.name === name)!;
    expect(parseFieldValue(byName("email"), " a@b.c ")).toEqual({ value: "a@b.c" });
    expect(parseFieldValue(byName("email"), "")).toEqual({ problem: "Email is required." });
    expect(parseFieldValue(byName("age"), "17")).toEqual({ problem: "at least 18." });
    expect(parseFieldValue(byName("age"), "20.5")).toEqual({ problem: "a whole number, please." });
    expect(parseFieldValue(byName("age"), "42")).toEqual({ value: 42 });
    expect(parseFieldValue(byName("ratio"), "")).toEqual({ value: 0.5 });
    expect(parseFieldValue(byName("ratio"), "x")).toEqual({ problem: "a number, please." });
    expect(parseFieldValue(byName("ok"), "N")).toEqual({ value: false });
    expect(parseFieldValue(byName("ok"), "maybe")).toEqual({ problem: "answer y or n." });
    expect(parseFieldValue(byName("size"), "1")).toEqual({ value: "s" });
    expect(parseFieldValue(byName("size"), "medium")).toEqual({ value: "m" });
    expect(parseFieldValue(byName("size"), "9")).toEqual({ problem: "choose 1 to 2." });
    expect(parseFieldValue(byName("tier"), "")).toEqual({ value: undefined });
  });

  it("an answer gets the defaults of the fields left out, never over what was given", () => {
    expect(withDefaults(fields, { email: "a@b.c", age: 40, ok: false })).toEqual({ email: "a@b.c", age: 40, ok: false, ratio: 0.5, size: "m" });
  });
});
