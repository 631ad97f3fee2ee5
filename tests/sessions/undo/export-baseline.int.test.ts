import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UnknownSessionError } from "../../../src/sessions/undo/errors.js";
import { exportBaseline } from "../../../src/sessions/undo/export-baseline.js";
import { ShadowStore } from "../../../src/sessions/undo/shadow-store.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { write } from "./helpers.js";

let ws: TempWorkspace;
let out: TempWorkspace;

beforeEach(async () => {
  ws = await makeTempWorkspace();
  out = await makeTempWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
  await out.cleanup();
});

describe("exportBaseline", () => {
  it("writes the workspace as the session found it: contents, modes, links, empty folders; not what it changed later", async () => {
    write(ws.root, "src/main.ts", "export const main = 1;\n");
    write(ws.root, "run.sh", "#!/bin/sh\necho hi\n", 0o755);
    write(ws.root, ".gitignore", "secret.txt\n");
    write(ws.root, "secret.txt", "ignored\n");
    fs.symlinkSync("src/main.ts", path.join(ws.root, "link"));
    fs.mkdirSync(path.join(ws.root, "was-empty"));
    const store = ShadowStore.open(ws.root);
    await store.snapshotBefore("s1");
    // The session's own changes come after the baseline.
    write(ws.root, "src/main.ts", "changed\n");
    write(ws.root, "new.txt", "new\n");
    await store.snapshotAfter("s1");

    await exportBaseline(ws.root, "s1", out.root);
    expect(fs.readFileSync(path.join(out.root, "src/main.ts"), "utf8")).toBe("export const main = 1;\n");
    expect(fs.statSync(path.join(out.root, "run.sh")).mode & 0o111).not.toBe(0);
    expect(fs.readlinkSync(path.join(out.root, "link"))).toBe("src/main.ts");
    expect(fs.statSync(path.join(out.root, "was-empty")).isDirectory()).toBe(true);
    expect(fs.existsSync(path.join(out.root, "new.txt"))).toBe(false);
    expect(fs.existsSync(path.join(out.root, "secret.txt"))).toBe(false);
    expect(fs.existsSync(path.join(out.root, ".git"))).toBe(false);
    // No index or lock left behind in the store.
    expect(fs.readdirSync(path.join(ws.root, ".mini-cursor/shadow.git")).filter((f) => f.startsWith("export-"))).toEqual([]);
  });

  it("says so when the session has no baseline", async () => {
    await expect(exportBaseline(ws.root, "s1", out.root)).rejects.toBeInstanceOf(UnknownSessionError);
    await ShadowStore.open(ws.root).snapshotBefore("other");
    await expect(exportBaseline(ws.root, "s1", out.root)).rejects.toThrow(/no undo baseline for session s1/);
  });
});
