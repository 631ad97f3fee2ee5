import { promises as fs } from "node:fs";
import { describe, expect, it } from "vitest";
import { exists } from "../../tools/helpers.js";
import { runSandboxed, useSandboxWorkspace } from "./helpers.js";

const ws = useSandboxWorkspace();

describe("bubblewrap sandbox: privileges", () => {
  it("runs unprivileged with no capabilities at all, even when the caller is root", async () => {
    const { content } = await runSandboxed(ws(), "id -u; id -g; grep ^Cap /proc/self/status");
    expect(content).toMatch(/\n65534\n65534\n/);
    const caps = [...content.matchAll(/^(Cap\w+):\s+([0-9a-f]+)$/gm)].map((m) => [m[1], m[2]]);
    expect(caps.map(([name]) => name)).toEqual(["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"]);
    for (const [, value] of caps) expect(value).toMatch(/^0+$/);
  });

  it("cannot remount / read-write", async () => {
    const marker = `/mini-cursor-remount-${ws().token}`;
    const { content, artifact } = await runSandboxed(ws(), `mount -o remount,rw /; mount -o remount,rw,bind /; touch ${marker}`);
    expect(artifact.ok).toBe(false);
    expect(content.match(/must be superuser|Permission denied|Operation not permitted/g)?.length).toBeGreaterThanOrEqual(2);
    expect(content).toContain("Read-only file system");
    expect(await exists(marker)).toBe(false);
  });

  it("cannot regain privileges through a new user namespace", async () => {
    const { content } = await runSandboxed(
      ws(),
      "unshare -r true 2>&1; echo rc=$?; unshare -U true 2>&1; echo rc=$?; unshare -rm mount -t tmpfs none /mnt 2>&1; echo rc=$?",
    );
    expect(content).toMatch(/rc=1\n[\s\S]*rc=1\n[\s\S]*rc=1$/);
    expect(content).not.toMatch(/rc=0/);
  });

  it("cannot change kernel settings in /proc/sys (core_pattern would run programs as root)", async () => {
    const before = await fs.readFile("/proc/sys/kernel/core_pattern", "utf8");
    // Writing back the same value: harmless even if the sandbox failed to stop it.
    const { content } = await runSandboxed(
      ws(),
      'exec 2>&1; v=$(cat /proc/sys/kernel/core_pattern); printf "%s\\n" "$v" > /proc/sys/kernel/core_pattern; echo rc=$?; echo 1 > /proc/sys/vm/drop_caches; echo rc=$?',
    );
    expect(content).toContain("/proc/sys/kernel/core_pattern: Read-only file system");
    expect(content).toContain("/proc/sys/vm/drop_caches: Read-only file system");
    expect(content).toMatch(/core_pattern: Read-only file system\nrc=1\n.*drop_caches: Read-only file system\nrc=1$/);
    expect(await fs.readFile("/proc/sys/kernel/core_pattern", "utf8")).toBe(before);
  });

  it("cannot see or signal processes outside the sandbox", async () => {
    const { content } = await runSandboxed(ws(), `kill -0 ${process.pid} 2>&1; echo rc=$?; kill -0 1 && echo own-init; ls /proc | grep -c '^[0-9]'`);
    expect(content).toMatch(/No such process\nrc=1\n/);
    // Only bwrap's init, the shell and the few commands of this pipeline exist in its pid namespace.
    const count = Number(/(\d+)$/.exec(content)?.[1]);
    expect(count).toBeLessThan(8);
  });
});
