import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { replaceFile, replaceFileSync } from "../../src/platform/replace-file.js";

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

describe("replaceFile", () => {
  it("writes a new file and replaces an old one whole, leaving no temporary file", async () => {
    const file = path.join(dir, "a.txt");
    await replaceFile(file, "one\n");
    await replaceFile(file, Buffer.from("two\n"));
    expect(fs.readFileSync(file, "utf8")).toBe("two\n");
    expect(fs.readdirSync(dir)).toEqual(["a.txt"]);
  });

  it("keeps an existing file's mode exactly when asked (not masked by the umask)", async () => {
    const file = path.join(dir, "run.sh");
    fs.writeFileSync(file, "old");
    fs.chmodSync(file, 0o777);
    await replaceFile(file, "new", { mode: 0o777, exactMode: true });
    expect(fs.statSync(file).mode & 0o777).toBe(0o777);
    await replaceFile(file, "newer", { mode: 0o777 });
    expect(fs.statSync(file).mode & 0o777).toBe(0o777 & ~process.umask());
  });

  it("runs the last check with the data already written beside the file, and replaces nothing when it throws", async () => {
    const file = path.join(dir, "kept.txt");
    fs.writeFileSync(file, "old");
    let seen: string[] = [];
    const refusal = new Error("refused");
    await expect(
      replaceFile(file, "new", {
        beforeRename: async () => {
          seen = fs.readdirSync(dir).filter((name) => name !== "kept.txt");
          throw refusal;
        },
      }),
    ).rejects.toBe(refusal);
    expect(seen).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, "kept.txt"), "utf8")).toBe("old");
    expect(fs.readdirSync(dir)).toEqual(["kept.txt"]);
  });

  it("writes through a folder held open (/proc/self/fd/N/name), as the workspace tools do", async () => {
    const handle = await fs.promises.open(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    try {
      await replaceFile(`/proc/self/fd/${handle.fd}/held.txt`, "through the descriptor");
    } finally {
      await handle.close();
    }
    expect(fs.readFileSync(path.join(dir, "held.txt"), "utf8")).toBe("through the descriptor");
    expect(fs.readdirSync(dir)).toEqual(["held.txt"]);
  });
});
