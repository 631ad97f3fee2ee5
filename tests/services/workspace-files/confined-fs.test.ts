import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openConfinedDir, PathChangedError } from "../../../src/services/workspace-files/confined-fs.js";
import { readTextFile } from "../../../src/services/workspace-files/text-file.js";
import { keepVerifiedMatches } from "../../../src/tools/verified-matches.js";
import { isUsableRealPath } from "../../../src/services/workspace-files/workspace-path.js";
import { exists, makeWorkspace, writeFiles, type TempWorkspace } from "../../tools/helpers.js";

/**
 * The state right after a swap, set up deterministically: a path that was checked while dir/ was a folder is used
 * once dir/ has become a symlink to outside. (symlink-race-e2e.test.ts runs the real race.)
 */
let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  await writeFiles(ws.root, { "real/a.txt": "alpha inside\n" });
  await fs.symlink(ws.outside, path.join(ws.root, "dir"));
});
afterEach(async () => {
  await ws.cleanup();
});

describe("opening what was checked", () => {
  it("refuses to read a file reached through a swapped-in symlink, and reads a real one", async () => {
    const allow = (real: string): boolean => isUsableRealPath(ws.root, real);
    expect(await readTextFile(path.join(ws.root, "dir/secret.txt"), allow)).toMatchObject({ ok: false, reason: "changed" });
    expect(await readTextFile(path.join(ws.root, "real/a.txt"), allow)).toEqual({ ok: true, text: "alpha inside\n", bytes: 13 });
    // The last component is never followed, whoever asks.
    await fs.symlink(path.join(ws.outside, "secret.txt"), path.join(ws.root, "real/link.txt"));
    expect(await readTextFile(path.join(ws.root, "real/link.txt"))).toMatchObject({ ok: false, reason: "changed" });
  });

  it("refuses a parent folder that is a symlink now, and creates missing folders only inside", async () => {
    for (const create of [false, true]) {
      await expect(openConfinedDir(ws.root, path.join(ws.root, "dir"), create)).rejects.toBeInstanceOf(PathChangedError);
      await expect(openConfinedDir(ws.root, path.join(ws.root, "dir/new/deeper"), true)).rejects.toBeInstanceOf(PathChangedError);
    }
    expect(await fs.readdir(ws.outside)).toEqual(["secret.txt"]);
    const made = await openConfinedDir(ws.root, path.join(ws.root, "real/new/deeper"), true);
    try {
      await fs.writeFile(made.entry("b.txt"), "b\n");
    } finally {
      await made.close();
    }
    expect(await fs.readFile(path.join(ws.root, "real/new/deeper/b.txt"), "utf8")).toBe("b\n");
    await expect(openConfinedDir(ws.root, path.join(ws.root, "real/a.txt/x"), true)).rejects.toMatchObject({ code: "ENOTDIR" });
    expect(await exists(path.join(ws.outside, "new"))).toBe(false);
  });

  it("keeps only search matches that really are in the file at the reported path", async () => {
    const matches = [
      { file: "real/a.txt", line: 1, text: "alpha inside" },
      { file: "dir/secret.txt", line: 1, text: "TOP SECRET" },
      { file: "real/a.txt", line: 1, text: "alpha from a file that has moved away" },
      { file: "real/missing.txt", line: 3, text: "gone" },
    ];
    expect(keepVerifiedMatches(ws.root, matches)).toEqual({ kept: [matches[0]], dropped: 3 });
  });
});
