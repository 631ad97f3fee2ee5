import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLinePrompter } from "../../../src/faces/cli/approval-prompt.js";
import { HumanPrinter } from "../../../src/faces/cli/printers/human.js";
import { parseQuestionAnswer } from "../../../src/faces/cli/question-prompt.js";
import type { QuestionRequest } from "../../../src/core/index.js";

const request: QuestionRequest = { type: "question", agent: "planner", stepId: "", question: "Which port?", choices: ["3000", "8080"] };

describe("answers to a question", () => {
  it("a choice's number stands for its text; other text is the answer as typed; an empty line is none", () => {
    expect(parseQuestionAnswer("2", request)).toBe("8080");
    expect(parseQuestionAnswer(" 1 ", request)).toBe("3000");
    expect(parseQuestionAnswer("3", request)).toBe("3");
    expect(parseQuestionAnswer("0", request)).toBe("0");
    expect(parseQuestionAnswer("port 9000 please", request)).toBe("port 9000 please");
    expect(parseQuestionAnswer("   ", request)).toBeUndefined();
    expect(parseQuestionAnswer("1", { ...request, choices: [] })).toBe("1");
  });

  it("a pipe answers with its next non-empty line; a closed pipe is no answer", async () => {
    const input = new PassThrough();
    const prompter = createLinePrompter(input, { write: () => undefined }, false);
    input.end("\n2\n");
    expect(await prompter.askQuestion(request)).toBe("8080");
    expect(await prompter.askQuestion(request)).toBeNull();
    prompter.close();
  });

  it("the plain printer shows who asks, the question and the numbered choices", () => {
    let text = "";
    const printer = new HumanPrinter({ write: (t) => (text += t) });
    printer.emit({ type: "question_asked", agent: "planner", stepId: "", question: "Which port?", choices: ["3000", "8080"] });
    printer.emit({ type: "question_answered", answer: "8080" });
    expect(text).toBe("? question from planner:\n    Which port?\n    1. 3000\n    2. 8080\n  → 8080\n");
  });
});
