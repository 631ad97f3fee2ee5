import { parseFieldValue } from "../../services/mcp/elicitation.js";
import type { ElicitAnswer, ElicitField, ElicitRequest } from "../../services/mcp/types.js";

/** A face's one-line question: shows `prompt`, reads lines until `parse` takes one (else prints `retry()`); null: nobody answers. */
export type AskLine = <T>(prompt: string, parse: (line: string) => T | undefined, retry: () => string) => Promise<T | null>;

/** The lines that introduce a server's request, above its prompts. */
export function formLines(request: { server: string; message: string; fields: readonly unknown[] }): string[] {
  const fields = request.fields.length === 0 ? "" : ` (${request.fields.length} field${request.fields.length === 1 ? "" : "s"})`;
  return [`? the MCP server "${request.server}" asks${fields}:`, ...request.message.split("\n").map((l) => `    ${l}`)];
}

/** One field's prompt: its title, its choices numbered, what Enter takes. */
export function fieldPrompt(field: ElicitField): string {
  const choices = field.choices ? ` ${field.choices.map((c, i) => `${i + 1}) ${c.label}`).join(" ")}` : field.type === "boolean" ? " (y/n)" : "";
  const enter =
    field.default !== undefined
      ? ` [Enter: ${field.choices?.find((c) => c.value === field.default)?.label ?? (typeof field.default === "boolean" ? (field.default ? "y" : "n") : String(field.default))}]`
      : field.required
        ? ""
        : " [Enter: leave out]";
  return `  ${field.title}${field.description ? ` (${field.description})` : ""}${choices}${enter}: `;
}

const answerOf = (line: string): "accept" | "decline" | "cancel" | undefined => {
  const word = line.trim().toLowerCase();
  if (word === "y" || word === "yes") return "accept";
  if (word === "n" || word === "no" || word === "") return "decline";
  if (word === "c" || word === "cancel") return "cancel";
  return undefined;
};

/**
 * Asks the person a server's form at a terminal, a field at a time: first whether to answer at all ([y]es,
 * [n]o declines, [c]ancel), then each field, Enter taking its default. Null when nobody answers (stdin closed).
 */
export async function promptForm(ask: AskLine, request: ElicitRequest): Promise<ElicitAnswer | null> {
  const action = await ask("  Answer it? [y]es, [n]o (decline), [c]ancel: ", answerOf, () => "Answer y, n or c.");
  if (action === null) return null;
  if (action !== "accept") return { action };
  const content: Record<string, string | number | boolean> = {};
  for (const field of request.fields) {
    let problem = "";
    const parsed = await ask(
      fieldPrompt(field),
      (line) => {
        const result = parseFieldValue(field, line);
        if ("problem" in result) {
          problem = result.problem;
          return undefined;
        }
        return result;
      },
      () => `  ${problem}`,
    );
    if (parsed === null) return null;
    if (parsed.value !== undefined) content[field.name] = parsed.value;
  }
  return { action: "accept", content };
}
