import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { hostMatches } from "../../../src/services/web/host-patterns.js";
import { blockedAddressReason } from "../../../src/services/web/ip-ranges.js";
import { checkTarget, systemResolver, type Resolver } from "../../../src/services/web/ssrf-guard.js";

const open = { allowHosts: [], denyHosts: [] };
const noDns: Resolver = () => Promise.reject(new Error("this test must not resolve names"));

describe("blockedAddressReason", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private (carrier-grade NAT)"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fd00::1", "private (unique local)"],
    ["fc12:3456::1", "private (unique local)"],
    ["fe80::1", "link-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback, as IPv6"],
    ["::ffff:7f00:1", "loopback, as IPv6"],
    ["::ffff:169.254.169.254", "link-local (cloud metadata), as IPv6"],
    ["::ffff:a00:1", "private, as IPv6"],
    ["64:ff9b::10.0.0.1", "private, as IPv6"],
    ["2002:7f00:1::", "loopback, as IPv6"],
    ["[::1]", "loopback"],
  ])("refuses %s (%s)", (address, reason) => {
    expect(blockedAddressReason(address)).toBe(reason);
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "2a00:1450:4001::200e"])(
    "lets public %s through",
    (address) => {
      expect(blockedAddressReason(address)).toBeNull();
    },
  );
});

describe("host patterns", () => {
  it("matches exact names, *.domain below the domain only, case and trailing dot ignored", () => {
    expect(hostMatches("Docs.Example.com.", "docs.example.com")).toBe(true);
    expect(hostMatches("a.b.example.com", "*.example.com")).toBe(true);
    expect(hostMatches("example.com", "*.example.com")).toBe(false);
    expect(hostMatches("badexample.com", "*.example.com")).toBe(false);
    expect(hostMatches("[::1]", "::1")).toBe(true);
  });
});

describe("checkTarget (before any connection)", () => {
  it("refuses non-http schemes, credentials, internal names and private literals without resolving anything", async () => {
    const cases: [string, RegExp][] = [
      ["file:///etc/passwd", /only http and https/],
      ["ftp://example.com/", /only http and https/],
      ["http://user:pw@example.com/", /user name or password/],
      ["http://localhost:8080/", /loopback name/],
      ["http://metadata.google.internal/computeMetadata/v1/", /cloud metadata name/],
      ["http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is a link-local \(cloud metadata\) address/],
      ["http://10.0.0.5/", /10\.0\.0\.5 is a private address/],
      ["http://127.0.0.1:9/", /loopback address.*web\.allowHosts/],
      ["http://[::1]/", /loopback/],
      ["http://[::ffff:127.0.0.1]/", /loopback, as IPv6/],
      ["http://2130706433/", /127\.0\.0\.1 is a loopback address/],
      ["http://0x7f.1/", /127\.0\.0\.1 is a loopback address/],
      ["not a url", /not a valid URL/],
    ];
    for (const [url, reason] of cases) {
      const verdict = await checkTarget(url, open, noDns);
      expect(verdict.ok, url).toBe(false);
      if (!verdict.ok) expect(verdict.reason, url).toMatch(reason);
    }
  });

  it("refuses a name when ANY of its addresses is private, and names the address", async () => {
    const resolve: Resolver = () =>
      Promise.resolve([
        { address: "93.184.216.34", family: 4 },
        { address: "10.0.0.7", family: 4 },
      ]);
    const verdict = await checkTarget("https://mixed.example.com/", open, resolve);
    expect(verdict).toEqual({ ok: false, reason: expect.stringMatching(/mixed\.example\.com resolves to 10\.0\.0\.7, a private address/) as unknown });
  });

  it("resolves localhost-like names through the system resolver and still refuses them", async () => {
    // A name that the system resolves to loopback but that is not caught by name.
    const resolve: Resolver = async (host) => (await systemResolver(host === "loopback.example.com" ? "localhost" : host)) as LookupAddress[];
    const verdict = await checkTarget("http://loopback.example.com/", open, resolve);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(/resolves to (127\.0\.0\.1|::1), a loopback address/);
  });

  it("lets allowHosts reach loopback, and denyHosts beat allowHosts", async () => {
    expect((await checkTarget("http://127.0.0.1:1/", { allowHosts: ["127.0.0.1"], denyHosts: [] }, noDns)).ok).toBe(true);
    const denied = await checkTarget("http://api.example.com/", { allowHosts: ["*.example.com"], denyHosts: ["*.example.com"] }, noDns);
    expect(denied).toEqual({ ok: false, reason: 'api.example.com is denied by web.denyHosts ("*.example.com")' });
  });
});
