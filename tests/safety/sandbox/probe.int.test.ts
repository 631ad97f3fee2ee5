import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { probeSandbox } from "../../../src/safety/sandbox/probe.js";

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "mini-cursor-probe-"));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A stand-in bwrap that prints a version, then fails the way bwrap does where user namespaces are off. */
async function fakeBwrap(stderr: string): Promise<string> {
  const file = path.join(dir, "bwrap");
  const message = path.join(dir, "stderr.txt");
  await fs.writeFile(message, `${stderr}\n`);
  await fs.writeFile(file, `#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 0.8.0"; exit 0; fi\ncat '${message}' >&2\nexit 1\n`, { mode: 0o755 });
  return file;
}

describe("probeSandbox", () => {
  it("finds a working bubblewrap here (CI installs it) and caches the answer", async () => {
    const first = probeSandbox();
    const status = await first;
    expect(status, status.reason).toMatchObject({ kind: "bubblewrap", version: expect.stringMatching(/^\d+\.\d+/) });
    expect(status.reason).toMatch(/works/);
    expect(probeSandbox()).toBe(first);
    const again = probeSandbox({ refresh: true });
    expect(again).not.toBe(first);
    expect((await again).kind).toBe("bubblewrap");
  });

  it("says bubblewrap is not installed when the binary is missing", async () => {
    const status = await probeSandbox({ bwrapPath: path.join(dir, "no-such-bwrap") });
    expect(status.kind).toBe("none");
    expect(status.reason).toContain("not installed");
    expect(status.reason).toContain("apt-get install bubblewrap");
  });

  it("says user namespaces are unavailable when bwrap cannot create them", async () => {
    const status = await probeSandbox({
      bwrapPath: await fakeBwrap("bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces."),
    });
    expect(status).toMatchObject({ kind: "none", version: "0.8.0" });
    expect(status.reason).toContain("user namespaces are disabled or restricted");
    expect(status.reason).toContain("No permissions to create new namespace");
  });

  it("passes any other failure on with bwrap's own words", async () => {
    const status = await probeSandbox({ bwrapPath: await fakeBwrap("bwrap: Can't mount proc on /newroot/proc: Device or resource busy") });
    expect(status.kind).toBe("none");
    expect(status.reason).toContain("failed to start: bwrap: Can't mount proc on /newroot/proc: Device or resource busy");
  });

  it("runs its shell with stdin on /dev/null, so Debian's bash does not source ~/.bashrc (as it does for a socket)", async () => {
    // A user's .bashrc that exits, as some do for shells they did not expect; one that starts pyenv or nvm is slow.
    const home = path.join(dir, "home");
    await fs.mkdir(home);
    await fs.writeFile(path.join(home, ".bashrc"), "echo 'sourced .bashrc' >&2\nexit 7\n");
    // A bwrap stand-in that runs the command after "--" in the --chdir folder with that HOME and its own stdin, and no
    // SHLVL, as when an editor rather than a shell starts mini-cursor (bash reads the .bashrc only at shell level 1).
    const file = path.join(dir, "bwrap");
    await fs.writeFile(
      file,
      `#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 0.8.0"; exit 0; fi\n` +
        `while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do if [ "$1" = --chdir ]; then cd "$2" || exit 1; shift; fi; shift; done\nshift\nunset SHLVL\nHOME='${home}' exec "$@"\n`,
      { mode: 0o755 },
    );
    const status = await probeSandbox({ bwrapPath: file, refresh: true });
    expect(status.reason).not.toContain("sourced .bashrc");
    expect(status.kind).toBe("bubblewrap");
  });

  it("stops a probe that hangs after its time limit and says so", async () => {
    const file = path.join(dir, "bwrap");
    await fs.writeFile(file, `#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 0.8.0"; exit 0; fi\nexec sleep 30\n`, { mode: 0o755 });
    const status = await probeSandbox({ bwrapPath: file, refresh: true, timeoutMs: 300 });
    expect(status.kind).toBe("none");
    expect(status.reason).toContain("timed out after 300 ms");
  });

  it("leaves no scratch folder behind when the process exits while the probe runs", async () => {
    const tmp = path.join(dir, "tmp");
    await fs.mkdir(tmp);
    // A bwrap that answers --version, then takes its time: the process exits meanwhile, as a quick session does.
    const slow = path.join(dir, "slow-bwrap");
    await fs.writeFile(slow, '#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 0.8.0"; exit 0; fi\nsleep 5\n', { mode: 0o755 });
    const script = [
      `const { probeSandbox } = await import(${JSON.stringify(path.resolve("src/safety/sandbox/probe.ts"))});`,
      `void probeSandbox({ bwrapPath: ${JSON.stringify(slow)} });`,
      `const fs = await import("node:fs");`,
      `const started = () => fs.readdirSync(${JSON.stringify(tmp)}).some((n) => n.startsWith("mini-cursor-sandbox-probe-"));`,
      "const wait = () => (started() ? process.exit(0) : setTimeout(wait, 10));",
      "wait();",
    ].join("\n");
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      env: { ...process.env, TMPDIR: tmp },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(child.status, child.stderr).toBe(0);
    // (tsx keeps its own cache there too.)
    expect((await fs.readdir(tmp)).filter((n) => n.startsWith("mini-cursor-sandbox-probe-"))).toEqual([]);
  });

  it("removes scratch folders an hour old that killed probes left, and leaves a running probe's alone", async () => {
    const tmp = path.join(dir, "tmp");
    await fs.mkdir(tmp);
    const stale = path.join(tmp, "mini-cursor-sandbox-probe-killed");
    const fresh = path.join(tmp, "mini-cursor-sandbox-probe-running");
    for (const d of [stale, fresh]) await fs.mkdir(path.join(d, ".mini-cursor"), { recursive: true });
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000 - 60_000);
    await fs.utimes(stale, hourAgo, hourAgo);
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      await probeSandbox({ refresh: true, bwrapPath: await fakeBwrap("bwrap: something else went wrong") });
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    expect((await fs.readdir(tmp)).sort()).toEqual(["mini-cursor-sandbox-probe-running"]);
  });
});
