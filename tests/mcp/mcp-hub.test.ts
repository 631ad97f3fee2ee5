import { afterEach, describe, expect, it } from "vitest";
import { McpHub } from "../../src/mcp/index.js";
import { alive, EVERYTHING, stdioServer } from "./everything.js";

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

    expect(await hub.call("/ws", "mcp__everything__get-sum", { a: 2, b: 40 }, { outputLimitChars: 10_000 })).toMatchObject({ ok: true, text: expect.stringContaining("42") as string });
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
    hub = new McpHub([stdioServer("broken", [], { command: "/nonexistent/mcp-server" }), stdioServer("everything", [EVERYTHING, "stdio"]), stdioServer("off", [], { disabled: true })], {
      onFailure: (server, reason) => failures.push(`${server.name}: ${reason}`),
    });
    await hub.start();
    expect(failures).toEqual(["broken: command not found: /nonexistent/mcp-server"]);
    expect(hub.statuses().map((s) => s.status.state)).toEqual(["failed", "connected", "disabled"]);
    expect(hub.list().every((t) => t.server === "everything")).toBe(true);
  });

  it("turns a server that dies mid-session into tool errors", async () => {
    let stopped = (_: string): void => undefined;
    const exited = new Promise<string>((resolve) => (stopped = resolve));
    hub = new McpHub([stdioServer("everything", [EVERYTHING, "stdio"])], { onStopped: (server, reason) => stopped(`${server.name}: ${reason}`) });
    await hub.start();
    const pid = hub.connections[0]?.pid ?? 0;
    process.kill(pid, "SIGKILL");
    expect(await exited).toMatch(/^everything: the server stopped/);
    const result = await hub.call("/ws", "mcp__everything__echo", { message: "hi" }, { outputLimitChars: 1000 });
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(/the MCP server "everything" cannot run mcp__everything__echo: the server stopped/);
  });
});
