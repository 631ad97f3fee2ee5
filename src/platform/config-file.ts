import type { z } from "zod";
import { errorMessage } from "./error-info.js";

/** A config file or variable that cannot be used: one line naming the source and the problem. */
export class ConfigError extends Error {}

/** Parses JSON text from `source` (a file path or a variable name) and validates it; errors name the source. */
export function parseConfigJson<S extends z.ZodType>(source: string, text: string, schema: S): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${source} is not valid JSON (${errorMessage(error)})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${source}: ${issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "invalid"}`);
  }
  return parsed.data;
}
