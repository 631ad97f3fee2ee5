import { describe, expect, it } from "vitest";
import type { Output } from "../../../src/faces/cli/printers/human.js";
import { promptLineOf } from "../../../src/faces/cli/prompt-line.js";

const stream = (isTTY: boolean, columns = 80): Output & { text: string } => {
  const out = {
    text: "",
    isTTY,
    columns,
    write(chunk: string) {
      out.text += chunk;
    },
  };
  return out;
};

describe("the line a prompt holds", () => {
  it("passes output through while no prompt is open, and is one per stream", () => {
    const out = stream(true);
    expect(promptLineOf(out)).toBe(promptLineOf(out));
    promptLineOf(out).output.write("plain\n");
    expect(out.text).toBe("plain\n");
  });

  it("prints what comes during a prompt above it and shows the prompt again with what was typed", () => {
    const out = stream(true);
    const line = promptLineOf(out);
    line.open("Approve? > ");
    line.typed("n not");
    out.write("n not"); // the prompter's echo
    line.output.write("ℹ Memory: open");
    expect(out.text).toBe("Approve? > n not\r\u001b[Jℹ Memory: open\nApprove? > n not");
    line.close();
    line.output.write("after\n");
    expect(out.text.endsWith("n notafter\n")).toBe(true);
  });

  it("clears every row of a prompt that wraps, and on a stream that is no terminal starts a new line instead", () => {
    const narrow = stream(true, 10);
    const wrapped = promptLineOf(narrow);
    wrapped.open("Approve? [y]es > ");
    wrapped.output.write("note\n");
    expect(narrow.text).toBe("Approve? [y]es > \r\u001b[1A\u001b[Jnote\nApprove? [y]es > ");
    const pipe = stream(false);
    const piped = promptLineOf(pipe);
    piped.open("? ");
    piped.output.write("note\n");
    expect(pipe.text).toBe("? \nnote\n? ");
  });
});
