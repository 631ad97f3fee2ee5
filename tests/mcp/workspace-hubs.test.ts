import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveMcpConfig } from "../../src/platform/config/index.js";
import { McpHub, WorkspaceHubs } from "../../src/mcp/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { EVERYTHING } from "./everything.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function workspaceWith(server: string): Promise<TempWorkspace> {
  const ws = await makeTempWorkspace();
  cleanups.push(() => ws.cleanup());
  await fs.writeFile(path.join(ws.root, ".mcp.json"), JSON.stringify({ mcpServers: { [server]: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }));
  return ws;
}

describe("WorkspaceHubs (Studio: one process, many workspaces)", () => {
  it("starts each workspace's own servers when it is first needed, and stops them all on close", async () => {
    const a = await workspaceWith("alpha");
    const b = await workspaceWith("beta");
    const env = { XDG_CONFIG_HOME: path.join(a.root, "none") };
    const hubs = new WorkspaceHubs((workspace) => new McpHub(resolveMcpConfig(env, workspace)));
    cleanups.unshift(() => hubs.close());
    expect(hubs.list(a.root)).toEqual([]);
    await hubs.ready(a.root);
    expect(hubs.find(a.root, "mcp__alpha__echo")?.readOnly).toBe(true);
    expect(hubs.list(b.root)).toEqual([]);
    expect(hubs.find(a.root, "mcp__beta__echo")).toBeUndefined();
    await hubs.ready(b.root);
    expect(hubs.list(b.root).every((t) => t.server === "beta")).toBe(true);
    expect(await hubs.call(b.root, "mcp__beta__echo", { message: "hi" }, { outputLimitChars: 1000 })).toEqual({ ok: true, text: "Echo: hi" });
    expect((await hubs.call(b.root, "mcp__alpha__echo", { message: "hi" }, { outputLimitChars: 1000 })).ok).toBe(false);
  });
});
