import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { replaceFileSync } from "../../src/platform/replace-file.js";

let dir = "";
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mc-replace-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("replaceFileSync", () => {
  it("writes a new file and replaces an old one whole, leaving no temporary file", () => {
    const file = path.join(dir, "state.json");
    replaceFileSync(file, "one\n");
    replaceFileSync(file, "two\n");
    expect(fs.readFileSync(file, "utf8")).toBe("two\n");
    expect(fs.readdirSync(dir)).toEqual(["state.json"]);
  });

  it("creates the file with the mode asked for (a file of secrets: 0600)", () => {
    const file = path.join(dir, "trust.json");
    replaceFileSync(file, "{}\n", { mode: 0o600 });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("removes its temporary file when the rename fails, and keeps what was there", () => {
    const file = path.join(dir, "taken");
    fs.mkdirSync(path.join(file, "inside"), { recursive: true });
    expect(() => replaceFileSync(file, "x")).toThrow();
    expect(fs.readdirSync(dir)).toEqual(["taken"]);
    expect(fs.readdirSync(file)).toEqual(["inside"]);
  });
});
