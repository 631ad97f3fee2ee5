import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowStore } from "../../../src/sessions/undo/shadow-store.js";
import { UndoRecorder } from "../../../src/sessions/undo/undo-recorder.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
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

describe("snapshots asked for without waiting (the CLI's after-step snapshot runs during the planner's turn)", () => {
  it("are taken one after another in the order asked, and settled() waits for them all", async () => {
    write(ws.root, "a.txt", "a0\n");
    const store = ShadowStore.open(ws.root);
    const problems: string[] = [];
    const recorder = new UndoRecorder(store, "s1", (message) => problems.push(message));
    await recorder.before();
    const afters: Promise<boolean>[] = [];
    const order: number[] = [];
    for (let i = 1; i <= 5; i++) {
      write(ws.root, `f${i}.txt`, `${i}\n`);
      afters.push(recorder.after().then((taken) => (order.push(i), taken)));
    }
    // Not one of the snapshots awaited by itself: settled() is what the next step's tools wait on.
    await recorder.settled();
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect((await store.changes("s1")).map((c) => c.path).sort()).toEqual(["f1.txt", "f2.txt", "f3.txt", "f4.txt", "f5.txt"]);
    expect(problems).toEqual([]);
    expect(await Promise.all(afters)).toEqual([true, true, true, true, true]);
  });
});
