import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InputHistory } from "../../../../src/faces/cli/chat/history.js";
import { makeTempWorkspace, type TempWorkspace } from "../../../helpers/temp-workspace.js";

let ws: TempWorkspace;
let file: string;
beforeEach(async () => {
  // The data folder exists already: creating it would ask git to ignore it, and unit tests start no process.
  ws = await makeTempWorkspace({ ".mini-cursor/.keep": "" });
  file = path.join(ws.root, ".mini-cursor", "chat-history");
});
afterEach(async () => {
  await ws.cleanup();
});

const lines = (): string[] => fs.readFileSync(file, "utf8").split("\n").filter(Boolean);

describe("the input history", () => {
  it("starts empty, keeps what is added, and gives it back to the next conversation", () => {
    const first = InputHistory.load(ws.root);
    expect(first.all).toEqual([]);
    first.add("fix the tests", ws.root);
    first.add("two\nlines", ws.root);
    first.add("   ", ws.root);
    expect(first.all).toEqual(["fix the tests", "two\nlines"]);
    expect(InputHistory.load(ws.root).all).toEqual(["fix the tests", "two\nlines"]);
  });

  it("does not add the same message twice in a row", () => {
    const history = InputHistory.load(ws.root);
    for (const text of ["a", "a", "b", "a", "a"]) history.add(text, ws.root);
    expect(history.all).toEqual(["a", "b", "a"]);
    expect(lines()).toEqual(['"a"', '"b"', '"a"']);
  });

  it("skips a line cut short and a line that is not a string", () => {
    fs.writeFileSync(file, '"one"\n{"x":1}\n"two"\n"thr');
    expect(InputHistory.load(ws.root).all).toEqual(["one", "two"]);
  });

  it("keeps the last 500", () => {
    fs.writeFileSync(file, Array.from({ length: 600 }, (_, i) => `${JSON.stringify(`m${i}`)}\n`).join(""));
    const history = InputHistory.load(ws.root);
    expect(history.all).toHaveLength(500);
    expect(history.all[0]).toBe("m100");
    expect(history.all.at(-1)).toBe("m599");
    // The file grows to at most twice that, then is written again with the last 500.
    for (let i = 600; i < 1101; i += 1) history.add(`m${i}`, ws.root);
    expect(lines()).toHaveLength(500);
    expect(lines()[0]).toBe('"m601"');
    expect(InputHistory.load(ws.root).all.at(-1)).toBe("m1100");
  });
});
