import { describe, expect, it } from "vitest";
import { internalNodeEnv } from "../../src/platform/internal-node-env.js";

describe("internalNodeEnv", () => {
  it("leaves out NODE_OPTIONS and NODE_EXTRA_CA_CERTS and keeps everything else", () => {
    const env = { PATH: "/bin", NODE_OPTIONS: "--import /tmp/x.mjs", NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt", SSL_CERT_FILE: "/a" };
    expect(internalNodeEnv(env)).toEqual({ PATH: "/bin", SSL_CERT_FILE: "/a" });
    expect(env.NODE_OPTIONS).toBe("--import /tmp/x.mjs");
  });

  it("returns the same object when there is nothing to leave out", () => {
    const env = { PATH: "/bin" };
    expect(internalNodeEnv(env)).toBe(env);
  });
});
