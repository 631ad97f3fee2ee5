import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { guardedGet } from "../../../src/services/web/guarded-get.js";
import type { Resolver } from "../../../src/services/web/ssrf-guard.js";
import { page, redirect, startLocalWebServer, type LocalWebServer } from "./local-web-server.js";

// The guard's checks before any connection are unit tests (ssrf-guard.test.ts); these connect to local web servers.
const open = { allowHosts: [], denyHosts: [] };

describe("guardedGet", () => {
  let target: LocalWebServer;
  let entry: LocalWebServer;
  beforeEach(async () => {
    target = await startLocalWebServer({ "/secret": page("internal secret", "text/plain") });
    entry = await startLocalWebServer({
      "/hop": redirect(`http://localhost:${target.port}/secret`),
      "/loop": redirect("/loop"),
      "/to-metadata": redirect("http://169.254.169.254/latest/meta-data/"),
      "/ok": page("hello", "text/plain"),
    });
  });
  afterEach(async () => {
    await Promise.all([target.close(), entry.close()]);
  });

  const allowEntry = { allowHosts: ["127.0.0.1"], denyHosts: [], timeoutMs: 10_000, maxBytes: 100_000 };

  it("never connects to loopback without allowHosts", async () => {
    const result = await guardedGet(`${target.origin}/secret`, { ...allowEntry, policy: open });
    expect(result.ok).toBe(false);
    expect(target.connections).toBe(0);
  });

  it("checks every redirect: an allowed host redirecting to localhost or the metadata address is refused before connecting", async () => {
    const hop = await guardedGet(`${entry.origin}/hop`, { ...allowEntry, policy: allowEntry });
    expect(hop).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/redirect to http:\/\/localhost:\d+\/secret was refused: localhost is a loopback name/) as unknown,
    });
    expect(target.connections).toBe(0);
    const metadata = await guardedGet(`${entry.origin}/to-metadata`, { ...allowEntry, policy: allowEntry });
    expect(metadata).toMatchObject({ ok: false, reason: expect.stringMatching(/169\.254\.169\.254 is a link-local \(cloud metadata\) address/) as unknown });
  });

  it("stops after five redirects", async () => {
    const result = await guardedGet(`${entry.origin}/loop`, { ...allowEntry, policy: allowEntry });
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/stopped after 5 redirects/) as unknown, redirects: expect.any(Array) as unknown });
    // The first request and five redirects.
    expect(entry.requests.filter((r) => r.url === "/loop")).toHaveLength(6);
  });

  it("connects to the address it checked: the name is resolved once, never again by the connection", async () => {
    const calls: string[] = [];
    // A rebinding resolver: the first answer is the checked one, any later answer would point elsewhere.
    const resolve: Resolver = (host) => {
      calls.push(host);
      return Promise.resolve(calls.length === 1 ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "10.9.9.9", family: 4 }]);
    };
    const result = await guardedGet(`http://pinned.example.com:${entry.port}/ok`, {
      ...allowEntry,
      policy: { allowHosts: ["pinned.example.com"], denyHosts: [] },
      resolve,
    });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(calls).toEqual(["pinned.example.com"]);
    expect(entry.requests.at(-1)?.headers.host).toBe(`pinned.example.com:${entry.port}`);
  });
});
