/**
 * The local Chroma server asks glibc for transparent huge pages: its vector indexes are allocated whole, and
 * first touches of 4 KiB pages are what made creating and loading a collection slow.
 */
import { describe, expect, it } from "vitest";
import { chromaServerEnv } from "../../../src/memory/chroma/server-env.js";

describe("chromaServerEnv", () => {
  it("adds the huge-page tunable, keeping the rest of the environment", () => {
    const env = chromaServerEnv({ PATH: "/bin", HOME: "/root" });
    expect(env).toEqual({ PATH: "/bin", HOME: "/root", GLIBC_TUNABLES: "glibc.malloc.hugetlb=1" });
  });

  it("appends to tunables the user set, and keeps the user's own choice of huge pages", () => {
    expect(chromaServerEnv({ GLIBC_TUNABLES: "glibc.malloc.arena_max=2" }).GLIBC_TUNABLES).toBe("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
    expect(chromaServerEnv({ GLIBC_TUNABLES: "glibc.malloc.hugetlb=0" }).GLIBC_TUNABLES).toBe("glibc.malloc.hugetlb=0");
  });

  it("leaves out the Node variables meant for the CLI (a CA bundle costs every Node start ~40 ms of CPU)", () => {
    const env = chromaServerEnv({ PATH: "/bin", NODE_OPTIONS: "--cpu-prof", NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt" });
    expect(env).toEqual({ PATH: "/bin", GLIBC_TUNABLES: "glibc.malloc.hugetlb=1" });
  });

  it("does not change the caller's object", () => {
    const env = { PATH: "/bin" };
    chromaServerEnv(env);
    expect(env).toEqual({ PATH: "/bin" });
  });
});
