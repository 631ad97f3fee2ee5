import { describe, expect, it } from "vitest";
import { fieldPrompt, formLines, promptForm, type AskLine } from "../../../src/faces/cli/form-prompt.js";
import { elicitFields } from "../../../src/services/mcp/elicitation.js";
import type { ElicitRequest } from "../../../src/services/mcp/types.js";

const request: ElicitRequest = {
  server: "cf",
  message: "Who are you?\nSay it briefly.",
  schema: {},
  fields: elicitFields({
    type: "object",
    properties: {
      name: { type: "string", title: "Your name", default: "Ada" },
      count: { type: "integer", title: "How many", minimum: 1 },
      colour: { type: "string", enum: ["red", "green"] },
    },
    required: ["count"],
  }),
};

/** A person who types `lines` in order; what each prompt and retry said is kept. `null` in `lines`: stdin closes. */
function person(lines: (string | null)[]) {
  const said: string[] = [];
  const ask: AskLine = async (prompt, parse, retry) => {
    said.push(prompt);
    for (;;) {
      const line = lines.shift();
      if (line === undefined || line === null) return null;
      const value = parse(line);
      if (value !== undefined) return value;
      said.push(retry());
    }
  };
  return { ask, said };
}

describe("a server's form at the terminal", () => {
  it("is introduced with the server and its message, and each field says what Enter takes", () => {
    expect(formLines(request)).toEqual(['? the MCP server "cf" asks (3 fields):', "    Who are you?", "    Say it briefly."]);
    expect(request.fields.map(fieldPrompt)).toEqual(["  Your name [Enter: Ada]: ", "  How many: ", "  colour 1) red 2) green [Enter: leave out]: "]);
  });

  it("asks whether to answer, then each field until it parses; left-out fields stay out", async () => {
    const { ask, said } = person(["y", "", "0", "2", ""]);
    expect(await promptForm(ask, request)).toEqual({ action: "accept", content: { name: "Ada", count: 2 } });
    expect(said).toContain("  at least 1.");
  });

  it("n declines, c cancels, a closed input is nobody answering", async () => {
    expect(await promptForm(person(["n"]).ask, request)).toEqual({ action: "decline" });
    expect(await promptForm(person(["c"]).ask, request)).toEqual({ action: "cancel" });
    expect(await promptForm(person(["y", "Bo", null]).ask, request)).toBeNull();
  });
});
