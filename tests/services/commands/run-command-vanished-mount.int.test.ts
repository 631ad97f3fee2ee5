import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCommand } from "../../../src/services/commands/run-command.js";

/**
 * A credential file the sandbox hides can vanish between the moment the mounts are listed and bwrap's start (seen in
 * CI: one test created and removed /etc/sudoers while another ran a command). bwrap then fails before the command
 * starts; the command runs once more with the mounts listed again, instead of failing with bwrap's error.
 */
let dir = "";
beforeEach(async () => {
  // Not under /tmp, /var/tmp or /run (a checkout may be there): those are the sandbox's own, where bwrap could create
  // the missing mount point; the rest of the host (a cache folder in the home here) is read-only there, as /etc is.
  const cache = path.join(os.homedir(), ".cache");
  await fs.mkdir(cache, { recursive: true });
  dir = await fs.realpath(await fs.mkdtemp(path.join(cache, "mc-vanished-")));
  expect(["/tmp", "/var/tmp", "/run", "/var/run"].some((p) => dir.startsWith(`${p}/`))).toBe(false);
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("a hidden file that vanishes before bwrap starts", () => {
  it("does not fail the command: bwrap's setup error is retried once with fresh mounts", async () => {
    const home = path.join(dir, "home");
    const workspace = path.join(dir, "ws");
    await fs.mkdir(home);
    await fs.mkdir(workspace);
    const secret = path.join(dir, "secret.key");
    await fs.writeFile(secret, "machine example.com password hunter2\n");
    // A real bwrap behind a wrapper that, on its first start only, removes the file after its mount was listed.
    const starts = path.join(dir, "starts");
    const wrapper = path.join(dir, "bwrap-after-removal");
    await fs.writeFile(wrapper, `#!/bin/sh\necho start >> '${starts}'\nrm -f '${secret}'\nexec bwrap "$@"\n`, { mode: 0o755 });

    const result = await runCommand({
      command: `echo ran; cat '${secret}' 2>&1 || true`,
      cwd: workspace,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
      timeoutMs: 20_000,
      outputLimitChars: 10_000,
      sandbox: { workspace, home, allowNetwork: false, protectedPaths: [secret], readOnlyPaths: [], bwrapPath: wrapper },
    });
    expect(result.output).toContain("ran");
    expect(result.output).not.toContain("hunter2");
    expect(result.exitCode).toBe(0);
    expect((await fs.readFile(starts, "utf8")).trim().split("\n")).toHaveLength(2);
  });
});
