import type { ElicitField } from "./types.js";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** The labelled values of an enum field: `enum` (with `enumNames`), or `oneOf`/`anyOf` of `const` and `title`. */
function choicesOf(property: Json): { value: string; label: string }[] | undefined {
  const values = Array.isArray(property.enum) ? property.enum.filter((v): v is string => typeof v === "string") : undefined;
  if (values) {
    const names = Array.isArray(property.enumNames) ? property.enumNames : [];
    return values.map((value, i) => ({ value, label: text(names[i]) ?? value }));
  }
  const options = Array.isArray(property.oneOf) ? property.oneOf : Array.isArray(property.anyOf) ? property.anyOf : undefined;
  if (!options) return undefined;
  const consts = options.filter(isObject).filter((o) => typeof o.const === "string");
  return consts.length > 0 ? consts.map((o) => ({ value: o.const as string, label: text(o.title) ?? (o.const as string) })) : undefined;
}

/**
 * The fields of an elicitation's `requestedSchema` (a flat object of primitives, as MCP allows), in the schema's
 * order. Anything else a server sends is read as a string field, so the person can still answer.
 */
export function elicitFields(schema: unknown): ElicitField[] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  return Object.entries(schema.properties).map(([name, raw]) => {
    const property = isObject(raw) ? raw : {};
    const type = property.type === "number" || property.type === "integer" || property.type === "boolean" ? property.type : "string";
    const choices = type === "string" ? choicesOf(property) : undefined;
    const fallback = property.default;
    const usable =
      (type === "boolean" && typeof fallback === "boolean") ||
      ((type === "number" || type === "integer") && num(fallback) !== undefined) ||
      (type === "string" && typeof fallback === "string");
    const description = text(property.description);
    const minimum = num(property.minimum) ?? num(property.minLength);
    const maximum = num(property.maximum) ?? num(property.maxLength);
    return {
      name,
      title: text(property.title) ?? name,
      type,
      required: required.has(name),
      ...(description ? { description } : {}),
      ...(choices ? { choices } : {}),
      ...(usable ? { default: fallback as string | number | boolean } : {}),
      ...(type !== "string" && minimum !== undefined ? { minimum } : {}),
      ...(type !== "string" && maximum !== undefined ? { maximum } : {}),
    };
  });
}

/** The answer with each field the person left out set to its default, as the client applies them (MCP SEP-1034). */
export function withDefaults(fields: readonly ElicitField[], content: Record<string, string | number | boolean>): Record<string, string | number | boolean> {
  const filled = { ...content };
  for (const field of fields) if (filled[field.name] === undefined && field.default !== undefined) filled[field.name] = field.default;
  return filled;
}

/**
 * A person's typed text as a field's value, or why it is not one (a sentence). Empty text takes the default, and is
 * otherwise undefined for a field that is not required.
 */
export function parseFieldValue(field: ElicitField, typed: string): { value: string | number | boolean | undefined } | { problem: string } {
  const input = typed.trim();
  if (input === "") {
    if (field.default !== undefined) return { value: field.default };
    return field.required ? { problem: `${field.title} is required.` } : { value: undefined };
  }
  if (field.choices) {
    const byNumber = /^\d+$/.test(input) ? field.choices[Number(input) - 1] : undefined;
    const chosen = byNumber ?? field.choices.find((c) => c.value === input || c.label.toLowerCase() === input.toLowerCase());
    return chosen ? { value: chosen.value } : { problem: `choose 1 to ${field.choices.length}.` };
  }
  if (field.type === "boolean") {
    if (/^(y|yes|true)$/i.test(input)) return { value: true };
    if (/^(n|no|false)$/i.test(input)) return { value: false };
    return { problem: "answer y or n." };
  }
  if (field.type === "number" || field.type === "integer") {
    const value = Number(input);
    if (!Number.isFinite(value) || (field.type === "integer" && !Number.isInteger(value)))
      return { problem: `a${field.type === "integer" ? " whole" : ""} number, please.` };
    if (field.minimum !== undefined && value < field.minimum) return { problem: `at least ${field.minimum}.` };
    if (field.maximum !== undefined && value > field.maximum) return { problem: `at most ${field.maximum}.` };
    return { value };
  }
  return { value: input };
}
