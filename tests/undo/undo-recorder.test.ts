import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowStore } from "../../src/undo/shadow-store.js";
import { UndoRecorder } from "../../src/undo/undo-recorder.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { write } from "./helpers.js";

let ws: TempWorkspace;

beforeEach(async () => {
  ws = await makeTempWorkspace();
});

afterEach(async () => {
  await ws.cleanup();
});

describe("a baseline started early (the CLI starts it while it loads, tools wait for it)", () => {
  it("is taken once however often it is awaited, and an after asked meanwhile comes after it", async () => {
    write(ws.root, "a.txt", "a0\n");
    const store = ShadowStore.open(ws.root);
    const recorder = new UndoRecorder(store, "s1", (message) => {
      throw new Error(`no problem expected: ${message}`);
    });
    const baseline = recorder.before();
    // Every sub-agent run awaits the baseline: the same snapshot, not another round of git.
    expect(recorder.before()).toBe(baseline);
    const early = recorder.after();
    expect(await baseline).toBe(true);
    expect(await early).toBe(true);
    expect(await store.changes("s1")).toEqual([]);
    write(ws.root, "a.txt", "a1\n");
    expect(await recorder.after()).toBe(true);
    expect(await store.changes("s1")).toEqual([{ path: "a.txt", change: "modified" }]);
  });
});
