import { writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { diagnosticsPerWorkspace, type Diagnostics } from "../../../src/tools/diagnostics/index.js";
import type { TempWorkspace } from "../helpers.js";
import { requireBubblewrap } from "../../safety/sandbox/helpers.js";
import { hub, makeTsProject, processesMentioning } from "./helpers.js";

const BROKEN = 'export const label: number = "one";\n';

/** Waits until no process mentions `root` (its language service) or the time is up; the pids still there. */
async function servicesGone(root: string, withinMs = 5_000): Promise<number[]> {
  const until = Date.now() + withinMs;
  let left = processesMentioning(root);
  while (left.length > 0 && Date.now() < until) {
    await sleep(50);
    left = processesMentioning(root);
  }
  return left;
}

describe("diagnostics per workspace, closed when idle (the Studio graph's; real typescript, real sandbox)", () => {
  const projects: TempWorkspace[] = [];
  let diagnostics: Diagnostics | undefined;
  beforeAll(async () => {
    await requireBubblewrap();
  });
  afterEach(async () => {
    diagnostics?.close();
    diagnostics = undefined;
    for (const p of projects.splice(0)) await p.cleanup();
  });

  async function project(): Promise<TempWorkspace> {
    const p = await makeTsProject({ "src/ok.ts": "export const ok = 1;\n" });
    projects.push(p);
    return p;
  }

  async function breakFile(root: string): Promise<void> {
    await writeFile(path.join(root, "src/label.ts"), BROKEN);
  }

  it("gives each workspace its own hub, stops a workspace's language service once idle and starts it again on the next check", async () => {
    const [a, b] = [await project(), await project()];
    const made: string[] = [];
    diagnostics = diagnosticsPerWorkspace({ idleMs: 1_000, hubFor: (root) => (made.push(root), hub()) });
    await breakFile(a.root);
    await breakFile(b.root);

    const first = await diagnostics.afterEdit(a.root, { file: "src/label.ts", before: null });
    expect(first).toContain("src/label.ts:1:14 TS2322");
    expect(processesMentioning(a.root).length).toBeGreaterThan(0);
    expect(await diagnostics.afterEdit(b.root, { file: "src/label.ts", before: null })).toContain("TS2322");
    expect(made).toEqual([a.root, b.root]);

    // Idle: both services stop, nothing else does.
    expect(await servicesGone(a.root)).toEqual([]);
    expect(await servicesGone(b.root)).toEqual([]);

    // The next check makes a new hub for that workspace, whose service answers as before.
    expect(await diagnostics.afterEdit(a.root, { file: "src/label.ts", before: null })).toContain("TS2322");
    expect(made).toEqual([a.root, b.root, a.root]);
    expect(processesMentioning(a.root).length).toBeGreaterThan(0);
  });

  it("keeps a workspace's service while checks follow each other or run at once, even when each outlasts the idle time", async () => {
    const a = await project();
    const made: string[] = [];
    // Shorter than the service's own start (about 2 s): a check in flight is never cut short.
    diagnostics = diagnosticsPerWorkspace({ idleMs: 150, hubFor: (root) => (made.push(root), hub()) });
    await breakFile(a.root);
    const [one, two] = await Promise.all([diagnostics.afterEdit(a.root, { file: "src/label.ts", before: null }), diagnostics.project(a.root)]);
    expect(one).toContain("TS2322");
    expect(two).toContain("TS2322");
    expect(made).toEqual([a.root]);
  });

  it("close stops every workspace's service at once", async () => {
    const a = await project();
    diagnostics = diagnosticsPerWorkspace({ idleMs: 60_000, hubFor: () => hub() });
    await breakFile(a.root);
    expect(await diagnostics.project(a.root)).toContain("TS2322");
    diagnostics.close();
    expect(await servicesGone(a.root)).toEqual([]);
  });
});
