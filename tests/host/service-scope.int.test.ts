import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EventRecorder } from "../../src/core/index.js";
import { serverScope, sessionScope } from "../../src/host/service-scope.js";
import { ManualTimers } from "../helpers/manual-timers.js";
import { createSessionServices, type ServiceSettings, type Services } from "../../src/host/services.js";
import { systemClock } from "../../src/platform/clock.js";
import type { BackgroundProcesses } from "../../src/tools/index.js";
import { processesWithCommandLine } from "../safety/sandbox/helpers.js";

/** The services of both scopes with real background processes (sleep), closed at the session's end or by idle expiry. */

describe("createSessionServices", () => {
  let root = "";
  let services: Services | undefined;
  beforeEach(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mc-services-")));
  });
  afterEach(async () => {
    await services?.close();
    services = undefined;
    await fs.rm(root, { recursive: true, force: true });
  });

  // No user config, no memory, no MCP: the home is an empty folder.
  const settings = (): ServiceSettings => ({
    env: { PATH: process.env.PATH ?? "", HOME: root, MINI_CURSOR_SANDBOX: "off" },
    clock: systemClock,
    memory: { enabled: false, reason: "off in this test" },
    events: new EventRecorder(),
    notice: () => undefined,
  });

  async function startSleeper(registry: BackgroundProcesses | undefined, tag: string) {
    const started = await registry?.start({ command: `sleep 600; : ${tag}`, cwd: root, cwdLabel: ".", env: { PATH: process.env.PATH ?? "" } });
    expect(started?.ok).toBe(true);
    expect(processesWithCommandLine(tag).length).toBeGreaterThan(0);
  }

  async function gone(tag: string): Promise<boolean> {
    for (let i = 0; i < 100 && processesWithCommandLine(tag).length > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    return processesWithCommandLine(tag).length === 0;
  }

  it("per session: every run gets the session's processes, and closing the services stops them", async () => {
    services = createSessionServices(settings(), sessionScope({ sessionId: "s1", workspace: root }));
    const registry = services.processesOf("s1");
    expect(services.processes).not.toBe(registry);
    expect(typeof services.processes === "function" ? services.processes({ configurable: { thread_id: "x" } }) : undefined).toBe(registry);
    expect((await services.sandbox).kind).toBe("none");
    const tag = `session-${randomUUID()}`;
    await startSleeper(registry, tag);
    await services.close();
    expect(await gone(tag)).toBe(true);
  });

  it("per server: each thread has its own processes, stopped after the thread's idle time", async () => {
    const timers = new ManualTimers();
    services = createSessionServices(settings(), serverScope({ idleMs: { processes: 1000 }, timers }));
    const source = services.processes;
    if (typeof source !== "function") throw new Error("a server's processes are found per run");
    const one = source({ configurable: { thread_id: "t1" } });
    const two = source({ configurable: { thread_id: "t2" } });
    expect(one).toBeDefined();
    expect(two).not.toBe(one);
    expect(source({ configurable: { thread_id: "t1" } })).toBe(one);
    expect(source(undefined)).toBeUndefined();
    const tag = `thread-${randomUUID()}`;
    await startSleeper(one, tag);
    timers.advance(999);
    expect(processesWithCommandLine(tag).length).toBeGreaterThan(0);
    timers.advance(1);
    expect(await gone(tag)).toBe(true);
    // The thread's next run starts with a new, empty set.
    expect(source({ configurable: { thread_id: "t1" } })).not.toBe(one);
  });
});
