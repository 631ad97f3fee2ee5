import { afterEach, describe, expect, it } from "vitest";
import { McpHub } from "../../../src/services/mcp/index.js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { alive, EVERYTHING, stdioServer } from "./everything.js";

/** SIGKILL to the server's own pid: never to 0 or a group, which would take the test runner down with it. */
function killServer(pid: number | undefined): void {
  if (pid === undefined || pid <= 0) throw new Error(`no server pid to kill (${String(pid)})`);
  process.kill(pid, "SIGKILL");
}

/** A server of our own whose tools change while it runs (real MCP SDK, over stdio). */
const CHANGING_TOOLS = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures/changing-tools-server.mjs");

let hub: McpHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

describe("McpHub against the reference servers over stdio", () => {
  it("lists tools as mcp__<server>__<tool> with their read-only marks and runs calls", async () => {
    hub = new McpHub([stdioServer("everything", [EVERYTHING, "stdio"])]);
    await hub.start();
    expect(hub.statuses()[0]?.status).toEqual({ state: "connected" });
    expect(hub.find("/ws", "mcp__everything__echo")?.readOnly).toBe(true);
    expect(hub.find("/ws", "mcp__everything__get-sum")?.readOnly).toBe(true);
    expect(hub.find("/ws", "mcp__everything__toggle-simulated-logging")?.readOnly).toBe(false);

    expect(await hub.call("/ws", "mcp__everything__get-sum", { a: 2, b: 40 }, { outputLimitChars: 10_000 })).toMatchObject({
      ok: true,
      text: expect.stringContaining("42") as string,
    });
    const echo = await hub.call("/ws", "mcp__everything__echo", { message: "x".repeat(5000) }, { outputLimitChars: 300 });
    expect(echo.ok).toBe(true);
    expect(echo.text.length).toBeLessThan(400);
    expect(echo.text).toContain("characters left out");
    const image = await hub.call("/ws", "mcp__everything__get-tiny-image", {}, { outputLimitChars: 10_000 });
    expect(image.text).toMatch(/\[image: image\/png, \d+ (B|KB)\]/);
    const links = await hub.call("/ws", "mcp__everything__get-resource-links", { count: 2 }, { outputLimitChars: 10_000 });
    expect(links.text).toMatch(/resource: \S+ \(.+\)/);
    // Bad arguments are a tool error, not an exception.
    expect((await hub.call("/ws", "mcp__everything__get-sum", { a: "two" }, { outputLimitChars: 10_000 })).ok).toBe(false);
  });

  it("gives a timed-out call back as a tool error and stops the server's process on close", async () => {
    hub = new McpHub([stdioServer("everything", [EVERYTHING, "stdio"], { timeoutMs: 300 })]);
    await hub.start();
    const pid = hub.connections[0]?.pid;
    expect(pid).toBeTypeOf("number");
    const slow = await hub.call("/ws", "mcp__everything__trigger-long-running-operation", { duration: 30, steps: 2 }, { outputLimitChars: 1000 });
    expect(slow).toEqual({ ok: false, text: "mcp__everything__trigger-long-running-operation failed: no answer within 0.3 s." });
    await hub.close();
    expect(alive(pid ?? 0)).toBe(false);
  });

  it("reports a server that cannot start once, and goes on with the others", async () => {
    const failures: string[] = [];
    hub = new McpHub(
      [
        stdioServer("broken", [], { command: "/nonexistent/mcp-server" }),
        stdioServer("everything", [EVERYTHING, "stdio"]),
        stdioServer("off", [], { disabled: true }),
      ],
      {
        onFailure: (server, reason) => failures.push(`${server.name}: ${reason}`),
      },
    );
    await hub.start();
    expect(failures).toEqual(["broken: command not found: /nonexistent/mcp-server"]);
    expect(hub.statuses().map((s) => s.status.state)).toEqual(["failed", "connected", "disabled"]);
    expect(hub.list().every((t) => t.server === "everything")).toBe(true);
  });

  it("starts a server that died mid-session again at its next call, twice at most in a session", async () => {
    const stops: string[] = [];
    const restarts: number[] = [];
    let stopped = (): void => undefined;
    const nextStop = () => new Promise<void>((resolve) => (stopped = resolve));
    hub = new McpHub([stdioServer("everything", [EVERYTHING, "stdio"])], {
      onStopped: (server, reason) => {
        stops.push(`${server.name}: ${reason}`);
        stopped();
      },
      onRestarted: (_server, n) => restarts.push(n),
    });
    await hub.start();
    const pids = [hub.connections[0]?.pid ?? 0];
    for (let crash = 1; crash <= 2; crash++) {
      const stop = nextStop();
      killServer(pids.at(-1));
      await stop;
      // Two calls at once share one restart.
      const [a, b] = await Promise.all([
        hub.call("/ws", "mcp__everything__get-sum", { a: crash, b: 40 }, { outputLimitChars: 1000 }),
        hub.call("/ws", "mcp__everything__echo", { message: "hi" }, { outputLimitChars: 1000 }),
      ]);
      expect(a).toMatchObject({ ok: true, text: expect.stringContaining(String(40 + crash)) as string });
      expect(b.ok).toBe(true);
      const pid = hub.connections[0]?.pid ?? 0;
      expect(pids).not.toContain(pid);
      expect(alive(pid)).toBe(true);
      pids.push(pid);
    }
    expect(restarts).toEqual([1, 2]);
    expect(stops).toHaveLength(2);
    expect(stops[0]).toMatch(/^everything: the server stopped/);
    // A third crash: no more restarts in this session; its tools are errors the model sees.
    const stop = nextStop();
    killServer(pids.at(-1));
    await stop;
    const result = await hub.call("/ws", "mcp__everything__echo", { message: "hi" }, { outputLimitChars: 1000 });
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(/the MCP server "everything" cannot run mcp__everything__echo: the server stopped/);
    expect(restarts).toEqual([1, 2]);
  });

  it("follows a server's tools/list_changed notices: a tool it adds is offered, one it removes is not", async () => {
    hub = new McpHub([stdioServer("changing", [CHANGING_TOOLS])]);
    await hub.start();
    const names = () =>
      hub
        ?.list()
        .map((t) => t.name)
        .sort() ?? [];
    expect(names()).toEqual(["mcp__changing__add_late", "mcp__changing__remove_late"]);
    expect((await hub.call("/ws", "mcp__changing__add_late", {}, { outputLimitChars: 1000 })).ok).toBe(true);
    await expect.poll(names, { timeout: 5_000 }).toContain("mcp__changing__late");
    expect(await hub.call("/ws", "mcp__changing__late", {}, { outputLimitChars: 1000 })).toEqual({ ok: true, text: "late answers" });
    expect((await hub.call("/ws", "mcp__changing__remove_late", {}, { outputLimitChars: 1000 })).ok).toBe(true);
    await expect.poll(names, { timeout: 5_000 }).not.toContain("mcp__changing__late");
    expect((await hub.call("/ws", "mcp__changing__late", {}, { outputLimitChars: 1000 })).ok).toBe(false);
  });
});
